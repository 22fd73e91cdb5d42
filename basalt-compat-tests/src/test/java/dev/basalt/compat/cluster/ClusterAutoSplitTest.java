package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Splits by size in cluster mode: a region server finds a region past the table's MAX_FILESIZE
 * after a compaction and asks the master (READY_TO_SPLIT), which splits it like a split on request;
 * every row stays readable, and the daughters take the parent's place in meta.
 */
@ExtendWith(SharedCluster.class)
class ClusterAutoSplitTest {
  private static final TableName TABLE = TableName.valueOf("cluster_auto_split");
  private static final int ROWS = 2_000;

  @AfterAll
  static void dropTable() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ClusterTables.drop(admin, TABLE);
    }
  }

  @Test
  void aRegionPastItsMaximumSizeSplitsByItself() throws Exception {
    Connection c = SharedCluster.connection();
    try (Admin admin = c.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(ClusterTables.CF))
              .setMaxFileSize(64 * 1024)
              .build());
      try (Table t = c.getTable(TABLE)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
          puts.add(
              new Put(Bytes.toBytes(String.format("row%05d", i)))
                  .addColumn(ClusterTables.CF, ClusterTables.Q, new byte[100]));
        }
        t.put(puts);
      }
      long t0 = System.nanoTime();
      admin.flush(TABLE); // the flush's compaction check finds the region too large
      long deadline = t0 + TimeUnit.SECONDS.toNanos(60);
      List<HRegionLocation> regions = ClusterTables.locations(c, TABLE);
      while (regions.size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(100);
        regions = ClusterTables.locations(c, TABLE);
      }
      System.out.printf(
          "auto split: %d regions %d ms after the flush%n",
          regions.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      assertThat(regions.size()).as("regions of %s", TABLE).isGreaterThanOrEqualTo(2);
      int n = 0;
      try (Table t = c.getTable(TABLE);
          ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          assertThat(Bytes.toString(r.getRow())).isEqualTo(String.format("row%05d", n));
          n++;
        }
      }
      assertThat(n).isEqualTo(ROWS);
    }
  }
}
