package dev.basalt.bench.chaos;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import dev.basalt.server.cluster.LocalNodeOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * Region servers started with a fault point armed to halt, driven into it: a server halting while
 * it opens a recovered region (its recovered edits flushed, their files not yet deleted), and a
 * server halting in the middle of a split (the parent closed, the daughters not yet written). The
 * master must recover the halted server like any dead one, and the regions must end OPEN exactly
 * once with every acknowledged write.
 */
final class RegionServerFaults {
  /** RegionHost.FAULT_RECOVERED_EDITS_FLUSHED. */
  static final String RECOVERED_FLUSHED = "regionhost.open.recoveredFlushed";

  /** RegionHost.FAULT_HANDOVER_CLOSED. */
  static final String HANDOVER_CLOSED = "regionhost.handover.afterClosed";

  private static final Duration FAULT_TIMEOUT = Duration.ofSeconds(60);

  private final ChaosContext ctx;
  private final LocalCluster cluster;
  private final TableName table;

  RegionServerFaults(ChaosContext ctx, TableName table) {
    this.ctx = ctx;
    this.cluster = ctx.cluster;
    this.table = table;
  }

  /**
   * An armed region server joins; every other region server is killed (-9) together, so the dead
   * servers' regions, with recovered edits, all open on the armed one, which halts after flushing
   * the first one's edits. Two plain region servers then join and take everything.
   */
  ActionReport haltWhileOpeningRecovered() throws IOException, InterruptedException {
    LocalClusterNode armed =
        cluster.addRegionServer(LocalNodeOptions.DEFAULT.faultPoints(RECOVERED_FLUSHED + "=halt"));
    ClusterCheck.await(ctx.connection, cluster, ServerActions.RECOVERY_TIMEOUT);
    List<LocalClusterNode> others = new ArrayList<>(cluster.regionServers());
    others.remove(armed);
    List<String> gone = new ArrayList<>();
    for (LocalClusterNode n : others) {
      gone.add(n.serverName().toString());
    }
    gone.add(armed.serverName().toString());
    long t0 = System.nanoTime();
    List<CompletableFuture<Void>> kills = new ArrayList<>();
    for (LocalClusterNode n : others) {
      kills.add(CompletableFuture.runAsync(() -> killQuietly(n)));
    }
    for (CompletableFuture<Void> k : kills) {
      k.join();
    }
    int exit = armed.awaitExit(FAULT_TIMEOUT);
    boolean fired = exit == 137;
    long haltedMillis = ChaosContext.millisSince(t0);
    if (!fired) {
      cluster.kill(armed); // never reached its point: not a server to keep
    }
    cluster.addRegionServers(2);
    long recovered = ctx.awaitOpenElsewhere(gone, t0, ServerActions.RECOVERY_TIMEOUT);
    return ActionReport.of("rs-fault " + RECOVERED_FLUSHED)
        .target(armed.id() + " after kill -9 of " + others.size())
        .recovery(recovered)
        .detail("fired", fired)
        .detail("haltedAfterMillis", fired ? haltedMillis : -1)
        .detail("killed", others.size())
        .build();
  }

  /**
   * An armed region server joins, a region of the table is moved to it and split there: it halts
   * with the parent closed and the daughters not written. Recovery: every region of the table OPEN
   * on the other servers (the parent again, or the daughters).
   */
  ActionReport haltInSplit() throws IOException, InterruptedException {
    LocalClusterNode armed =
        cluster.addRegionServer(LocalNodeOptions.DEFAULT.faultPoints(HANDOVER_CLOSED + "=halt"));
    String armedName = armed.serverName().toString();
    String outcome;
    long t0;
    try (Admin admin = ctx.connection.getAdmin()) {
      List<RegionInfo> regions = admin.getRegions(table);
      RegionInfo r = regions.get(ctx.random.nextInt(regions.size()));
      admin.move(r.getEncodedNameAsBytes(), ServerName.valueOf(armedName));
      ctx.awaitOpenElsewhere(List.of(), System.nanoTime(), ServerActions.RECOVERY_TIMEOUT);
      byte[] mid = AdminActions.middle(r.getStartKey(), r.getEndKey());
      t0 = System.nanoTime();
      CompletableFuture<String> split =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  admin.splitRegionAsync(r.getRegionName(), mid).get(120, TimeUnit.SECONDS);
                  return "split";
                } catch (IOException | ExecutionException | TimeoutException e) {
                  return "failed: " + e;
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return "interrupted";
                }
              });
      int exit = armed.awaitExit(FAULT_TIMEOUT);
      boolean fired = exit == 137;
      long haltedMillis = ChaosContext.millisSince(t0);
      if (!fired) {
        cluster.kill(armed);
      }
      long recovered =
          ctx.awaitOpenElsewhere(List.of(armedName), t0, ServerActions.RECOVERY_TIMEOUT);
      try {
        outcome = split.get(150, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        outcome = "no answer: " + e;
      }
      return ActionReport.of("rs-fault " + HANDOVER_CLOSED)
          .target(armed.id() + " splitting " + r.getEncodedName())
          .recovery(recovered)
          .detail("fired", fired)
          .detail("haltedAfterMillis", fired ? haltedMillis : -1)
          .detail("split", outcome)
          .detail("regionsAfter", admin.getRegions(table).size())
          .build();
    }
  }

  private void killQuietly(LocalClusterNode n) {
    try {
      cluster.kill(n);
    } catch (IOException e) {
      ctx.log.accept("could not kill " + n.id() + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
