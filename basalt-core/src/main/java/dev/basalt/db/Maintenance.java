package dev.basalt.db;

import dev.basalt.compaction.CompactionSettings;
import dev.basalt.region.MaintenanceRequests;
import dev.basalt.region.Region;
import dev.basalt.region.RegionTooBusyException;
import dev.basalt.util.Clock;
import dev.basalt.util.NoWait;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
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
 * The database's background work, in bounded pools sized by the core count: flushes, compactions in
 * a small and a large queue (by how much data the region holds), split checks (one thread: a split
 * takes the DDL lock anyway), and one thread of periodic chores: periodic flushes and major
 * compactions, the global memory check, and the database's own chores ({@link Hooks}: the archive
 * cleaner, parents of splits no longer referenced). Requests for a region already queued are
 * merged. Also enforces the global memstore limit over every region of every table: above it,
 * writes wait while the regions with the largest memstores are flushed first. Thread-safe.
 */
final class Maintenance implements MaintenanceRequests {
  private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

  /** What the database does in the background besides flushing and compacting. */
  interface Hooks {
    /** A compaction of the region ran (or found nothing to do): time for split checks. */
    void afterCompaction(Region region);

    /** Whether the region should split now (checked on the split thread). */
    void splitCheck(Region region);

    /** Periodic work of the database (archive cleaning). */
    void chores();

    Hooks NONE =
        new Hooks() {
          @Override
          public void afterCompaction(Region region) {}

          @Override
          public void splitCheck(Region region) {}

          @Override
          public void chores() {}
        };
  }

