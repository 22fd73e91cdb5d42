package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.bench.chaos.ActionReport;
import dev.basalt.bench.chaos.ChaosActions;
import dev.basalt.bench.chaos.GapProbe;
import dev.basalt.bench.chaos.LinkedListVerifier;
import dev.basalt.bench.chaos.LinkedListWriter;
import dev.basalt.bench.chaos.NodeKeys;
import dev.basalt.server.cluster.LocalCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The failover chaos matrix of issue 28 that the build runs (the long random soak is basalt-bench's
 * ChaosSoak, basalt-bench/scripts/chaos-soak.sh): on the shared cluster, while linked-list writers
 * (IntegrationTestBigLinkedList's idea, through the stock client) and a probe run, a few actions in
 * turn, each followed by the invariants and the cluster's shape restored:
 *
 * <ol>
 *   <li>kill -9 of the region server with the most regions;
 *   <li>kill -9 of a region server and a new one started at once on its port (HBase's newer start
 *       code on the same address);
 *   <li>kill -9 of the active master during the writes: a standby serves meta and DDL;
 *   <li>a master started with {@code master.recovery.afterSplit=halt} made active, then a region
 *       server killed: the master halts in the middle of the crash recovery (log fenced and split,
 *       not yet archived) and the standby must finish it, every region OPEN exactly once.
 * </ol>
 *
 * At the end the verifier scans the table: no acknowledged node lost, none undefined. The probe
 * must see no failed operation. Times are printed, the assertions are about safety.
 */
@ExtendWith(SharedCluster.class)
class ClusterChaosTest {
  private static final TableName LIST = TableName.valueOf("chaos_ci_list");
  private static final TableName PROBE = TableName.valueOf("chaos_ci_probe");
  private static final int PROBE_REGIONS = 4;
  private static final long PROGRESS_MILLIS = 60_000;

  private final List<TableName> tables = new ArrayList<>();

  @AfterEach
  void dropTables() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      for (TableName t : tables) {
        ClusterTables.drop(admin, t);
      }
    }
  }

  /** One action of the matrix. */
  private interface Action {
    ActionReport run(ChaosActions a) throws Exception;
  }

  @Test
  void linkedListsSurviveRegionServerAndMasterFailures() throws Exception {
    long t0 = System.nanoTime();
    LocalCluster cluster = SharedCluster.cluster();
    Connection c = SharedCluster.connection();
    Configuration conf = SharedCluster.clientConf(cluster);
    try (Admin admin = c.getAdmin()) {
      NodeKeys.createTable(admin, LIST, 8);
      tables.add(LIST);
      GapProbe.createTable(admin, PROBE, PROBE_REGIONS);
      tables.add(PROBE);
    }
    ChaosActions actions = new ChaosActions(cluster, c, conf, LIST, 28, System.out::println);
    List<String> lines = new ArrayList<>();
    long failedProbeOps = 0;
    LinkedListWriter writer = LinkedListWriter.start(c, LIST, 2, 40, 28);
    LinkedListWriter.Written written;
    try (GapProbe probe = GapProbe.start(conf, PROBE, PROBE_REGIONS)) {
      writer.awaitAcknowledged(50, PROGRESS_MILLIS);
      List<Action> matrix =
          List.of(
              ChaosActions::killBusiestRegionServer,
              ChaosActions::restartRegionServerOnSamePort,
              ChaosActions::killActiveMaster,
              a -> a.masterFault(ChaosActions.RECOVERY_AFTER_SPLIT));
      for (Action action : matrix) {
        probe.window();
        ActionReport r = action.run(actions);
        ClusterInvariants.assertHold(c, cluster);
        probe.awaitRound(PROGRESS_MILLIS); // an operation the action stalled ends in its window
        GapProbe.Window w = probe.window();
        failedProbeOps += w.failures();
        lines.add(r + "; probe: " + w);
        actions.restoreShape(SharedCluster.MASTERS, SharedCluster.REGION_SERVERS);
        ClusterInvariants.assertHold(c, cluster);
        writer.awaitAcknowledged(20, PROGRESS_MILLIS);
      }
    } finally {
      written = writer.stop();
    }
    LinkedListVerifier.Result verified = LinkedListVerifier.verify(c, LIST, written);
    lines.forEach(l -> System.out.println("chaos CI: " + l));
    System.out.printf(
        "chaos CI: writers: %s%nchaos CI: verifier: %s%nchaos CI: %d s%n",
        written, verified, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0));
    assertThat(verified.lost()).as("%s", verified).isZero();
    assertThat(verified.undefined()).as("%s", verified).isZero();
    assertThat(verified.passed()).as("%s", verified).isTrue();
    assertThat(verified.nodes()).as("%s", verified).isGreaterThan(100);
    assertThat(failedProbeOps).as("failed probe operations: %s", lines).isZero();
    assertThat(lines.get(3)).as("the armed master halted at its point").contains("fired=true");
  }
}
