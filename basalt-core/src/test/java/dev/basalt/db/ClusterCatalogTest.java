package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.LocalStorage;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog a cluster's master keeps: DDL that persists, without opening regions. */
class ClusterCatalogTest {
  private static final TableName T = TableName.valueOf("ns1", "t");

  @TempDir Path dir;

  private ClusterCatalog open() throws IOException {
    return ClusterCatalog.open(new LocalStorage(dir), Clock.system(), true);
  }

  private static TableDescriptor table(TableName name) {
    return TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
        .build();
  }

  @Test
  void tablesAndNamespacesPersist() throws IOException {
    ClusterCatalog c = open();
    c.createNamespace(NamespaceDescriptor.create("ns1").build());
    ClusterCatalog.TableEntry t =
        c.createTable(table(T), new byte[][] {Bytes.toBytes("m"), Bytes.toBytes("c")});
    assertThat(t.enabled()).isTrue();
    assertThat(t.regions()).hasSize(3);
    assertThat(t.descriptor().getColumnFamilies().get(0).isNewVersionBehavior()).isTrue();
    assertThatThrownBy(() -> c.createTable(table(T), null))
        .isInstanceOf(TableExistsException.class);
    assertThatThrownBy(() -> c.deleteNamespace("ns1")).isInstanceOf(ConstraintException.class);
    assertThatThrownBy(() -> c.deleteTable(T)).isInstanceOf(TableNotDisabledException.class);

    RegionInfo first = t.regions().get(0).info();
    c.setEnabled(T, false, Map.of(first.getEncodedName(), 42L));
    assertThat(ClusterCatalog.readRegionFloor(c.storage(), first)).isEqualTo(42);
    c.recordFloors(T, Map.of(first.getEncodedName(), 7L)); // lower: kept at 42
    assertThat(ClusterCatalog.readRegionFloor(c.storage(), first)).isEqualTo(42);

    ClusterCatalog again = open();
    assertThat(again.clusterId()).isEqualTo(c.clusterId());
    ClusterCatalog.TableEntry back = again.requireTable(T);
    assertThat(back.enabled()).isFalse();
    assertThat(back.regionInfos()).isEqualTo(t.regionInfos());
    assertThat(ClusterCatalog.readDescriptor(again.storage(), T)).isEqualTo(back.descriptor());

    ClusterCatalog.TableEntry truncated = again.truncateTable(T, true);
    assertThat(truncated.enabled()).isTrue();
    assertThat(truncated.regions()).hasSize(3);
    assertThat(truncated.regionInfos()).doesNotContainAnyElementsOf(t.regionInfos());
    again.setEnabled(T, false, Map.of());
    again.deleteTable(T);
    assertThat(again.table(T)).isNull();
    again.deleteNamespace("ns1");
    assertThat(open().tables()).isEmpty();
  }

  @Test
  void regionServersFindTheClusterIdOnlyOnAClusterRoot() throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    assertThatThrownBy(() -> ClusterCatalog.clusterIdOf(storage))
        .hasMessageContaining("not the root directory of a cluster");
    ClusterCatalog c = open();
    assertThat(ClusterCatalog.clusterIdOf(storage)).isEqualTo(c.clusterId());
    assertThatThrownBy(() -> ClusterCatalog.readDescriptor(storage, T))
        .isInstanceOf(TableNotFoundException.class);
  }
}
