package dev.basalt.bench.chaos;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import dev.basalt.server.cluster.LocalNodeOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;

/**
 * Region server faults: kill -9 (one, two together, one that is receiving another's regions), a
 * restart on the same port at once, SIGSTOP/SIGCONT. Each measures from the fault to the last
 * affected region OPEN again in meta on a live server.
 */
final class ServerActions {
  /** The longest a recovery may take before the action fails (a stuck recovery). */
  static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(120);

  private final ChaosContext ctx;
  private final LocalCluster cluster;

  ServerActions(ChaosContext ctx) {
    this.ctx = ctx;
    this.cluster = ctx.cluster;
  }

  /** kill -9 of {@code victim}; recovery: its last region open elsewhere. */
  ActionReport kill(String action, LocalClusterNode victim)
      throws IOException, InterruptedException {
    String name = victim.serverName().toString();
    int regions = ctx.regionsByServer().getOrDefault(name, List.of()).size();
    long t0 = System.nanoTime();
    int exit = cluster.kill(victim);
    long recovered = ctx.awaitOpenElsewhere(List.of(name), t0, RECOVERY_TIMEOUT);
    return ActionReport.of(action)
        .target(victim.id())
        .recovery(recovered)
        .detail("regions", regions)
        .detail("exit", exit)
        .build();
  }

  /** kill -9 of two region servers at the same moment. */
  ActionReport killTwo() throws IOException, InterruptedException {
    LocalClusterNode a = ctx.busiestRegionServer();
    LocalClusterNode b = ctx.otherRegionServer(List.of(a));
    if (b == null || cluster.regionServers().size() < 3) {
      throw new IllegalStateException("killing two region servers needs three running");
    }
    Set<String> gone = Set.of(a.serverName().toString(), b.serverName().toString());
    long t0 = System.nanoTime();
    CompletableFuture<Integer> ka = killAsync(a);
    CompletableFuture<Integer> kb = killAsync(b);
    join(ka);
    join(kb);
    long recovered = ctx.awaitOpenElsewhere(gone, t0, RECOVERY_TIMEOUT);
    return ActionReport.of("kill-2-rs").target(a.id() + "+" + b.id()).recovery(recovered).build();
  }

