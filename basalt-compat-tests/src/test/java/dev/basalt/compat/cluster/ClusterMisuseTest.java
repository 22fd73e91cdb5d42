package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.fs.LocalStorage;
import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 item 7, misuse: a region server pointed at another cluster's root directory, a second
 * master on the active master's port, a move to a server that does not exist. Each is refused with
 * a clear error naming the problem, while a probe on the cluster sees every operation succeed (the
 * cluster keeps serving).
 */
@ExtendWith(SharedCluster.class)
class ClusterMisuseTest {
  private static final TableName TABLE = TableName.valueOf("misuse");
  private static final long CHILD_EXIT_SECONDS = 90;

  @TempDir static Path dir;
  private static Probe probe;

  @BeforeAll
  static void startProbe() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ClusterTables.create(admin, TABLE, 3);
    }
    probe =
        Probe.start(
            SharedCluster.clientConf(SharedCluster.cluster()),
            TABLE,
            ClusterTables.rowPerRegion(3, "p"));
  }

  @AfterAll
  static void stopProbe() throws Exception {
    try {
      if (probe != null) {
        probe.awaitRound();
        Probe.Stats stats = probe.finish();
        System.out.println("misuse scenarios; probe: " + stats);
        assertThat(stats.failures()).as("failed probe operations: %s", stats).isZero();
      }
    } finally {
      if (probe != null) {
        probe.close();
      }
      try (Admin admin = SharedCluster.connection().getAdmin()) {
        ClusterTables.drop(admin, TABLE);
      }
    }
  }

  @Test
  void aRegionServerOnAnotherClustersRootExitsNamingBothClusterIds() throws Exception {
    Path otherRoot = dir.resolve("other-cluster");
    String otherId =
        ClusterCatalog.open(new LocalStorage(otherRoot), Clock.system(), true)
            .clusterId()
            .toString();
    String ourId;
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ourId = admin.getClusterMetrics().getClusterId();
    }
    LocalCluster cluster = SharedCluster.cluster();
    Child rs =
        Child.start(
            dir.resolve("wrong-root-rs.out"),
            "dev.basalt.server.cluster.RegionServerMain",
            "--root",
            otherRoot.toString(),
            "-D",
            "hbase.cluster.distributed=true",
            "-D",
            "hbase.zookeeper.quorum=" + cluster.zooKeeperQuorum(),
            "-D",
            "hbase.zookeeper.property.clientPort=" + cluster.zooKeeperPort(),
            "-D",
            "hbase.regionserver.port=0");
    assertThat(rs.awaitExit()).as(rs.output()).isEqualTo(1);
    assertThat(rs.output())
        .contains("region server pointed at a root directory that is not the cluster's")
        .contains(otherId)
        .contains(ourId);
    assertThat(SharedCluster.cluster().regionServers()).hasSize(SharedCluster.REGION_SERVERS);

    // the refused server must not count as live: regions created now go to the real servers
    TableName after = TableName.valueOf("misuse_after_wrong_root");
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      long t0 = System.nanoTime();
      ClusterTables.create(admin, after, 6);
      long createMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      try {
        assertThat(createMillis)
            .as("create of 6 regions after the refused server")
            .isLessThan(10_000);
        assertThat(ClusterTables.regionsPerServer(SharedCluster.connection(), after).keySet())
            .allSatisfy(
                sn ->
                    assertThat(SharedCluster.regionServer(sn).serverName().toString())
                        .isEqualTo(sn.getServerName()));
      } finally {
        ClusterTables.drop(admin, after);
      }
    }
  }

  @Test
  void aSecondMasterOnTheSamePortExitsWithABindError() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    LocalClusterNode active = cluster.activeMaster().orElseThrow();
    int port = active.serverName().port();
    Child master =
        Child.start(
            dir.resolve("same-port-master.out"),
            "dev.basalt.server.cluster.MasterMain",
            "--root",
            cluster.root().toString(),
            "-D",
            "hbase.cluster.distributed=true",
            "-D",
            "hbase.zookeeper.quorum=" + cluster.zooKeeperQuorum(),
            "-D",
            "hbase.zookeeper.property.clientPort=" + cluster.zooKeeperPort(),
            "-D",
            "hbase.master.port=" + port);
    assertThat(master.awaitExit()).as(master.output()).isEqualTo(1);
    assertThat(master.output())
        .contains("basalt: could not start the master")
        .contains(Integer.toString(port))
        .containsIgnoringCase("address already in use");
    assertThat(active.isAlive()).isTrue();
    assertThat(cluster.activeMaster()).contains(active);
  }

  @Test
  void aMoveToAnUnknownServerIsRefused() throws Exception {
    Connection c = SharedCluster.connection();
    HRegionLocation l = ClusterTables.locations(c, TABLE).get(1);
    ServerName nowhere = ServerName.valueOf("127.0.0.1", 1, 1L);
    try (Admin admin = c.getAdmin()) {
      assertThatThrownBy(() -> admin.move(l.getRegion().getEncodedNameAsBytes(), nowhere))
          .isInstanceOf(IOException.class)
          .satisfies(e -> assertThat(messages(e)).contains("no such live region server"));
    }
    assertThat(ClusterTables.locations(c, TABLE).get(1).getServerName())
        .isEqualTo(l.getServerName());
    probe.awaitRound();
  }

  /** The messages of an exception and its causes, one per line. */
  private static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
    }
    return b.toString();
  }

  /** A Basalt entry point in a child JVM on this class path, its output in a file. */
  private record Child(Process process, Path out) {
    static Child start(Path out, String mainClass, String... args) throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-Xmx256m");
      cmd.add("-XX:TieredStopAtLevel=1");
      cmd.add("-Dbasalt.log.dir=" + out.getParent());
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(mainClass);
      cmd.addAll(List.of(args));
      Process p =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      return new Child(p, out);
    }

    int awaitExit() throws InterruptedException {
      if (!process.waitFor(CHILD_EXIT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError(
            "still running after " + CHILD_EXIT_SECONDS + " s (killed): " + output());
      }
      return process.exitValue();
    }

    String output() {
      try {
        return Files.readString(out, StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "(cannot read " + out + ": " + e + ")";
      }
    }
  }
}
