package dev.basalt.server.master;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.fs.Storage;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.FaultPoints;
import dev.basalt.wal.WalCorruptionException;
import dev.basalt.wal.WalSplitter;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovers a dead region server's log before its regions open elsewhere (HBase's
 * ServerCrashProcedure), one procedure per dead server, with its next step persisted in the master
 * store before the step runs:
 *
 * <pre>
 * FENCE    rename WALs/&lt;server&gt; to -splitting and wait until its process is gone ({@link WalFence})
 * SPLIT    split the log into recovered edits per region ({@link WalSplitter#split})
 * ARCHIVE  move the split segments to oldWALs/ ({@link WalSplitter#archive})
 * ASSIGN   let the server's regions open again ({@link AssignmentManager#logRecovered}); a region
 *          replays its recovered edits when it opens, before it serves
 * </pre>
 *
 * Every step can run again after a partial run: a master that dies in the middle leaves the step
 * stored, and the next active master resumes there. SPLIT is complete before ARCHIVE is stored, and
 * a repeated split rewrites the same recovered-edits files, so no edit is lost or split twice into
 * different files. Until ASSIGN the server's regions stay ABNORMALLY_CLOSED: a region is never
 * served while edits it acknowledged are still only in a dead server's log. Named fault points
 * between the steps let tests crash the master there.
 *
 * <p>A step that fails (an I/O error) is retried with a growing pause; a log that does not read
 * back ({@link WalCorruptionException}) keeps failing until an operator repairs it or sets {@code
 * hbase.hregion.edits.replay.skip.errors}, and the server's regions stay closed meanwhile, which is
 * logged. Thread-safe.
 */
final class CrashRecovery implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CrashRecovery.class);

  /** Fault point: the log is fenced, SPLIT stored, nothing split yet. */
  static final String FAULT_AFTER_FENCE = "master.recovery.afterFence";

  /** Fault point: the log is split, ARCHIVE stored, the segments still in place. */
  static final String FAULT_AFTER_SPLIT = "master.recovery.afterSplit";

  /** Fault point: the segments are archived, ASSIGN stored, the regions still closed. */
  static final String FAULT_AFTER_ARCHIVE = "master.recovery.afterArchive";

  private static final long MAX_RETRY_MILLIS = 10_000;

  /** The steps, in order. */
  enum Step {
    FENCE,
    SPLIT,
    ARCHIVE,
    ASSIGN
  }

  private final Storage storage;
  private final ClusterCatalog catalog;
  private final MasterStore store;
  private final AssignmentManager assignment;
  private final ServerManager servers;
  private final WalFence fence;
  private final boolean skipErrors;
  private final ExecutorService workers;
  private final ScheduledExecutorService sweeper;
  private final Set<ServerName> running = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  CrashRecovery(
      Storage storage,
      ClusterCatalog catalog,
      MasterStore store,
      AssignmentManager assignment,
      ServerManager servers,
      WalFence fence,
      boolean skipErrors) {
    this.storage = storage;
    this.catalog = catalog;
    this.store = store;
    this.assignment = assignment;
    this.servers = servers;
    this.fence = fence;
    this.skipErrors = skipErrors;
    this.workers =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "basalt-crash-recovery");
              t.setDaemon(true);
              return t;
            });
    this.sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "basalt-crash-sweep");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Resumes the recoveries a previous master left (at their stored step) and starts sweeping for
   * dead servers whose regions wait: those that died while no master was active are found through
   * the assignment records that still name them.
   */
  void start() throws IOException {
    for (Map.Entry<String, String> e : store.recoveries().entrySet()) {
      ServerName server;
      Step step;
      try {
        server = ServerName.parse(e.getKey());
        step = Step.valueOf(e.getValue());
      } catch (IllegalArgumentException bad) {
        LOG.error("master store: dropping an unreadable recovery record {}={}", e, bad);
        store.deleteRecovery(e.getKey());
        continue;
      }
      LOG.info("resuming the recovery of dead region server {} at {}", server, step);
      submit(server, step);
    }
    sweeper.scheduleWithFixedDelay(this::sweep, 1, 1, TimeUnit.SECONDS);
  }

  /** A region server died: recover its log (idempotent; a recovery in progress goes on). */
  void serverDied(ServerName server) {
    if (closed || running.contains(server)) {
      return;
    }
    try {
      store.putRecovery(server.toString(), Step.FENCE.name());
    } catch (IOException e) {
      LOG.error("could not record the recovery of {}; the sweep starts it again", server, e);
      return;
    }
    submit(server, Step.FENCE);
  }

  /** Whether a recovery of this server runs. */
  boolean isRecovering(ServerName server) {
    return running.contains(server);
  }

  private void sweep() {
    if (closed) {
      return;
    }
    for (ServerName s : assignment.awaitingRecovery()) {
      if (!running.contains(s) && !servers.isLive(s)) {
        LOG.info("regions of dead region server {} wait for its log: recovering it", s);
        serverDied(s);
      }
    }
  }

  private void submit(ServerName server, Step from) {
    if (!running.add(server)) {
      return;
    }
    try {
      workers.execute(() -> run(server, from));
    } catch (RuntimeException e) {
      running.remove(server); // shut down
    }
  }

  private void run(ServerName server, Step from) {
    long started = System.nanoTime();
    Step step = from;
    long pause = 100;
    try {
      while (!closed) {
        try {
          Step next = runStep(server, step);
          if (next == null) {
            store.deleteRecovery(server.toString());
            LOG.info(
                "recovered the log of dead region server {} in {} ms",
                server,
                (System.nanoTime() - started) / 1_000_000);
            return;
          }
          store.putRecovery(server.toString(), next.name());
          FaultPoints.hit(faultAfter(step));
          step = next;
          pause = 100;
        } catch (InterruptedException e) {
          return; // stopping
        } catch (WalCorruptionException e) {
          LOG.error(
              "the log of dead region server {} does not read back; its regions stay closed until"
                  + " it is repaired or hbase.hregion.edits.replay.skip.errors is set",
              server,
              e);
          pause = MAX_RETRY_MILLIS * 3;
          sleep(pause);
        } catch (IOException | RuntimeException e) {
          LOG.warn("recovery of {} failed at {}; retrying in {} ms", server, step, pause, e);
          sleep(pause);
          pause = Math.min(pause * 2, MAX_RETRY_MILLIS);
        }
      }
    } finally {
      running.remove(server);
    }
  }

  /** Runs one step; returns the next, or null when the recovery is complete. */
  private Step runStep(ServerName server, Step step) throws IOException, InterruptedException {
    String dir = WalFence.splittingDir(server);
    switch (step) {
      case FENCE -> {
        fence.fence(server, () -> closed);
        return Step.SPLIT;
      }
      case SPLIT -> {
        if (storage.isDirectory(dir)) {
          WalSplitter.Result r =
              WalSplitter.split(storage, dir, catalog::recoveryTarget, skipErrors);
          LOG.info(
              "split the log of {}: {} edits for {} regions ({} dropped: flushed, or of regions"
                  + " gone)",
              server,
              r.editsWritten(),
              r.maxSequenceByRegion().size(),
              r.editsDropped());
        }
        return Step.ARCHIVE;
      }
      case ARCHIVE -> {
        if (storage.isDirectory(dir)) {
          WalSplitter.archive(storage, dir);
        }
        return Step.ASSIGN;
      }
      case ASSIGN -> {
        assignment.logRecovered(server);
        return null;
      }
      default -> throw new IllegalStateException("unknown step " + step);
    }
  }

  private static String faultAfter(Step step) {
    return switch (step) {
      case FENCE -> FAULT_AFTER_FENCE;
      case SPLIT -> FAULT_AFTER_SPLIT;
      case ARCHIVE -> FAULT_AFTER_ARCHIVE;
      case ASSIGN -> "master.recovery.afterAssign";
    };
  }

  private void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    sweeper.shutdownNow();
    workers.shutdownNow();
  }
}
