package dev.basalt.wal;

import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log of one server or database instance, shared by all its regions.
 *
 * <p><b>Group commit.</b> Writers {@link #append} an encoded entry to an in-memory queue (a short
 * critical section) and then {@link #sync} until the durability they need covers their entry. One
 * syncer thread takes everything queued, writes it with one flush, forces it to the device when any
 * waiter asked for FSYNC_WAL, and wakes every waiter it covered: however many writers wait at that
 * moment, they share one flush (and one fsync). ASYNC_WAL entries are written at the latest after
 * {@code hbase.regionserver.optionallogflushinterval}.
 *
 * <p><b>Segments.</b> The log is a series of segment files under {@code WALs/<server>/}; the syncer
 * rolls to a new one when the current one passes the roll size or age. For each segment the log
 * remembers the highest sequence id it holds per region; once every such region has persisted past
 * it ({@link #markPersisted}), the segment moves to {@code oldWALs/}.
 *
 * <p>After an I/O error the log fails for good: pending and later calls throw. Thread-safe.
 */
public final class Wal implements Closeable {
  public static final String DIR = "WALs";
  public static final String OLD_DIR = "oldWALs";

  /** Fault point: the syncer has written a batch but not yet flushed it. */
  public static final String FAULT_BEFORE_FLUSH = "wal.syncer.beforeFlush";

  private static final Logger LOG = LoggerFactory.getLogger(Wal.class);

  private final Storage storage;
  private final String serverId;
  private final String dir;
  private final Clock clock;
  private final long rollSize;
  private final long rollPeriodMillis;
  private final long asyncFlushMillis;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition work = lock.newCondition();
  private final Condition progress = lock.newCondition();
  // Guarded by lock:
  private List<Pending> pending = new ArrayList<>();
  private long appendedTxid;
  private long flushedTxid;
  private long syncedTxid;
  private long syncRequested;
  private long fsyncRequested;
  private long lastFlushNanos;
  private IOException failure;
  private boolean closing;
  private boolean rollRequested;

  // Owned by the syncer thread:
  private WritableFile current;
  private String currentName;
  private long currentCreated;
  private long currentEdits;
  private Map<String, Long> currentRegions = new HashMap<>();
  private long nextSegment;

  private final Object accounting = new Object();
  // Guarded by accounting:
  private final List<Segment> closedSegments = new ArrayList<>();
  private final Map<String, Long> persisted = new HashMap<>();

  private final Thread syncer;

  private record Pending(byte[] frame, String region, long lastSeq) {}

  /** A closed segment and the highest sequence id it holds for each region. */
  public record Segment(String name, Map<String, Long> maxSeqByRegion) {}

  /**
   * Starts a log: continues after the segments recovered from the previous run (which stay until
   * their regions have persisted past them) in a new segment.
   *
   * @param recovered segments found by {@link WalReplay} for this server, in order
   */
  public Wal(Storage storage, String serverId, Config config, Clock clock, List<Segment> recovered)
      throws IOException {
    this.storage = storage;
    this.serverId = serverId;
    this.dir = DIR + "/" + serverId;
    this.clock = clock;
    this.rollSize = config.get(WalSettings.ROLL_SIZE);
    this.rollPeriodMillis = config.get(WalSettings.ROLL_PERIOD);
    this.asyncFlushMillis = config.get(WalSettings.ASYNC_FLUSH_INTERVAL);
    long last = -1;
    for (String name : storage.list(dir)) {
      last = Math.max(last, segmentNumber(name));
    }
    this.nextSegment = last + 1;
    this.closedSegments.addAll(recovered);
    storage.mkdirs(OLD_DIR);
    openSegment();
    this.lastFlushNanos = clock.nanoTime();
    this.syncer = new Thread(this::runSyncer, "wal-syncer-" + serverId);
    this.syncer.setDaemon(true);
    this.syncer.start();
    archiveWhatIsPersisted();
  }

  static String segmentName(long number) {
    return String.format("wal-%020d", number);
  }

  /** The number of a segment file name, or -1 for names that are not segments. */
  static long segmentNumber(String name) {
    if (!name.startsWith("wal-") || name.length() != 24) {
      return -1;
    }
    try {
      return Long.parseLong(name.substring(4));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  public String serverId() {
    return serverId;
  }

  /**
   * Queues an entry; it is written by the syncer.
   *
   * @return the transaction number to pass to {@link #sync}
   */
  public long append(WalEntry e) throws IOException {
    byte[] frame = WalFormat.editFrame(e);
    lock.lock();
    try {
      checkUsable();
      pending.add(new Pending(frame, e.region(), e.lastSequenceId()));
      return ++appendedTxid;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until every entry up to {@code txid} is as durable as {@code durability} asks: flushed to
   * the operating system for SYNC_WAL, forced to the device for FSYNC_WAL. ASYNC_WAL and SKIP_WAL
   * return at once.
   */
  public void sync(long txid, Durability durability) throws IOException {
    boolean force = durability == Durability.FSYNC_WAL;
    if (!force && durability != Durability.SYNC_WAL) {
      return;
    }
    lock.lock();
    try {
      if (force) {
        fsyncRequested = Math.max(fsyncRequested, txid);
      }
      syncRequested = Math.max(syncRequested, txid);
      work.signal();
      while ((force ? syncedTxid : flushedTxid) < txid) {
        if (failure != null) {
          throw new IOException("WAL " + dir + " failed: " + failure.getMessage(), failure);
        }
        try {
          progress.await();
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted waiting for WAL sync of txid " + txid);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Asks the syncer to start a new segment after its current batch. */
  public void requestRoll() {
    lock.lock();
    try {
      rollRequested = true;
      work.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Records that {@code region} has persisted every edit up to {@code seq}; archives segments. */
  public void markPersisted(String region, long seq) throws IOException {
    synchronized (accounting) {
      persisted.merge(region, seq, Math::max);
    }
    archiveWhatIsPersisted();
  }

  /** The region is gone (dropped): none of its edits are needed any more. */
  public void forgetRegion(String region) throws IOException {
    markPersisted(region, Long.MAX_VALUE);
  }

  /** Names of closed segments still kept, oldest first (for tests and metrics). */
  public List<String> liveSegments() {
    synchronized (accounting) {
      List<String> out = new ArrayList<>();
      for (Segment s : closedSegments) {
        out.add(s.name());
      }
      return out;
    }
  }

  private void checkUsable() throws IOException {
    if (failure != null) {
      throw new IOException("WAL " + dir + " failed: " + failure.getMessage(), failure);
    }
    if (closing) {
      throw new IOException("WAL " + dir + " is closed");
    }
  }

  private void openSegment() throws IOException {
    currentName = segmentName(nextSegment++);
    currentCreated = clock.currentTimeMillis();
    current = storage.create(dir + "/" + currentName);
    current.write(WalFormat.header(serverId, currentCreated));
    current.sync();
    currentEdits = 0;
    currentRegions = new HashMap<>();
  }

  private void closeSegment() throws IOException {
    current.write(WalFormat.trailerFrame(currentEdits));
    current.sync();
    current.close();
    synchronized (accounting) {
      closedSegments.add(new Segment(currentName, currentRegions));
    }
  }

  private void roll() throws IOException {
    closeSegment();
    openSegment();
    LOG.debug("rolled WAL to {}", currentName);
    archiveWhatIsPersisted();
  }

  private void archiveWhatIsPersisted() throws IOException {
    synchronized (accounting) {
      Iterator<Segment> it = closedSegments.iterator();
      while (it.hasNext()) {
        Segment s = it.next();
        boolean done = true;
        for (Map.Entry<String, Long> e : s.maxSeqByRegion().entrySet()) {
          if (persisted.getOrDefault(e.getKey(), -1L) < e.getValue()) {
            done = false;
            break;
          }
        }
        if (done) {
          storage.rename(dir + "/" + s.name(), OLD_DIR + "/" + serverId + "." + s.name());
          it.remove();
        }
      }
    }
  }

  private void runSyncer() {
    while (true) {
      List<Pending> batch;
      long batchTxid;
      boolean force;
      boolean roll;
      lock.lock();
      try {
        while (!closing && !rollRequested && !hasWork()) {
          try {
            work.await(asyncFlushMillis, TimeUnit.MILLISECONDS);
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            failure = new InterruptedIOException("WAL syncer interrupted");
            progress.signalAll();
            return;
          }
        }
        batch = pending;
        pending = new ArrayList<>();
        batchTxid = appendedTxid;
        force = fsyncRequested > syncedTxid;
        roll = rollRequested;
        rollRequested = false;
      } finally {
        lock.unlock();
      }
      try {
        for (Pending p : batch) {
          current.write(p.frame());
          currentRegions.merge(p.region(), p.lastSeq(), Math::max);
          currentEdits++;
        }
        FaultPoints.hit(FAULT_BEFORE_FLUSH);
        if (force) {
          current.sync();
        } else if (!batch.isEmpty()) {
          current.flush();
        }
        lock.lock();
        try {
          flushedTxid = batchTxid;
          if (force) {
            syncedTxid = batchTxid;
          }
          lastFlushNanos = clock.nanoTime();
          progress.signalAll();
          if (closing && pending.isEmpty()) {
            break;
          }
        } finally {
          lock.unlock();
        }
        if (roll
            || current.position() >= rollSize
            || clock.currentTimeMillis() - currentCreated >= rollPeriodMillis) {
          roll();
        }
      } catch (IOException | RuntimeException e) {
        LOG.error("WAL {} failed; no further writes will be acknowledged", dir, e);
        lock.lock();
        try {
          failure = e instanceof IOException ? (IOException) e : new IOException(e);
          progress.signalAll();
        } finally {
          lock.unlock();
        }
        return;
      }
    }
    try {
      closeSegment();
    } catch (IOException e) {
      LOG.warn("could not close WAL segment {} cleanly", currentName, e);
    }
  }

  /** Whether the syncer has something to do now; called with the lock held. */
  private boolean hasWork() {
    if (fsyncRequested > syncedTxid) {
      return true;
    }
    if (pending.isEmpty()) {
      return false;
    }
    return syncRequested > flushedTxid
        || clock.nanoTime() - lastFlushNanos >= TimeUnit.MILLISECONDS.toNanos(asyncFlushMillis);
  }

  /** Writes what is queued, closes the current segment cleanly and stops the syncer. */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closing) {
        return;
      }
      closing = true;
      work.signal();
    } finally {
      lock.unlock();
    }
    try {
      syncer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted closing the WAL");
    }
    lock.lock();
    try {
      if (failure != null) {
        throw new IOException("WAL " + dir + " failed: " + failure.getMessage(), failure);
      }
    } finally {
      lock.unlock();
    }
  }
}