  private CompletableFuture<Integer> killAsync(LocalClusterNode n) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return cluster.kill(n);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
  }

  private static <T> T join(CompletableFuture<T> f) throws IOException, InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof java.io.UncheckedIOException u) {
        throw u.getCause();
      }
      throw new IOException(e.getCause());
    }
  }

  /**
   * kill -9 of the busiest region server, then kill -9 of the first server meta names as the new
   * home of one of its regions (OPENING or OPEN there): the recovery's target dies while regions
   * move to it.
   */
  ActionReport killRecoveryTarget() throws IOException, InterruptedException {
    if (cluster.regionServers().size() < 3) {
      throw new IllegalStateException("killing a recovery's target needs three region servers");
    }
    LocalClusterNode a = ctx.busiestRegionServer();
    String aName = a.serverName().toString();
    Set<String> moving = new HashSet<>();
    for (MetaRows.Row r : ctx.regionsByServer().getOrDefault(aName, List.of())) {
      moving.add(r.region().getEncodedName());
    }
    long t0 = System.nanoTime();
    cluster.kill(a);
    LocalClusterNode b = null;
    String seen = null;
    long deadline = System.nanoTime() + RECOVERY_TIMEOUT.toNanos();
    while (b == null && System.nanoTime() - deadline < 0) {
      for (var rows : MetaRows.read(ctx.connection).values()) {
        for (MetaRows.Row r : rows) {
          if (b == null
              && moving.contains(r.region().getEncodedName())
              && r.serverName() != null
              && !r.serverName().equals(aName)) {
            b = nodeNamed(r.serverName());
            seen = r.state();
          }
        }
      }
      if (b == null) {
        Thread.sleep(2);
      }
    }
    if (b == null) {
      throw new IOException("no region of " + aName + " was assigned elsewhere in 120 s");
    }
    long targetKilledAt = ChaosContext.millisSince(t0);
    String bName = b.serverName().toString();
    cluster.kill(b);
    long recovered = ctx.awaitOpenElsewhere(Set.of(aName, bName), t0, RECOVERY_TIMEOUT);
    return ActionReport.of("kill-rs-recovery-target")
        .target(a.id() + " then " + b.id())
        .recovery(recovered)
        .detail("targetKilledAfterMillis", targetKilledAt)
        .detail("targetRegionState", seen)
        .build();
  }

  private LocalClusterNode nodeNamed(String serverName) {
    for (LocalClusterNode n : cluster.regionServers()) {
      if (n.serverName().toString().equals(serverName)) {
        return n;
      }
    }
    return null; // not running (any more): keep looking
  }

  /**
   * kill -9 of the busiest region server and a new one started at once on its port (a supervisor's
   * restart): the master must expire the old life (its port refuses, or the new start code
   * registers) long before the session timeout. Recovery: the old life's last region open again.
   */
  ActionReport restartOnSamePort() throws IOException, InterruptedException {
    LocalClusterNode victim = ctx.busiestRegionServer();
    String name = victim.serverName().toString();
    LiveWatch watch = new LiveWatch(name);
    long t0 = System.nanoTime();
    watch.start(t0);
    try {
      cluster.kill(victim);
      // the new life starts (a JVM start: seconds) while the old one's regions are recovered, so
      // the recovery is timed on its own, not after the start
      AtomicLong registered = new AtomicLong(-1);
      CompletableFuture<LocalClusterNode> restart =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  LocalClusterNode n =
                      cluster.addRegionServer(
                          LocalNodeOptions.DEFAULT.port(victim.serverName().port()));
                  registered.set(ChaosContext.millisSince(t0));
                  return n;
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
              });
      long recovered = ctx.awaitOpenElsewhere(List.of(name), t0, RECOVERY_TIMEOUT);
      LocalClusterNode again = join(restart);
      return ActionReport.of("restart-rs-same-port")
          .target(victim.id() + " -> " + again.id() + " " + again.serverName())
          .recovery(recovered)
          .detail("oldLifeNotLiveMillis", watch.awaitGone())
          .detail("newLifeRegisteredMillis", registered.get())
          .build();
    } finally {
      watch.stop();
    }
  }

  /**
   * Polls the master's live servers until {@code name} is no longer among them: when the old life
   * of a restarted server was expired.
   */
  private final class LiveWatch {
    private final String name;
    private final AtomicLong goneMillis = new AtomicLong(-1);
    private volatile boolean stop;
    private Thread thread;

    LiveWatch(String name) {
      this.name = name;
    }

    void start(long t0) {
      thread =
          new Thread(
              () -> {
                try (Admin admin = ctx.connection.getAdmin()) {
                  while (!stop) {
                    try {
                      boolean live = false;
                      for (ServerName sn :
                          admin
                              .getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
                              .getLiveServerMetrics()
                              .keySet()) {
                        live |= sn.getServerName().equals(name);
                      }
                      if (!live) {
                        goneMillis.set(ChaosContext.millisSince(t0));
                        return;
                      }
                    } catch (IOException e) {
                      // the master is busy: ask again
                    }
                    Thread.sleep(20);
                  }
                } catch (IOException | InterruptedException e) {
                  // stopped
                }
              },
              "live-watch");
      thread.setDaemon(true);
      thread.start();
    }

    long awaitGone() throws InterruptedException {
      thread.join(RECOVERY_TIMEOUT.toMillis());
      return goneMillis.get();
    }

    void stop() throws InterruptedException {
      stop = true;
      thread.join(10_000);
    }
  }

  /**
   * SIGSTOP of the busiest region server for {@code pause}, then SIGCONT. Shorter than the session
   * timeout: the server keeps its regions and serves again. Longer: the master declares it dead
   * once its session expires and fences its log by killing it (same host); recovery is then its
   * last region open elsewhere.
   */
  ActionReport suspend(String action, Duration pause) throws IOException, InterruptedException {
    LocalClusterNode victim = ctx.busiestRegionServer();
    String name = victim.serverName().toString();
    long t0 = System.nanoTime();
    cluster.suspend(victim);
    long recovered = awaitRecoveredDuring(name, t0, pause);
    boolean killedByFence = !victim.isAlive();
    cluster.resume(victim); // nothing when the fence killed it
    long resumedAt = ChaosContext.millisSince(t0);
    if (!victim.isAlive()) {
      if (recovered < 0) {
        recovered = ctx.awaitOpenElsewhere(List.of(name), t0, RECOVERY_TIMEOUT);
      }
    } else {
      // still the same life: every region open (on it or elsewhere) again
      ctx.awaitOpenElsewhere(List.of(), t0, RECOVERY_TIMEOUT);
    }
    return ActionReport.of(action)
        .target(victim.id())
        .recovery(recovered)
        .detail("pauseMillis", pause.toMillis())
        .detail("killedByFenceDuringPause", killedByFence)
        .detail("aliveAfter", victim.isAlive())
        .detail("resumedAtMillis", resumedAt)
        .build();
  }

  /**
   * Polls meta for {@code pause} after {@code t0}: the milliseconds from {@code t0} when every
   * region was open on a server other than {@code name} (its regions recovered while it was
   * stopped), or -1 when that did not happen within the pause. Returns at the pause's end.
   */
  private long awaitRecoveredDuring(String name, long t0, Duration pause)
      throws InterruptedException {
    long end = t0 + pause.toNanos();
    long recovered = -1;
    List<org.apache.hadoop.hbase.TableName> tables = null;
    while (System.nanoTime() - end < 0) {
      if (recovered < 0) {
        try {
          if (tables == null) {
            tables = ctx.userTables();
          }
          if (MetaRows.notOpenElsewhere(MetaRows.read(ctx.connection), tables, List.of(name))
              == null) {
            recovered = ChaosContext.millisSince(t0);
          }
        } catch (IOException e) {
          // meta busy: ask again
        }
      }
      Thread.sleep(Math.max(1, Math.min(25, (end - System.nanoTime()) / 1_000_000)));
    }
    return recovered;
  }

  /**
   * SIGSTOP of the busiest region server until its regions are open elsewhere (no SIGCONT before: a
   * host-like failure). Recovery: its last region open elsewhere.
   */
  ActionReport suspendUntilRecovered() throws IOException, InterruptedException {
    LocalClusterNode victim = ctx.busiestRegionServer();
    String name = victim.serverName().toString();
    long t0 = System.nanoTime();
    cluster.suspend(victim);
    long recovered = ctx.awaitOpenElsewhere(List.of(name), t0, RECOVERY_TIMEOUT);
    int exit = victim.awaitExit(Duration.ofSeconds(30));
    cluster.resume(victim); // nothing once it is gone; a survivor must stop by itself
    return ActionReport.of("suspend-rs-until-recovered")
        .target(victim.id())
        .recovery(recovered)
        .detail("exit", exit)
        .build();
  }
}
