package dev.basalt.server.cluster;

import dev.basalt.server.standalone.ServerLaunch;
import dev.basalt.util.config.Config;
import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/**
 * Settings of cluster mode: separate master and region server processes coordinated through
 * ZooKeeper over a shared root directory. The root directory, ports, bind address, host name and
 * znode parent are the standalone server's settings ({@code hbase.rootdir}, {@code
 * hbase.master.port}, {@code hbase.regionserver.port}, ...), which mean the same here.
 */
public final class ClusterSettings implements ConfigKeySet {
  public static final ConfigKey<Boolean> DISTRIBUTED =
      ConfigKey.ofBoolean(
          "hbase.cluster.distributed",
          false,
          "Whether the processes form a cluster (bin/basalt master and regionserver) rather than"
              + " one standalone process. The master and region servers refuse to start when it is"
              + " false, so that a standalone configuration is not run as a cluster by mistake.");

  public static final ConfigKey<String> ZOOKEEPER_QUORUM =
      ConfigKey.ofString(
          "hbase.zookeeper.quorum",
          "127.0.0.1",
          "ZooKeeper servers of the cluster, comma-separated host or host:port (port defaults to"
              + " hbase.zookeeper.property.clientPort).");

  public static final ConfigKey<Integer> ZOOKEEPER_SESSION_TIMEOUT =
      ConfigKey.ofInt(
              "zookeeper.session.timeout",
              10_000,
              "ms",
              "ZooKeeper session timeout of masters and region servers: how long a process that"
                  + " stopped answering (paused, or its host cut off) keeps its regions (or its"
                  + " mastership) before the cluster recovers them; a process that died is found"
                  + " sooner (basalt.master.server.probe.interval). HBase's default is 90 s, sized"
                  + " for long GC pauses of large heaps; Basalt's 10 s costs a recovery after a"
                  + " pause that long, which Basalt's fenced recovery makes safe. The ZooKeeper"
                  + " server may negotiate it into [2, 20] x its tickTime.")
          .between(1000, 600_000);

  public static final ConfigKey<Long> MAX_CLOCK_SKEW =
      ConfigKey.ofLong(
              "hbase.master.maxclockskew",
              30_000L,
              "ms",
              "A region server whose clock differs from the master's by more than this is refused"
                  + " at startup (ClockOutOfSyncException): timestamps of its writes would be out of"
                  + " order with the others'.")
          .atLeast(0L);

  public static final ConfigKey<Long> REPORT_INTERVAL =
      ConfigKey.ofLong(
              "basalt.regionserver.report.interval",
              1000L,
              "ms",
              "How often a region server reports its load and online regions to the master (HBase's"
                  + " hbase.regionserver.msginterval, 3 s there).")
          .atLeast(50L);

  public static final ConfigKey<Long> PAUSE_THRESHOLD =
      ConfigKey.ofLong(
              "basalt.regionserver.pause.threshold",
              1000L,
              "ms",
              "A region server that finds it did not run for longer than this (SIGSTOP, a long GC"
                  + " pause, a frozen VM) serves nothing more until ZooKeeper says its session is"
                  + " alive; when the session expired meanwhile it aborts, so that it never answers"
                  + " for regions already reopened elsewhere. Capped at a third of"
                  + " zookeeper.session.timeout (shorter pauses cannot cost the session).")
          .atLeast(200L);

  public static final ConfigKey<Long> SERVER_PROBE_INTERVAL =
      ConfigKey.ofLong(
              "basalt.master.server.probe.interval",
              500L,
              "ms",
              "How often the active master tries to connect to each region server's port; a port"
                  + " that refuses connections means the server's process is gone, and its regions"
                  + " are recovered at once rather than after zookeeper.session.timeout. 0 turns the"
                  + " probe off.")
          .atLeast(0L);

  public static final ConfigKey<Boolean> FENCE_KILL =
      ConfigKey.ofBoolean(
          "basalt.master.fence.kill",
          true,
          "When a dead region server's process still holds its log's lock (paused, or cut off from"
              + " ZooKeeper) and runs on the master's host, the master kills it (SIGKILL) to recover"
              + " its regions, as HDFS HA fences its predecessor. false: wait until the process"
              + " ends by itself (a resumed region server stops when it learns its session"
              + " expired).");

  public static final ConfigKey<Long> WAIT_ON_SERVERS_TIMEOUT =
      ConfigKey.ofLong(
              "hbase.master.wait.on.regionservers.timeout",
              4500L,
              "ms",
              "A master that becomes active places no region for at most this long while region"
                  + " servers are still joining (see the interval), so that the first one does not"
                  + " get them all.")
          .atLeast(0L);

  public static final ConfigKey<Long> WAIT_ON_SERVERS_INTERVAL =
      ConfigKey.ofLong(
              "hbase.master.wait.on.regionservers.interval",
              1500L,
              "ms",
              "The master starts placing regions once no region server has joined for this long"
                  + " (and at least hbase.master.wait.on.regionservers.mintostart are live).")
          .atLeast(0L);

  public static final ConfigKey<Integer> WAIT_ON_SERVERS_MIN =
      ConfigKey.ofInt(
              "hbase.master.wait.on.regionservers.mintostart",
              1,
              "servers",
              "Region servers that must be live before a new active master places regions (unless"
                  + " the timeout passes first).")
          .atLeast(0);

  public static final ConfigKey<Long> BALANCER_PERIOD =
      ConfigKey.ofLong(
              "hbase.balancer.period",
              300_000L,
              "ms",
              "How often the master balances the number of regions per region server, when the"
                  + " balancer is switched on.")
          .atLeast(1000L);

  public static final ConfigKey<Double> REGIONS_SLOP =
      ConfigKey.ofDouble(
              "hbase.regions.slop",
              0.2,
              "fraction",
              "The balancer moves regions only when a server holds more than average x (1 + slop)"
                  + " or fewer than average x (1 - slop) regions.")
          .between(0.0, 10.0);

  @Override
  public String section() {
    return "Cluster mode";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        DISTRIBUTED,
        ZOOKEEPER_QUORUM,
        ZOOKEEPER_SESSION_TIMEOUT,
        MAX_CLOCK_SKEW,
        REPORT_INTERVAL,
        PAUSE_THRESHOLD,
        SERVER_PROBE_INTERVAL,
        FENCE_KILL,
        WAIT_ON_SERVERS_TIMEOUT,
        WAIT_ON_SERVERS_INTERVAL,
        WAIT_ON_SERVERS_MIN,
        BALANCER_PERIOD,
        REGIONS_SLOP);
  }

  /**
   * Refuses to start {@code process} (e.g. "a region server") outside a cluster: checked before
   * anything is written under the root directory.
   */
  static void requireDistributed(Config config, String process) throws ServerLaunch.Exit {
    if (!config.get(DISTRIBUTED)) {
      throw ServerLaunch.badConfiguration(
          DISTRIBUTED.key()
              + " is not true: "
              + process
              + " runs only in a cluster; set -D "
              + DISTRIBUTED.key()
              + "=true (or run bin/basalt standalone)");
    }
  }
}
