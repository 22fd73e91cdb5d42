package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.exceptions.MergeRegionException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A split in cluster mode under the probe: {@code Admin.split} at a row cuts the region there, the
 * daughters take the parent's place in meta (the invariants check the table's key space is still
 * tiled, each region open on exactly one server), and no client operation fails.
 */
@ExtendWith(SharedCluster.class)
class ClusterSplitTest {
  private static final TableName TABLE = TableName.valueOf("cluster_split");
  private static final int REGIONS = 3;

  @AfterAll
  static void dropTable() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ClusterTables.drop(admin, TABLE);
    }
  }

  @Test
  void aSplitUnderLoadReplacesTheRegionByItsDaughters() throws Exception {
    Connection c = SharedCluster.connection();
    try (Admin admin = c.getAdmin()) {
      ClusterTables.create(admin, TABLE, REGIONS);
      try (Probe probe =
          Probe.start(
              SharedCluster.clientConf(SharedCluster.cluster()),
              TABLE,
              List.of(
                  ClusterTables.rowIn(0, "p"),
                  ClusterTables.rowIn(1, "a"),
                  ClusterTables.rowIn(1, "z"),
                  ClusterTables.rowIn(2, "p")))) {
        probe.awaitRound();
        byte[] splitRow = ClusterTables.rowIn(1, "m");
        long t0 = System.nanoTime();
        admin.split(TABLE, splitRow);
        long deadline = t0 + TimeUnit.SECONDS.toNanos(30);
        List<HRegionLocation> regions = ClusterTables.locations(c, TABLE);
        while (regions.size() != REGIONS + 1 && System.nanoTime() < deadline) {
          Thread.sleep(100);
          regions = ClusterTables.locations(c, TABLE);
        }
        long splitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        probe.awaitRound();
        Probe.Stats stats = probe.finish();
        System.out.printf("split: %d ms to 4 regions in meta; probe: %s%n", splitMillis, stats);
        assertThat(regions).hasSize(REGIONS + 1);
        assertThat(regions.get(1).getRegion().getEndKey()).isEqualTo(splitRow);
        assertThat(regions.get(2).getRegion().getStartKey()).isEqualTo(splitRow);
        assertThat(Bytes.toString(regions.get(2).getRegion().getEndKey())).isEqualTo("r002");
        assertThat(stats.failures()).as("failed probe operations: %s", stats).isZero();

        // the daughters still read their parent's files: a merge is refused, saying why, until a
        // major compaction has rewritten them
        byte[] left = regions.get(1).getRegion().getEncodedNameAsBytes();
        byte[] right = regions.get(2).getRegion().getEncodedNameAsBytes();
        assertThatThrownBy(
                () -> admin.mergeRegionsAsync(left, right, false).get(30, TimeUnit.SECONDS))
            .isInstanceOf(MergeRegionException.class)
            .hasMessageContaining("it still reads files of the region it was split or merged from");
        admin.majorCompact(TABLE);
        long mergeDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
          try {
            // refused at once (MergeRegionException) or through the future
            admin.mergeRegionsAsync(left, right, false).get(30, TimeUnit.SECONDS);
            break;
          } catch (IOException | java.util.concurrent.ExecutionException e) {
            String why = String.valueOf(e instanceof IOException ? e : e.getCause());
            if (System.nanoTime() > mergeDeadline || !why.contains("reference")) {
              throw e;
            }
            Thread.sleep(200); // the compaction has not rewritten both yet
          }
        }
        assertThat(ClusterTables.locations(c, TABLE)).hasSize(REGIONS);
      }
    }
  }
}
