package dev.basalt.bench.chaos;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import dev.basalt.server.cluster.LocalNodeOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Master faults: kill -9 of the active master (during writes, during a createTable), and a master
 * started with a fault point armed to halt, made active, then driven into the step where it halts.
 * After each the standby must take over, serve meta and DDL, and finish or re-drive what was in
 * flight.
 */
final class MasterActions {
  private static final Duration TAKEOVER_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration FAULT_TIMEOUT = Duration.ofSeconds(60);
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final AtomicInteger DDL_TABLES = new AtomicInteger();

  /** What drives an armed master into its fault point. */
  enum Trigger {
    /** An {@code Admin.move} of a region: an assignment transition is persisted. */
    MOVE,
    /** kill -9 of the busiest region server: a crash recovery runs (fence, split, archive). */
    KILL_REGION_SERVER
  }

  private final ChaosContext ctx;
  private final LocalCluster cluster;
  private final AdminActions admin;

  MasterActions(ChaosContext ctx, AdminActions admin) {
    this.ctx = ctx;
    this.cluster = ctx.cluster;
    this.admin = admin;
  }

  /**
   * kill -9 of the active master while the writers run: times to a standby active, to a meta scan
   * answered, to a createTable done (each from the kill).
   */
  ActionReport killActive() throws IOException, InterruptedException {
    LocalClusterNode active = requireStandby();
    try (Connection quick = ConnectionFactory.createConnection(quickConf(ctx.conf))) {
      long t0 = System.nanoTime();
      cluster.kill(active);
      LocalClusterNode next = awaitOtherActive(active);
      long activeMillis = ChaosContext.millisSince(t0);
      long metaMillis = awaitMeta(quick, t0);
      TableName t = ddlTable();
      try (Admin a = ctx.connection.getAdmin()) {
        a.createTable(descriptor(t));
        long ddlMillis = ChaosContext.millisSince(t0);
        dropQuietly(a, t);
        return ActionReport.of("kill-master")
            .target(active.id() + " -> " + next.id())
            .detail("standbyActiveMillis", activeMillis)
            .detail("metaServedMillis", metaMillis)
            .detail("ddlDoneMillis", ddlMillis)
            .build();
      }
    }
  }