  private final Supplier<Collection<Region>> regions;
  private final Clock clock;
  private final ExecutorService flusher;
  private final ExecutorService compactor;
  private final ExecutorService largeCompactor;
  private final ExecutorService splitter = Executors.newSingleThreadExecutor(named("split"));
  private final ScheduledExecutorService chores =
      Executors.newSingleThreadScheduledExecutor(named("chores"));
  private final Set<Region> flushQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> compactionQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> splitQueued = ConcurrentHashMap.newKeySet();
  private final long throttlePoint;
  private volatile Hooks hooks = Hooks.NONE;
  private final long globalLimit;
  private final long globalLowWater;
  private final long periodicFlushMillis;
  private final long majorPeriodMillis;
  private final double majorJitter;
  private final long blockingWaitMillis;
  private final Object memoryFreed = new Object();
  private volatile boolean stopped;
  private volatile boolean compactionsEnabled = true;

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
    int cores = Runtime.getRuntime().availableProcessors();
    this.flusher = pool("flush", threads(config.get(DatabaseSettings.FLUSH_THREADS), cores / 2, 8));
    this.compactor =
        pool(
            "compaction-small",
            threads(config.get(DatabaseSettings.SMALL_COMPACTION_THREADS), cores / 4, 4));
    this.largeCompactor =
        pool(
            "compaction-large",
            threads(config.get(DatabaseSettings.LARGE_COMPACTION_THREADS), cores / 8, 2));
    this.throttlePoint = config.get(DatabaseSettings.COMPACTION_THROTTLE_POINT);
    long interval = config.get(DatabaseSettings.MAINTENANCE_INTERVAL);
    chores.scheduleWithFixedDelay(this::chores, interval, interval, TimeUnit.MILLISECONDS);
  }

  private static java.util.concurrent.ThreadFactory named(String what) {
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "basalt-" + what + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** A configured thread count, or (0) one sized by the core count within [1, max]. */
  private static int threads(int configured, int byCores, int max) {
    return configured > 0 ? configured : Math.max(1, Math.min(byCores, max));
  }

  private static ExecutorService pool(String what, int threads) {
    return Executors.newFixedThreadPool(threads, named(what));
  }

  /** Sets what the database does after compactions and in its chores. */
  void setHooks(Hooks hooks) {
    this.hooks = hooks;
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
              flushLogged(region);
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

  @Override
  public boolean compactionsEnabled() {
    return compactionsEnabled;
  }

  /**
   * Switches background compactions off or on, as HBase's CompactionSwitch does: while off, no
   * compaction is queued or started (one already running finishes; its result is as valid as ever).
   * Switching on queues a compaction of every region that needs one.
   *
   * @return whether they were on before
   */
  boolean switchCompactions(boolean on) {
    boolean before = compactionsEnabled;
    compactionsEnabled = on;
    if (on && !before) {
      for (Region r : regions.get()) {
        if (!r.isClosed() && r.needsCompaction()) {
          compact(r, false);
        }
      }
    }
    return before;
  }

  private void compact(Region region, boolean major) {
    if (stopped || !compactionsEnabled || !compactionQueued.add(region)) {
      return;
    }
    ExecutorService queue = region.getStoreFileSize() > throttlePoint ? largeCompactor : compactor;
    queue.execute(
        () -> {
          compactionQueued.remove(region);
          try {
            if (compactionsEnabled
                && !region.isClosed()
                && (major || region.needsCompaction())
                && compactLogged(region, major)
                && region.hasTooManyStoreFiles()) {
              // A minor compaction takes at most hbase.hstore.compaction.max files: go on while
              // writes are held (each round rewrites some files, so this ends).
              compact(region, false);
            }
          } catch (IOException | RuntimeException e) {
            LOG.error("compaction of {} failed; its files are unchanged", region, e);
          }
          try {
            hooks.afterCompaction(region);
          } catch (RuntimeException e) {
            LOG.error("work after the compaction of {} failed", region, e);
          }
        });
  }

  private static void flushLogged(Region region) throws IOException {
    long memstore = region.getMemstoreSize();
    long start = System.nanoTime();
    if (region.flush()) {
      LOG.info(
          "flushed {} ({} bytes of memstore) in {} ms",
          region.getRegionInfo().getRegionNameAsString(),
          memstore,
          (System.nanoTime() - start) / 1_000_000);
    }
  }

  private static boolean compactLogged(Region region, boolean major) throws IOException {
    int files = region.getStoreFileCount();
    long bytes = region.getStoreFileSize();
    long start = System.nanoTime();
    boolean compacted = region.compact(major);
    if (compacted) {
      LOG.info(
          "{} compaction of {}: {} files, {} bytes -> {} files, {} bytes in {} ms",
          major ? "major" : "minor",
          region.getRegionInfo().getRegionNameAsString(),
          files,
          bytes,
          region.getStoreFileCount(),
          region.getStoreFileSize(),
          (System.nanoTime() - start) / 1_000_000);
    }
    return compacted;
  }

  /** Asks the split thread to check whether {@code region} should split now. */
  void requestSplitCheck(Region region) {
    if (stopped || !splitQueued.add(region)) {
      return;
    }
    splitter.execute(
        () -> {
          splitQueued.remove(region);
          try {
            if (!region.isClosed()) {
              hooks.splitCheck(region);
            }
          } catch (RuntimeException e) {
            LOG.error("split check of {} failed", region, e);
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

  /**
   * Above the low-water mark, queues flushes of the regions with the largest memstores first, as
   * many as it takes to get below the mark once they are written.
   */
  private void relieveMemory() {
    Collection<Region> all = regions.get();
    // Sizes move while writers write: sort a snapshot of them.
    long[][] bySize = new long[all.size()][];
    Region[] byIndex = all.toArray(new Region[0]);
    long total = 0;
    for (int i = 0; i < byIndex.length; i++) {
      long size = byIndex[i].getMemstoreSize();
      bySize[i] = new long[] {size, i};
      total += size;
    }
    if (total < globalLowWater) {
      return;
    }
    Arrays.sort(bySize, Comparator.comparingLong((long[] e) -> e[0]).reversed());
    for (long[] e : bySize) {
      if (total < globalLowWater || e[0] == 0) {
        break;
      }
      requestFlush(byIndex[(int) e[1]]);
      total -= e[0];
    }
  }

  /** Compactions of {@code region} waiting in the queue (requests for one region are merged). */
  int compactionQueueLength(Region region) {
    return compactionQueued.contains(region) ? 1 : 0;
  }

  @Override
  public void beforeWrite(Region region) throws IOException {
    if (totalMemstore() < globalLimit) {
      return;
    }
    NoWait.beforeWaiting("memstores to flush below their global limit");
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
        requestSplitCheck(r);
      }
      hooks.chores();
    } catch (RuntimeException e) {
      LOG.error("maintenance check failed", e);
    }
  }

  /** Stops taking work and waits for running flushes and compactions. */
  void stop() throws InterruptedIOException {
    stopped = true;
    chores.shutdownNow();
    splitter.shutdown();
    flusher.shutdown();
    compactor.shutdown();
    largeCompactor.shutdown();
    try {
      splitter.awaitTermination(10, TimeUnit.MINUTES);
      flusher.awaitTermination(10, TimeUnit.MINUTES);
      compactor.awaitTermination(10, TimeUnit.MINUTES);
      largeCompactor.awaitTermination(10, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted stopping background work");
    }
  }
}
