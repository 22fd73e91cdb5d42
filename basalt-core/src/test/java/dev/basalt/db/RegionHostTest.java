package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.region.Region;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region server's regions: opened from the shared root on command, closed with a final flush so
 * that the next server to open them finds every edit.
 */
class RegionHostTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;

  @Test
  void aRegionMovesBetweenHostsWithItsData() throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    TableDescriptor desc =
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
            .build();
    RegionInfo info = catalog.createTable(desc, null).regions().get(0).info();
    String name = info.getEncodedName();
    long last;
    try (RegionHost a = RegionHost.start(storage, "h,1,1", Config.defaults(), Clock.system())) {
      Region r = a.open(info, catalog.requireTable(T).descriptor(), 0);
      assertThat(a.open(info, desc, 0)).as("already open").isSameAs(r);
      r.put(new Put(Bytes.toBytes("row")).addColumn(F, Q, Bytes.toBytes("v")));
      assertThat(a.region(name)).isSameAs(r);
      assertThat(a.getRegionMetrics()).hasSize(1);
      last = a.close(name);
      assertThat(last).isPositive();
      assertThat(a.region(name)).isNull();
      assertThat(a.close(name)).as("not open here").isEqualTo(-1);
    }
    try (RegionHost b = RegionHost.start(storage, "h,2,2", Config.defaults(), Clock.system())) {
      Region r = b.open(info, ClusterCatalog.readDescriptor(storage, T), last);
      assertThat(Bytes.toString(r.get(new Get(Bytes.toBytes("row"))).getValue(F, Q)))
          .isEqualTo("v");
      r.put(new Put(Bytes.toBytes("row2")).addColumn(F, Q, Bytes.toBytes("w")));
      assertThat(b.close(name)).as("sequence ids continue").isGreaterThan(last);
    }
  }

  @Test
  void aHostNeedsAClusterRootAndALogOfItsOwn() throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    assertThatThrownBy(() -> RegionHost.start(storage, "h,1,1", Config.defaults(), Clock.system()))
        .hasMessageContaining("not the root directory of a cluster");
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    RegionInfo info =
        catalog
            .createTable(
                TableDescriptorBuilder.newBuilder(T)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
                    .build(),
                null)
            .regions()
            .get(0)
            .info();
    RegionHost a = RegionHost.start(storage, "h,1,1", Config.defaults(), Clock.system());
    a.open(info, catalog.requireTable(T).descriptor(), 0)
        .put(new Put(Bytes.toBytes("row")).addColumn(F, Q, Bytes.toBytes("v")));
    a.abort(); // the log keeps the edit
    assertThatThrownBy(() -> RegionHost.start(storage, "h,1,1", Config.defaults(), Clock.system()))
        .hasMessageContaining("already holds a write-ahead log");
  }

  @Test
  void aSplitAndAMergeHandOverTheDataThroughTheCatalog() throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    TableDescriptor desc =
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
            .build();
    RegionInfo parent = catalog.createTable(desc, null).regions().get(0).info();
    try (RegionHost host = RegionHost.start(storage, "h,1,1", Config.defaults(), Clock.system())) {
      Region r = host.open(parent, desc, 0);
      for (String row : new String[] {"a", "k", "z"}) {
        r.put(new Put(Bytes.toBytes(row)).addColumn(F, Q, Bytes.toBytes(row)));
      }
      assertThatThrownBy(() -> host.split(parent.getEncodedName(), Bytes.toBytes(""), 1))
          .hasMessageContaining("not strictly inside");
      RegionHost.HandOver split =
          host.split(parent.getEncodedName(), Bytes.toBytes("m"), catalog.nextRegionId());
      assertThat(host.region(parent.getEncodedName())).as("the parent is closed").isNull();
      assertThat(split.regions()).hasSize(2);
      catalog.replaceRegions(
          T, java.util.List.of(parent.getEncodedName()), split.regions(), split.lastSequenceId());
      assertThat(catalog.requireTable(T).regionInfos()).isEqualTo(split.regions());

      Region low = host.open(split.regions().get(0), desc, split.lastSequenceId());
      Region high = host.open(split.regions().get(1), desc, split.lastSequenceId());
      assertThat(Bytes.toString(low.get(new Get(Bytes.toBytes("k"))).getValue(F, Q)))
          .isEqualTo("k");
      assertThat(Bytes.toString(high.get(new Get(Bytes.toBytes("z"))).getValue(F, Q)))
          .isEqualTo("z");
      assertThatThrownBy(() -> host.split(low.getRegionInfo().getEncodedName(), null, 2))
          .as("a daughter reads its parent's files until compacted")
          .hasMessageContaining("once compacted");

      low.compact(true);
      high.compact(true);
      RegionHost.HandOver merged =
          host.merge(
              high.getRegionInfo().getEncodedName(),
              low.getRegionInfo().getEncodedName(),
              catalog.nextRegionId());
      RegionInfo m = merged.regions().get(0);
      assertThat(m.getStartKey()).isEmpty();
      assertThat(m.getEndKey()).isEmpty();
      catalog.replaceRegions(
          T,
          java.util.List.of(
              low.getRegionInfo().getEncodedName(), high.getRegionInfo().getEncodedName()),
          merged.regions(),
          merged.lastSequenceId());
      Region whole = host.open(m, desc, merged.lastSequenceId());
      assertThat(Bytes.toString(whole.get(new Get(Bytes.toBytes("a"))).getValue(F, Q)))
          .isEqualTo("a");
      assertThat(Bytes.toString(whole.get(new Get(Bytes.toBytes("z"))).getValue(F, Q)))
          .isEqualTo("z");
    }
  }
}
