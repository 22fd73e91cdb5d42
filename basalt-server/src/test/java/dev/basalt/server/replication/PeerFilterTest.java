package dev.basalt.server.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationPeer;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.TableCF;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HBase's filter chain: scope, peer selection, exclusions, system tables, the loop guard. */
class PeerFilterTest {
  private static final UUID PEER = new UUID(7, 7);
  private static final UUID HERE = new UUID(1, 1);

  @TempDir Path dir;

  private static final Map<TableName, TableDescriptor> TABLES =
      Map.of(
          TableName.valueOf("t"), table("t"),
          TableName.valueOf("ns:u"), table("ns:u"),
          TableName.valueOf("hbase:meta"), table("hbase:meta"));

  private static TableDescriptor table(String name) {
    return TableDescriptorBuilder.newBuilder(TableName.valueOf(name))
        .setColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("a")).setScope(1).build())
        .setColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("b")).setScope(1).build())
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("local")).build())
        .build();
  }

  private static KeyValue cell(String family) {
    return KeyValue.of(
        Bytes.toBytes("r"),
        Bytes.toBytes(family),
        Bytes.toBytes("q"),
        1,
        CellType.PUT,
        Bytes.toBytes("v"));
  }

  private static final List<KeyValue> CELLS = List.of(cell("a"), cell("b"), cell("local"));

  private static List<String> shipped(ReplicationPeer config, String table, List<UUID> passed) {
    return new PeerFilter(config)
        .select(table, passed, PEER, CELLS, TABLES::get).stream()
            .map(kv -> Bytes.toString(dev.basalt.cell.CellUtil.cloneFamily(kv)))
            .toList();
  }

  private static TableCF tableCf(String ns, String q, String... families) {
    TableCF.Builder b =
        TableCF.newBuilder()
            .setTableName(
                HBaseProtos.TableName.newBuilder()
                    .setNamespace(ByteString.copyFromUtf8(ns))
                    .setQualifier(ByteString.copyFromUtf8(q)));
    for (String f : families) {
      b.addFamilies(ByteString.copyFromUtf8(f));
    }
    return b.build();
  }

  @Test
  void replicateAllShipsScopedFamiliesOfUserTablesButExclusions() {
    ReplicationPeer all = ReplicationPeer.newBuilder().setClusterkey("z:1:/h").build();
    assertThat(shipped(all, "t", List.of(HERE))).containsExactly("a", "b");
    assertThat(shipped(all, "hbase:meta", List.of(HERE))).isEmpty();
    assertThat(shipped(all, null, List.of(HERE)))
        .as("an old segment without table names")
        .isEmpty();
    assertThat(shipped(all, "gone", List.of(HERE))).as("a dropped table").isEmpty();
    assertThat(shipped(all, "t", List.of(PEER, HERE))).as("it came from the peer").isEmpty();

    ReplicationPeer excluding =
        all.toBuilder()
            .setReplicateAll(true)
            .addExcludeNamespaces(ByteString.copyFromUtf8("ns"))
            .addExcludeTableCfs(tableCf("default", "t", "b"))
            .build();
    assertThat(shipped(excluding, "t", List.of(HERE))).containsExactly("a");
    assertThat(shipped(excluding, "ns:u", List.of(HERE))).isEmpty();
  }

  @Test
  void aSelectionShipsOnlyWhatItNames() {
    ReplicationPeer some =
        ReplicationPeer.newBuilder()
            .setClusterkey("z:1:/h")
            .setReplicateAll(false)
            .addTableCfs(tableCf("default", "t", "b", "local"))
            .build();
    assertThat(shipped(some, "t", List.of(HERE)))
        .as("scope 0 wins over the selection")
        .containsExactly("b");
    assertThat(shipped(some, "ns:u", List.of(HERE))).isEmpty();
    ReplicationPeer namespace =
        some.toBuilder().clearTableCfs().addNamespaces(ByteString.copyFromUtf8("ns")).build();
    assertThat(shipped(namespace, "ns:u", List.of(HERE))).containsExactly("a", "b");
    assertThat(shipped(namespace, "t", List.of(HERE))).isEmpty();
  }

  @Test
  void thePeerListSurvivesARoundTrip() throws IOException {
    PeerStore store = new PeerStore(new dev.basalt.fs.LocalStorage(dir));
    assertThat(store.load()).isEmpty();
    List<Peer> peers =
        List.of(
            new Peer("1", true, ReplicationPeer.newBuilder().setClusterkey("a:1:/h").build(), 5),
            new Peer(
                "dr",
                false,
                ReplicationPeer.newBuilder().setClusterkey("b:2:/x").setSerial(true).build(),
                6));
    store.save(peers);
    assertThat(new PeerStore(new dev.basalt.fs.LocalStorage(dir)).load()).isEqualTo(peers);
  }
}
