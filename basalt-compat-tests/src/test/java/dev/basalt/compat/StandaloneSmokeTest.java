package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.rows;
import static dev.basalt.compat.StockClientFixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stock client against a real standalone server through both registries: create a pre-split
 * table, write, read, scan across regions, drop it; and the data outlives a restart.
 */
class StandaloneSmokeTest {
  private static final byte[] CF = Bytes.toBytes("cf");
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

  private static void roundTrip(Configuration conf, String name) throws Exception {
    TableName tn = TableName.valueOf(name);
    try (Connection c = ConnectionFactory.createConnection(conf);
        Admin admin = c.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(tn)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
              .build(),
          new byte[][] {Bytes.toBytes("r3"), Bytes.toBytes("r6")});
      assertThat(admin.tableExists(tn)).isTrue();
      assertThat(admin.isTableAvailable(tn)).isTrue();
      assertThat(admin.getRegions(tn)).hasSize(3);
      try (Table t = c.getTable(tn)) {
        for (int i = 0; i < 10; i++) {
          t.put(
              new Put(Bytes.toBytes("r" + i)).addColumn(CF, Bytes.toBytes("q"), Bytes.toBytes(i)));
        }
        Result r = t.get(new Get(Bytes.toBytes("r7")));
        assertThat(Bytes.toInt(r.getValue(CF, Bytes.toBytes("q")))).isEqualTo(7);
        List<String> rows = rows(scan(t, new Scan()));
        assertThat(rows).hasSize(10).isSorted();
        List<String> reversed = rows(scan(t, new Scan().setReversed(true)));
        assertThat(reversed).hasSize(10).isSortedAccordingTo((a, b) -> b.compareTo(a));
      }
      admin.disableTable(tn);
      assertThat(admin.isTableDisabled(tn)).isTrue();
      admin.deleteTable(tn);
      assertThat(admin.tableExists(tn)).isFalse();
      try (Table t = c.getTable(tn)) {
        assertThatThrownBy(() -> t.get(new Get(Bytes.toBytes("r1"))))
            .isInstanceOf(TableNotFoundException.class);
      }
    }
  }

  @Test
  void zooKeeperRegistry() throws Exception {
    roundTrip(cluster.zooKeeperClientConf(), "smoke_zk");
  }

  @Test
  void rpcRegistry() throws Exception {
    roundTrip(cluster.rpcRegistryClientConf(), "smoke_rpc");
  }
}
