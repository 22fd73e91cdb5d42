package dev.basalt.bench.chaos;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import java.io.IOException;
import java.time.Duration;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The chaos actions of issue 28 on a child-process {@link LocalCluster}, for the CI matrix
 * (basalt-compat-tests) and the soak ({@link ChaosSoak}): each does one thing to the cluster, waits
 * until the cluster recovered from it, and reports its times. None checks the invariants itself:
 * the caller runs {@link ClusterCheck#await} after each, and {@link #restoreShape} where an action
 * left fewer servers. The names are the soak's action names.
 */
public final class ChaosActions {
  /** The fault points of the master's steps that {@link #masterFault} can drive a master into. */
  public static final String ASSIGNMENT_AFTER_PERSIST = "master.assignment.afterPersist";

  public static final String RECOVERY_AFTER_FENCE = "master.recovery.afterFence";
  public static final String RECOVERY_AFTER_SPLIT = "master.recovery.afterSplit";
  public static final String RECOVERY_AFTER_ARCHIVE = "master.recovery.afterArchive";
  public static final String SPLITTER_SOME_WRITTEN = "walsplitter.someFilesWritten";
  public static final String SPLITTER_BEFORE_RENAME = "walsplitter.beforeRename";

  private final ChaosContext ctx;
  private final ServerActions servers;
  private final AdminActions admin;
  private final MasterActions masters;
  private final RegionServerFaults serverFaults;
  private final TableName table;

  /**
   * @param connection for admin work and checks (shared, not closed here)
   * @param conf the client configuration, for connections of the actions' own
   * @param table the linked-list table the writers write (moves, splits, merges act on it)
   */
  public ChaosActions(
      LocalCluster cluster,
      Connection connection,
      Configuration conf,
      TableName table,
      long seed,
      Consumer<String> log) {
    this.ctx = new ChaosContext(cluster, connection, conf, new Random(seed), log);
    this.table = table;
    this.servers = new ServerActions(ctx);
    this.admin = new AdminActions(ctx, table, 4, 24);
    this.masters = new MasterActions(ctx, admin);
    this.serverFaults = new RegionServerFaults(ctx, table);
  }

  // ---- region servers -------------------------------------------------------------------------

  /** kill -9 of the region server with the most regions. */
  public ActionReport killBusiestRegionServer() throws IOException, InterruptedException {
    return servers.kill("kill-rs-busiest", ctx.busiestRegionServer());
  }

  /** kill -9 of a region server holding a region of the linked-list table, at random. */
  public ActionReport killRegionServerHoldingTable() throws IOException, InterruptedException {
    return servers.kill("kill-rs-holding-table", ctx.holderOf(table));
  }

  /** kill -9 of two region servers at once (needs three running). */
  public ActionReport killTwoRegionServers() throws IOException, InterruptedException {
    return servers.killTwo();
  }

  /** kill -9 of the busiest region server, then of the server its regions move to. */
  public ActionReport killRecoveryTarget() throws IOException, InterruptedException {
    return servers.killRecoveryTarget();
  }

  /** kill -9 of the busiest region server and a new one on its port at once. */
  public ActionReport restartRegionServerOnSamePort() throws IOException, InterruptedException {
    return servers.restartOnSamePort();
  }

  /** SIGSTOP of the busiest region server for {@code pause}, then SIGCONT. */
  public ActionReport suspendRegionServer(String name, Duration pause)
      throws IOException, InterruptedException {
    return servers.suspend(name, pause);
  }

  /** SIGSTOP of the busiest region server, never resumed before its regions are elsewhere. */
  public ActionReport suspendRegionServerUntilRecovered() throws IOException, InterruptedException {
    return servers.suspendUntilRecovered();
  }

  /** A region server halting while it opens a recovered region (the others killed at once). */
  public ActionReport regionServerHaltsOpeningRecoveredRegion()
      throws IOException, InterruptedException {
    return serverFaults.haltWhileOpeningRecovered();
  }

  /** A region server halting in the middle of a split. */
  public ActionReport regionServerHaltsInSplit() throws IOException, InterruptedException {
    return serverFaults.haltInSplit();
  }

  // ---- masters --------------------------------------------------------------------------------

  /** kill -9 of the active master during the writes; times to meta and DDL served again. */
  public ActionReport killActiveMaster() throws IOException, InterruptedException {
    return masters.killActive();
  }

  /** kill -9 of the active master while a createTable runs. */
  public ActionReport killActiveMasterDuringCreate() throws IOException, InterruptedException {
    return masters.killActiveDuringCreate();
  }

  /**
   * A master armed to halt at {@code point} made active and driven into it: {@link
   * #ASSIGNMENT_AFTER_PERSIST} by a move, the recovery and splitter points by a kill -9 of a region
   * server.
   */
  public ActionReport masterFault(String point) throws IOException, InterruptedException {
    MasterActions.Trigger trigger =
        point.equals(ASSIGNMENT_AFTER_PERSIST)
            ? MasterActions.Trigger.MOVE
            : MasterActions.Trigger.KILL_REGION_SERVER;
    return masters.masterFault(point, trigger);
  }

  // ---- the cluster's own operations -----------------------------------------------------------

  public ActionReport move() throws IOException, InterruptedException {
    return admin.move();
  }

  /** A split of a random region of the table, or a merge of two when it has many. */
  public ActionReport split() throws IOException, InterruptedException {
    return admin.splitOrMerge(true);
  }

  /** A merge of two adjacent regions of the table, or a split when it has few. */
  public ActionReport merge() throws IOException, InterruptedException {
    return admin.splitOrMerge(false);
  }

  public ActionReport balance() throws IOException {
    return admin.balance();
  }

  public ActionReport flush() throws IOException {
    return admin.flush();
  }

  public ActionReport compact() throws IOException {
    return admin.compact();
  }

  // ---- shape ----------------------------------------------------------------------------------

  /**
   * Starts region servers and masters until {@code regionServers} and {@code masters} run, and
   * waits for an active master; returns how long that took.
   */
  public long restoreShape(int masterCount, int regionServerCount)
      throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    LocalCluster cluster = ctx.cluster;
    int missing = regionServerCount - cluster.regionServers().size();
    if (missing > 0) {
      cluster.addRegionServers(missing);
    }
    for (int i = cluster.masters().size(); i < masterCount; i++) {
      cluster.addMaster();
    }
    cluster.awaitActiveMaster(Duration.ofSeconds(90));
    return ChaosContext.millisSince(t0);
  }

  /** The node of a running region server named {@code host,port,startcode}, or null. */
  public LocalClusterNode regionServerNamed(String serverName) {
    for (LocalClusterNode n : ctx.cluster.regionServers()) {
      if (n.serverName().toString().equals(serverName)) {
        return n;
      }
    }
    return null;
  }
}
