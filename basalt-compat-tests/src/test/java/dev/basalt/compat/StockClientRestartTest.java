package dev.basalt.compat;

import static dev.basalt.compat.StockClients.CF;
import static dev.basalt.compat.StockClients.Q;
import static dev.basalt.compat.StockClients.awaitRegions;
import static dev.basalt.compat.StockClients.create;
import static dev.basalt.compat.StockClients.row;
import static dev.basalt.compat.StockClients.scanRows;
import static dev.basalt.compat.StockClients.writeRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A clean restart of the standalone server (memstores flushed on stop) loses nothing the stock
 * client wrote: rows (flushed or only in the memstore and WAL), tables with their regions and
 * descriptors, namespaces, disabled states.
 *
 * <p>Clients across a restart: the stock client finds the cluster only through its registry
 * settings (ZooKeeper quorum and port, or the RPC bootstrap servers). A server restarted on the
 * same ports is found again by a Connection opened before the restart: its cached region locations
 * fail, it re-reads hbase:meta and carries on. A server restarted on other ports (the test
 * fixture's ephemeral ports) cannot be found by such a Connection at all, since its registry still
 * points at the old ports; that is a property of the client's settings, not something the server
 * can change, and a new Connection with the new settings is needed (as against HBase).
 */
class StockClientRestartTest {
  private static final int ROWS = 10_000;

  @TempDir static Path dir;
  private static StandaloneCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = StandaloneCluster.start(dir);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void restartKeepsRowsTablesNamespacesAndStates() throws Exception {
    String ns = "restart_ns";
    TableName data = TableName.valueOf(ns, "data");
    TableName plain = TableName.valueOf("restart_plain");
    TableName disabled = TableName.valueOf("restart_disabled");
    try (Connection c = ConnectionFactory.createConnection(cluster.zooKeeperClientConf());
        Admin admin = c.getAdmin()) {
      admin.createNamespace(NamespaceDescriptor.create(ns).addConfiguration("k", "v").build());
      create(admin, data, "r02500", "r05000", "r07500");
      admin.createTable(
          TableDescriptorBuilder.newBuilder(plain)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(3).build())
              .setValue("restart.attribute", "kept")
              .build());
      create(admin, disabled);

      writeRows(c, data, "r", 0, 6_000);
      admin.flush(data); // these are in store files
      writeRows(c, data, "r", 6_000, ROWS); // these only in the memstore and the WAL
      writeRows(c, plain, "p", 0, 100);
      writeRows(c, disabled, "d", 0, 10);
      admin.disableTable(disabled);
    }

    cluster.restart();

    try (Connection c = ConnectionFactory.createConnection(cluster.zooKeeperClientConf());
        Admin admin = c.getAdmin()) {
      assertThat(admin.listNamespaces()).contains(ns);
      assertThat(admin.getNamespaceDescriptor(ns).getConfigurationValue("k")).isEqualTo("v");
      assertThat(admin.listTableNames()).contains(data, plain, disabled);
      assertThat(admin.isTableEnabled(data)).isTrue();
      assertThat(admin.isTableEnabled(plain)).isTrue();
      assertThat(admin.isTableDisabled(disabled)).isTrue();
      assertThat(admin.getDescriptor(plain).getValue("restart.attribute")).isEqualTo("kept");
      assertThat(admin.getDescriptor(plain).getColumnFamily(CF).getMaxVersions()).isEqualTo(3);
      assertThat(admin.getRegions(data))
          .extracting(r -> Bytes.toString(r.getStartKey()))
          .containsExactly("", "r02500", "r05000", "r07500");

      assertEveryRow(c, data, "r", ROWS);
      assertEveryRow(c, plain, "p", 100);

      admin.enableTable(disabled);
      assertEveryRow(c, disabled, "d", 10);
    }
  }

  @Test
  void splitsMergesTruncationsAndDropsOutliveARestart() throws Exception {
    TableName split = TableName.valueOf("restart_split");
    TableName merged = TableName.valueOf("restart_merged");
    TableName truncated = TableName.valueOf("restart_truncated");
    TableName dropped = TableName.valueOf("restart_dropped");
    try (Connection c = ConnectionFactory.createConnection(cluster.rpcRegistryClientConf());
        Admin admin = c.getAdmin()) {
      create(admin, split);
      writeRows(c, split, "r", 0, 1_000);
      admin.split(split, row("r", 400));
      awaitRegions(admin, split, 2);
      writeRows(c, split, "r", 1_000, 1_200); // after the split, memstore only

      create(admin, merged, "r00300", "r00600");
      writeRows(c, merged, "r", 0, 900);
      List<RegionInfo> regions = admin.getRegions(merged);
      admin
          .mergeRegionsAsync(
              regions.get(1).getEncodedNameAsBytes(), regions.get(2).getEncodedNameAsBytes(), false)
          .get(60, TimeUnit.SECONDS);

      create(admin, truncated, "m");
      writeRows(c, truncated, "r", 0, 500); // memstore and WAL only
      admin.disableTable(truncated);
      admin.truncateTable(truncated, true);
      writeRows(c, truncated, "s", 0, 5);

      create(admin, dropped);
      writeRows(c, dropped, "r", 0, 500); // memstore and WAL only
      admin.disableTable(dropped);
      admin.deleteTable(dropped);
      create(admin, dropped); // same name, new regions
      writeRows(c, dropped, "n", 0, 3);
    }

    cluster.restart();

    try (Connection c = ConnectionFactory.createConnection(cluster.rpcRegistryClientConf());
        Admin admin = c.getAdmin()) {
      assertThat(admin.getRegions(split))
          .extracting(r -> Bytes.toString(r.getStartKey()))
          .containsExactly("", "r00400");
      assertEveryRow(c, split, "r", 1_200);

      assertThat(admin.getRegions(merged))
          .extracting(r -> Bytes.toString(r.getStartKey()))
          .containsExactly("", "r00300");
      assertEveryRow(c, merged, "r", 900);

      assertThat(admin.getRegions(truncated))
          .extracting(r -> Bytes.toString(r.getStartKey()))
          .containsExactly("", "m");
      assertEveryRow(c, truncated, "s", 5);

      assertEveryRow(c, dropped, "n", 3);
    }
  }

  /** A full scan returns rows 0..n-1 in order, and a get of each finds its value. */
  private static void assertEveryRow(Connection c, TableName tn, String prefix, int n)
      throws IOException {
    List<String> expected = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      expected.add(Bytes.toString(row(prefix, i)));
    }
    assertThat(scanRows(c, tn)).isEqualTo(expected);
    try (Table t = c.getTable(tn)) {
      List<Get> gets = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        gets.add(new Get(row(prefix, i)));
      }
      Result[] results = t.get(gets);
      for (int i = 0; i < n; i++) {
        assertThat(results[i].getValue(CF, Q)).as("row %s", i).isEqualTo(Bytes.toBytes(i));
      }
    }
  }

  @Test
  void connectionsFromBeforeARestartOnTheSamePortsRecover() throws Exception {
    TableName tn = TableName.valueOf("restart_same_ports");
    Configuration zkConf = cluster.zooKeeperClientConf();
    Configuration rpcConf = cluster.rpcRegistryClientConf();
    try (Connection zk = ConnectionFactory.createConnection(zkConf);
        Connection rpc = ConnectionFactory.createConnection(rpcConf)) {
      try (Admin admin = zk.getAdmin()) {
        create(admin, tn, "m");
      }
      try (Table viaZk = zk.getTable(tn);
          Table viaRpc = rpc.getTable(tn)) {
        viaZk.put(new Put(Bytes.toBytes("a")).addColumn(CF, Q, Bytes.toBytes("1")));
        viaRpc.put(new Put(Bytes.toBytes("z")).addColumn(CF, Q, Bytes.toBytes("2")));
        // both have the table's locations cached now
        assertThat(viaZk.get(new Get(Bytes.toBytes("z"))).isEmpty()).isFalse();
        assertThat(viaRpc.get(new Get(Bytes.toBytes("a"))).isEmpty()).isFalse();

        cluster.restartOnSamePorts();

        for (Table t : List.of(viaZk, viaRpc)) {
          assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("a"))).getValue(CF, Q)))
              .isEqualTo("1");
          assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("z"))).getValue(CF, Q)))
              .isEqualTo("2");
        }
        viaZk.put(new Put(Bytes.toBytes("b")).addColumn(CF, Q, Bytes.toBytes("3")));
        viaRpc.put(new Put(Bytes.toBytes("y")).addColumn(CF, Q, Bytes.toBytes("4")));
      }
      // the master's stub recovers too
      for (Connection c : List.of(zk, rpc)) {
        try (Admin admin = c.getAdmin()) {
          assertThat(admin.isTableEnabled(tn)).isTrue();
          assertThat(admin.getRegions(tn)).extracting(RegionInfo::getTable).containsOnly(tn);
          assertThat(admin.getClusterMetrics().getClusterId())
              .isEqualTo(cluster.server().cluster().clusterId());
        }
        assertThat(scanRows(c, tn)).containsExactly("a", "b", "y", "z");
      }
    }
  }

  @Test
  void aRestartOnOtherPortsNeedsANewConnection() throws Exception {
    TableName tn = TableName.valueOf("restart_new_ports");
    Configuration before = cluster.rpcRegistryClientConf();
    before.setInt("hbase.client.retries.number", 2); // it is bound to fail: fail soon
    try (Connection old = ConnectionFactory.createConnection(before)) {
      try (Admin admin = old.getAdmin()) {
        create(admin, tn);
      }
      try (Table t = old.getTable(tn)) {
        t.put(new Put(Bytes.toBytes("a")).addColumn(CF, Q, Bytes.toBytes("1")));
      }

      cluster.restart();

      // The old settings name ports nothing listens on any more: the cached region server
      // refuses connections, and the registry (the old master address) cannot be asked where
      // hbase:meta is now.
      try (Table t = old.getTable(tn)) {
        assertThatThrownBy(() -> t.get(new Get(Bytes.toBytes("a"))))
            .isInstanceOf(RetriesExhaustedException.class)
            .hasMessageContaining("MasterRegistryFetchException");
      }
      try (Connection fresh = ConnectionFactory.createConnection(cluster.rpcRegistryClientConf());
          Table t = fresh.getTable(tn)) {
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("a"))).getValue(CF, Q)))
            .isEqualTo("1");
      }
    }
  }
}
