package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server finds the region a request names by its full name: every open region of every table,
 * start keys with commas included; anything else is NotServingRegionException.
 */
class OnlineRegionTest {
  private static final byte[][] SPLITS = {
    Bytes.toBytes("b"), Bytes.toBytes("c,with,commas"), Bytes.toBytes("d"), new byte[] {'e', 0, -1}
  };

  @TempDir Path dir;

  private static TableDescriptor table(TableName name) {
    return TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
        .build();
  }

  private static void assertNotServing(Database db, byte[] name) {
    assertThatThrownBy(() -> db.onlineRegion(name))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("is not online")
        .satisfies(
            e ->
                assertThat(((BasaltIOException) e).hbaseExceptionClass())
                    .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException"));
  }

  @Test
  void everyRegionOfEveryTableIsFoundByItsName() throws Exception {
    try (Database db = Database.open(dir)) {
      db.createNamespace(NamespaceDescriptor.create("ns").build());
      TableName t = TableName.valueOf("t");
      TableName longer = TableName.valueOf("t2"); // starts with the other's name
      TableName other = TableName.valueOf("ns", "t");
      db.createTable(table(t), SPLITS);
      db.createTable(table(longer), SPLITS);
      db.createTable(table(other));
      for (TableName name : List.of(t, longer, other)) {
        for (RegionInfo info : db.getRegions(name)) {
          assertThat(db.onlineRegion(info.getRegionName()).getRegionInfo()).isEqualTo(info);
        }
      }
      assertThat(db.getRegions(t)).hasSize(SPLITS.length + 1);
    }
  }

  @Test
  void namesNoOpenRegionHasAreNotServing() throws Exception {
    try (Database db = Database.open(dir)) {
      TableName t = TableName.valueOf("t");
      db.createTable(table(t), SPLITS);
      byte[] first = db.getRegions(t).get(0).getRegionName();
      assertNotServing(db, Bytes.toBytes("no comma at all"));
      assertNotServing(db, Bytes.toBytes("t,"));
      assertNotServing(db, Bytes.toBytes(",,1.x."));
      assertNotServing(db, Bytes.toBytes("missing,,1.0123456789abcdef0123456789abcdef."));
      // The right table and start key with another region id.
      byte[] otherId = first.clone();
      otherId[Bytes.toString(first).lastIndexOf(',') + 1] ^= 1;
      assertNotServing(db, otherId);

      // A region split away is not served any more; its daughters are.
      db.getTable(t).put(new Put(b("a1")).addColumn(b("f"), b("q"), b("v")));
      List<RegionInfo> daughters = db.split(t, b("a"));
      assertNotServing(db, first);
      for (RegionInfo d : daughters) {
        assertThat(db.onlineRegion(d.getRegionName()).getRegionInfo()).isEqualTo(d);
      }

      // Nor is any region of a disabled table.
      byte[] second = db.getRegions(t).get(1).getRegionName();
      db.disableTable(t);
      assertNotServing(db, second);
    }
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }
}
