package dev.basalt.db;

import dev.basalt.compaction.CompactionSettings;
import dev.basalt.region.MaintenanceRequests;
import dev.basalt.region.Region;
import dev.basalt.region.RegionTooBusyException;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Collection;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database's background work: one thread flushes, one compacts, one checks periodically for
 * regions due a periodic flush or major compaction. Requests for a region already queued are
 * merged. Also enforces the global memstore limit: above it, writes wait while the largest regions
 * are flushed. Thread-safe.
 */
final class Maintenance implements MaintenanceRequests {
  private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

  private final Supplier<Collection<Region>> regions;
  private final Clock clock;
  private final ExecutorService flusher = Executors.newSingleThreadExecutor(named("flush"));
  private final ExecutorService compactor = Executors.newSingleThreadExecutor(named("compaction"));
  private final ScheduledExecutorService chores =
      Executors.newSingleThreadScheduledExecutor(named("chores"));
  private final Set<Region> flushQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> compactionQueued = ConcurrentHashMap.newKeySet();
  private final long globalLimit;
  private final long globalLowWater;
  private final long periodicFlushMillis;
  private final long majorPeriodMillis;
  private final double majorJitter;
  private final long blockingWaitMillis;
  private final Object memoryFreed = new Object();
  private volatile boolean stopped;

  Maintenance(Supplier<Collection<Region>> regions, Config config, Clock clock) {
    this.regions = regions;
    this.clock = clock;
    long heap = Runtime.getRuntime().maxMemory();
    this.globalLimit = (long) (heap * config.get(DatabaseSettings.GLOBAL_MEMSTORE_FRACTION));
    this.globalLowWater = (long) (globalLimit * config.get(DatabaseSettings.GLOBAL_MEMSTORE_LOWER));
    this.periodicFlushMillis = config.get(DatabaseSettings.PERIODIC_FLUSH);
    this.majorPeriodMillis = config.get(CompactionSettings.MAJOR_PERIOD);
    this.majorJitter = config.get(CompactionSettings.MAJOR_JITTER);
    this.blockingWaitMillis = config.get(CompactionSettings.BLOCKING_WAIT);
    long interval = config.get(DatabaseSettings.MAINTENANCE_INTERVAL);
    chores.scheduleWithFixedDelay(this::chores, interval, interval, TimeUnit.MILLISECONDS);
  }

  private static java.util.concurrent.ThreadFactory named(String what) {
    return r -> {
      Thread t = new Thread(r, "basalt-" + what);
      t.setDaemon(true);
      return t;
    };
  }

  @Override
  public void requestFlush(Region region) {
    if (stopped || !flushQueued.add(region)) {
      return;
    }
    flusher.execute(
        () -> {
          boolean flushed = false;
          try {
            if (!region.isClosed()) {
              region.flush();
              flushed = true;
            }
          } catch (IOException | RuntimeException e) {
            LOG.error("flush of {} failed; its edits stay in memory and in the WAL", region, e);
          } finally {
            // Only now: needsFlush() stays true until the flush has set the memstore aside, and a
            // request merged before that would queue a second flush of a few late writes.
            flushQueued.remove(region);
            synchronized (memoryFreed) {
              memoryFreed.notifyAll();
            }
          }
          if (flushed && !region.isClosed() && region.needsFlush()) {
            requestFlush(region); // filled up again while this flush ran
          }
        });
  }

  @Override
  public void requestCompaction(Region region) {
    compact(region, false);
  }

  private void compact(Region region, boolean major) {
    if (stopped || !compactionQueued.add(region)) {
      return;
    }
    compactor.execute(
        () -> {
          compactionQueued.remove(region);
          try {
            if (!region.isClosed() && (major || region.needsCompaction())) {
              region.compact(major);
            }
          } catch (IOException | RuntimeException e) {
            LOG.error("compaction of {} failed; its files are unchanged", region, e);
          }
        });
  }

  private long totalMemstore() {
    long n = 0;
    for (Region r : regions.get()) {
      n += r.getMemstoreSize();
    }
    return n;
  }

  /** Flushes the largest regions while all memstores together are above the low-water mark. */
  private void relieveMemory() {
    if (totalMemstore() < globalLowWater) {
      return;
    }
    regions.get().stream()
        .max(Comparator.comparingLong(Region::getMemstoreSize))
        .ifPresent(this::requestFlush);
  }

  @Override
  public void beforeWrite(Region region) throws IOException {
    if (totalMemstore() < globalLimit) {
      return;
    }
    long deadline = clock.nanoTime() + blockingWaitMillis * 1_000_000L;
    while (totalMemstore() >= globalLimit) {
      relieveMemory();
      if (clock.nanoTime() >= deadline) {
        throw new RegionTooBusyException(
            "the database's memstores are over their global limit ("
                + globalLimit
                + " bytes, hbase.regionserver.global.memstore.size) and flushes did not catch up;"
                + " retry later");
      }
      synchronized (memoryFreed) {
        try {
          memoryFreed.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted waiting for memory");
        }
      }
    }
  }

  private void chores() {
    try {
      long now = clock.currentTimeMillis();
      relieveMemory();
      for (Region r : regions.get()) {
        if (periodicFlushMillis > 0
            && r.getMemstoreSize() > 0
            && now - r.getLastFlushTime() >= periodicFlushMillis) {
          requestFlush(r);
        }
        if (majorPeriodMillis > 0 && r.majorCompactionDue(now, majorPeriodMillis, majorJitter)) {
          compact(r, true);
        }
      }
    } catch (RuntimeException e) {
      LOG.error("maintenance check failed", e);
    }
  }

  /** Stops taking work and waits for running flushes and compactions. */
  void stop() throws InterruptedIOException {
    stopped = true;
    chores.shutdownNow();
    flusher.shutdown();
    compactor.shutdown();
    try {
      flusher.awaitTermination(10, TimeUnit.MINUTES);
      compactor.awaitTermination(10, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted stopping background work");
    }
  }
}
