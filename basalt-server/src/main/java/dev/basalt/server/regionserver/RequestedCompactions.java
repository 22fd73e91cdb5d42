package dev.basalt.server.regionserver;

import dev.basalt.region.Region;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse.CompactionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compactions clients asked for through AdminService.CompactRegion, run one at a time on a thread
 * of their own, as HBase runs them: the RPC answers once the compaction is queued, and the client
 * follows it with GetRegionInfo's compaction state. A request for a region and kind (minor or
 * major) already waiting is merged into the waiting one.
 *
 * <p>The state this class reports covers only these requested compactions (queued or running); the
 * database's own background compactions are not visible to it.
 *
 * <p>Thread-safe.
 */
final class RequestedCompactions implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RequestedCompactions.class);

  private record Key(Region region, boolean major) {}

  private final ExecutorService executor;

  /** Requests queued or running, per region and kind. */
  private final Map<Key, Integer> inProgress = new ConcurrentHashMap<>();

  /** Requests not started yet (a new request for one of these is merged into it). */
  private final Map<Key, Boolean> waiting = new ConcurrentHashMap<>();

  private volatile boolean closed;

  RequestedCompactions() {
    this(
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "basalt-admin-compaction");
              t.setDaemon(true);
              return t;
            }));
  }

  /** With the executor that runs the compactions (tests pass one they drive). */
  RequestedCompactions(ExecutorService executor) {
    this.executor = executor;
  }

  /**
   * Queues a compaction of every store of the region that needs one (minor) or of all its files
   * (major).
   *
   * @return false when the same request was already waiting and this one was merged into it
   * @throws IOException named RegionServerStoppedException once this is closed
   */
  boolean request(Region region, boolean major) throws IOException {
    Key key = new Key(region, major);
    if (closed) {
      throw stopped();
    }
    if (waiting.putIfAbsent(key, Boolean.TRUE) != null) {
      return false;
    }
    inProgress.merge(key, 1, Integer::sum);
    try {
      executor.execute(() -> run(key));
    } catch (RejectedExecutionException e) {
      waiting.remove(key);
      done(key);
      throw stopped();
    }
    return true;
  }

  private static IOException stopped() {
    return new BasaltIOException(
        "the region server is stopping; compactions are no longer taken",
        "org.apache.hadoop.hbase.regionserver.RegionServerStoppedException",
        false);
  }

  private void run(Key key) {
    waiting.remove(key);
    try {
      if (!closed) {
        key.region().compact(key.major()); // a closed region (split, dropped) does nothing
      }
    } catch (Exception e) {
      LOG.error(
          "requested {} compaction of {} failed; its files are unchanged",
          key.major() ? "major" : "minor",
          key.region(),
          e);
    } finally {
      done(key);
    }
  }

  private void done(Key key) {
    inProgress.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
  }

  /** The requested compactions of the region queued or running now. */
  CompactionState state(Region region) {
    boolean major = inProgress.containsKey(new Key(region, true));
    boolean minor = inProgress.containsKey(new Key(region, false));
    if (major && minor) {
      return CompactionState.MAJOR_AND_MINOR;
    }
    return major ? CompactionState.MAJOR : minor ? CompactionState.MINOR : CompactionState.NONE;
  }

  /**
   * Drops the requests not started yet and waits (a while) for a running compaction to finish; a
   * compaction is not interrupted halfway (the database's close waits for it anyway).
   */
  @Override
  public void close() {
    closed = true;
    executor.shutdown();
    try {
      if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("a requested compaction is still running after 30 s; not waiting for it");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