  /**
   * kill -9 of the active master while a createTable of 8 regions is in flight: the create either
   * finishes (the client's call returns, or the new master completes it) with every region OPEN, or
   * leaves no table; never half a table.
   */
  ActionReport killActiveDuringCreate() throws IOException, InterruptedException {
    LocalClusterNode active = requireStandby();
    TableName t = ddlTable();
    byte[][] splits = new byte[7][];
    for (int i = 1; i <= 7; i++) {
      splits[i - 1] = Bytes.toBytes(String.format("d%d", i));
    }
    CompletableFuture<String> create =
        CompletableFuture.supplyAsync(
            () -> {
              try (Admin a = ctx.connection.getAdmin()) {
                a.createTable(descriptor(t), splits);
                return "created";
              } catch (IOException | RuntimeException e) {
                return "failed: " + e;
              }
            });
    Thread.sleep(ctx.random.nextInt(150)); // somewhere in the create's steps
    long t0 = System.nanoTime();
    cluster.kill(active);
    LocalClusterNode next = awaitOtherActive(active);
    long activeMillis = ChaosContext.millisSince(t0);
    String outcome;
    try {
      outcome = create.get(TAKEOVER_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      outcome = "no answer: " + e;
    }
    try (Admin a = ctx.connection.getAdmin()) {
      boolean exists = a.tableExists(t);
      long openMillis = -1;
      if (exists) {
        // finished by the new master (or by the old before it died): usable, every region open
        openMillis = ctx.awaitOpenElsewhere(List.of(), t0, ServerActions.RECOVERY_TIMEOUT);
        try (Table table = ctx.connection.getTable(t)) {
          byte[] row = Bytes.toBytes("d5-row");
          table.put(new Put(row).addColumn(CF, CF, row));
          if (!table.exists(new Get(row))) {
            throw new IOException("a row put into " + t + " after the takeover is not there");
          }
        }
        dropQuietly(a, t);
      }
      return ActionReport.of("kill-master-during-create")
          .target(active.id() + " -> " + next.id())
          .detail("standbyActiveMillis", activeMillis)
          .detail("createCall", outcome)
          .detail("tableExists", exists)
          .detail("allOpenMillis", openMillis)
          .build();
    }
  }

  /**
   * A master armed with {@code point=halt} made the active one (the standbys stop cleanly, it
   * starts as the only standby, the active master stops cleanly and hands over), a plain standby
   * started beside it, then {@code trigger} drives it into the point. It halts there (exit 137, as
   * kill -9), the standby takes over and must finish what was in flight.
   */
  ActionReport masterFault(String point, Trigger trigger) throws IOException, InterruptedException {
    LocalClusterNode active = cluster.awaitActiveMaster(TAKEOVER_TIMEOUT);
    for (LocalClusterNode m : cluster.masters()) {
      if (m != active) {
        cluster.stop(m);
      }
    }
    LocalClusterNode armed =
        cluster.addMaster(LocalNodeOptions.DEFAULT.faultPoints(point + "=halt"));
    long t0 = System.nanoTime();
    cluster.stop(active); // hands over to the only standby: the armed one
    boolean haltedAtTakeover = !awaitActiveOrEnd(armed);
    LocalClusterNode standby = cluster.addMaster();
    List<String> gone = List.of();
    String what = "takeover";
    CompletableFuture<String> move = null;
    if (haltedAtTakeover) {
      // it reached the point while taking over (a transition it re-drove): nothing to trigger
    } else if (trigger == Trigger.MOVE) {
      ClusterCheck.await(ctx.connection, cluster, ServerActions.RECOVERY_TIMEOUT);
      t0 = System.nanoTime();
      move = CompletableFuture.supplyAsync(admin::moveQuietly);
      what = "move";
    } else {
      ClusterCheck.await(ctx.connection, cluster, ServerActions.RECOVERY_TIMEOUT);
      t0 = System.nanoTime();
      LocalClusterNode victim = ctx.busiestRegionServer();
      gone = List.of(victim.serverName().toString());
      cluster.kill(victim);
      what = "kill -9 " + victim.id();
    }
    int exit = armed.awaitExit(FAULT_TIMEOUT);
    boolean fired = exit == 137;
    long haltedMillis = ChaosContext.millisSince(t0);
    if (!fired) {
      cluster.stop(armed); // never reached its point: not a master to keep
    }
    LocalClusterNode next = awaitActive(standby);
    long takeoverMillis = ChaosContext.millisSince(t0);
    long recovered = ctx.awaitOpenElsewhere(gone, t0, ServerActions.RECOVERY_TIMEOUT);
    String moveOutcome = null;
    if (move != null) {
      try {
        moveOutcome = move.get(TAKEOVER_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        moveOutcome = "no answer: " + e;
      }
    }
    ActionReport.Builder r =
        ActionReport.of("master-fault " + point)
            .target(armed.id() + " -> " + next.id() + " (" + what + ")")
            .recovery(recovered)
            .detail("fired", fired)
            .detail("haltedAfterMillis", fired ? haltedMillis : -1)
            .detail("standbyActiveMillis", takeoverMillis);
    if (moveOutcome != null) {
      r.detail("move", moveOutcome);
    }
    return r.build();
  }

  private LocalClusterNode requireStandby() throws IOException, InterruptedException {
    LocalClusterNode active = cluster.awaitActiveMaster(TAKEOVER_TIMEOUT);
    if (cluster.masters().size() < 2) {
      throw new IllegalStateException("killing the active master needs a standby");
    }
    return active;
  }

  private LocalClusterNode awaitOtherActive(LocalClusterNode old)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TAKEOVER_TIMEOUT.toNanos();
    while (System.nanoTime() - deadline < 0) {
      for (LocalClusterNode m : cluster.masters()) {
        if (m != old && m.isActiveMaster()) {
          return m;
        }
      }
      Thread.sleep(10);
    }
    throw new IOException("no standby took over from " + old.id() + " in " + TAKEOVER_TIMEOUT);
  }

  /** True once {@code m} is active; false when it ended first. */
  private boolean awaitActiveOrEnd(LocalClusterNode m) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TAKEOVER_TIMEOUT.toNanos();
    while (!m.isActiveMaster()) {
      if (!m.isAlive()) {
        return false;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new IOException(m.id() + " did not become active in " + TAKEOVER_TIMEOUT);
      }
      Thread.sleep(10);
    }
    return true;
  }

  private LocalClusterNode awaitActive(LocalClusterNode m)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TAKEOVER_TIMEOUT.toNanos();
    while (!m.isActiveMaster()) {
      if (!m.isAlive() || System.nanoTime() - deadline >= 0) {
        throw new IOException(m.id() + " did not become active (alive: " + m.isAlive() + ")");
      }
      Thread.sleep(10);
    }
    return m;
  }

  /** Milliseconds from {@code t0} until a meta scan through {@code quick} succeeds. */
  private static long awaitMeta(Connection quick, long t0)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TAKEOVER_TIMEOUT.toNanos();
    while (true) {
      try {
        MetaRows.read(quick);
        return ChaosContext.millisSince(t0);
      } catch (IOException | RuntimeException e) {
        if (System.nanoTime() - deadline >= 0) {
          throw new IOException("meta not served " + TAKEOVER_TIMEOUT + " after the kill", e);
        }
        Thread.sleep(20);
      }
    }
  }

  /** A client that gives up fast, to see when meta answers again rather than when it retried. */
  static Configuration quickConf(Configuration conf) {
    Configuration q = new Configuration(conf);
    q.setInt("hbase.client.retries.number", 1);
    q.setInt("hbase.rpc.timeout", 1_000);
    q.setInt("hbase.client.operation.timeout", 2_000);
    q.setInt("hbase.client.meta.operation.timeout", 2_000);
    q.setInt("zookeeper.recovery.retry", 0);
    return q;
  }

  private static TableName ddlTable() {
    return TableName.valueOf("chaos_ddl_" + DDL_TABLES.incrementAndGet());
  }

  private static TableDescriptor descriptor(TableName t) {
    return TableDescriptorBuilder.newBuilder(t)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
        .build();
  }

  private void dropQuietly(Admin a, TableName t) {
    try {
      if (a.isTableEnabled(t)) {
        a.disableTable(t);
      }
      a.deleteTable(t);
    } catch (IOException e) {
      ctx.log.accept("could not drop " + t + ": " + e);
    }
  }
}
