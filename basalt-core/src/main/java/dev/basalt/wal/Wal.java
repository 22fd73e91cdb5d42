package dev.basalt.wal;

import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log of one server or database instance, shared by all its regions.
 *
 * <p><b>Group commit.</b> Writers {@link #append} an encoded entry to an in-memory queue (a short
 * critical section) and then {@link #sync} until the durability they need covers their entry. The
 * first waiting writer becomes the leader: it takes everything queued, writes it with one flush,
 * forces it to the device when any waiter asked for FSYNC_WAL, and wakes every waiter it covered,
 * plus one that it did not (who leads the next round). While a leader forces the file, new writers
 * queue up behind it, so under load one fsync serves as many writers as arrived during the previous
 * one; with a single writer there is no hand-off to another thread at all. A background thread
 * writes ASYNC_WAL entries at the latest after {@code hbase.regionserver.optionallogflushinterval}
 * and rolls idle segments by age.
 *
 * <p><b>Segments.</b> The log is a series of segment files under {@code WALs/<server>/}; a round
 * rolls to a new one when the current one passes the roll size or age. The round writes the old
 * segment's trailer and hands it to the OS, opens the next segment, and leaves forcing and closing
 * the old one to a {@link SegmentCloser} thread, so that no writer waits for a whole segment to
 * reach the device; a round that forces entries waits for those closes first, so FSYNC_WAL still
 * covers every earlier entry. For each segment the log remembers the highest sequence id it holds
 * per region; once the segment is closed and every such region has persisted past it ({@link
 * #markPersisted}), the segment moves to {@code oldWALs/}.
 *
 * <p>After an I/O error the log fails for good: pending and later calls throw. Thread-safe.
 */
public final class Wal implements Closeable {
  public static final String DIR = "WALs";
  public static final String OLD_DIR = "oldWALs";

  /** Fault point: a round has written its batch but not yet flushed it. */
  public static final String FAULT_BEFORE_FLUSH = "wal.round.beforeFlush";

  private static final Logger LOG = LoggerFactory.getLogger(Wal.class);

  /** Rounds a leader writes back to back while other writers still wait (bounds its latency). */
  private static final int MAX_ROUNDS_PER_LEADER = 3;

  private final Storage storage;
  private final boolean fenced;
  private final String serverId;
  private final String dir;
  private final Clock clock;
  private final long rollSize;
  private final long rollPeriodMillis;
  private final long asyncFlushMillis;

  /** Guards the pending queue and the transaction counter; held only to add or take entries. */
  private final ReentrantLock lock = new ReentrantLock();

  /**
   * Bytes of ASYNC_WAL entries that may wait for the background flusher ({@link
   * WalSettings#ASYNC_BACKLOG}). Past this an ASYNC_WAL writer waits for a flush like a SYNC_WAL
   * one: without a bound, writers faster than the disk would queue frames until the heap runs out.
   */
  private final long maxAsyncBacklog;

  // Guarded by lock:
  private ArrayList<Pending> pending = new ArrayList<>();
  // Written under lock, read anywhere:
  private volatile long pendingBytes;
  // Written under lock, read anywhere:
  private volatile long appendedTxid;

  /** Held by the thread writing a batch (a leader, the background flusher, or close). */
  private final ReentrantLock writeLock = new ReentrantLock();

  // Written under writeLock, read anywhere:
  private volatile long flushedTxid;
  private volatile long syncedTxid;
  private volatile long lastFlushNanos;
  // Raised by any thread:
  private final AtomicLong fsyncRequested = new AtomicLong();
  private volatile boolean rollRequested;
  private volatile boolean closing;
  private volatile IOException failure;

  /** Writers parked until a round covers their transaction or makes them the next leader. */
  private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();

  private record Waiter(Thread thread, long txid, boolean force) {}

  // Owned by whoever holds writeLock:
  /** The list the last round wrote, emptied, to become the next pending list (no allocation). */
  private ArrayList<Pending> spare = new ArrayList<>();

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

  private final Thread flusher;
  private final SegmentCloser closer;

  private record Pending(
      byte[] frame,
      String region,
      String table,
      int regionId,
      List<UUID> clusters,
      int[] clusterIds,
      long lastSeq) {}

  /**
   * Dictionary ids of regions and clusters, fixed for the life of this log so that an entry is
   * encoded before it is known which segment it goes to; each segment defines the ids it uses
   * before their first use ({@link WalFormat}).
   */
  private final Map<String, Integer> regionIds = new ConcurrentHashMap<>();

  private final Map<UUID, Integer> clusterIds = new ConcurrentHashMap<>();
  private final AtomicInteger nextRegionId = new AtomicInteger();
  private final AtomicInteger nextClusterId = new AtomicInteger();

  /** The ids of the last cluster list seen: every local edit carries the same list. */
  private volatile ClusterIds lastClusterIds = new ClusterIds(List.of(), new int[0]);

  private record ClusterIds(List<UUID> clusters, int[] ids) {}

  // Owned by whoever holds writeLock: the ids the current segment has defined.
  private BitSet regionsDefined = new BitSet();
  private BitSet clustersDefined = new BitSet();

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
    this(storage, serverId, config, clock, recovered, false);
  }

  /**
   * Starts a log as the other constructor does; with {@code fenced}, the caller holds the lock of
   * the log directory ({@link Storage#lockDirectory}) and every new segment checks that its
   * directory still holds the lock file. A directory without it was renamed away (to {@code
   * -splitting}) by a master recovering this server's log, and the segment just created made a new
   * directory of the old name that the recovery would never read: the segment is removed and the
   * log fails, so no write is acknowledged in it. (A rename after the check moves the new segment
   * along with the directory, where the recovery reads it.)
   */
  public Wal(
      Storage storage,
      String serverId,
      Config config,
      Clock clock,
      List<Segment> recovered,
      boolean fenced)
      throws IOException {
    this.fenced = fenced;
    this.storage = storage;
    this.serverId = serverId;
    this.dir = DIR + "/" + serverId;
    this.clock = clock;
    this.rollSize = config.get(WalSettings.ROLL_SIZE);
    this.rollPeriodMillis = config.get(WalSettings.ROLL_PERIOD);
    this.asyncFlushMillis = config.get(WalSettings.ASYNC_FLUSH_INTERVAL);
    this.maxAsyncBacklog = config.get(WalSettings.ASYNC_BACKLOG);
    this.closer = new SegmentCloser("wal-closer-" + serverId, this::closed, this::closeFailed);
    long last = -1;
    for (String name : storage.list(dir)) {
      last = Math.max(last, segmentNumber(name));
    }
    // Numbers go on past the archived segments too (a server that reopens its log after a clean
    // stop finds its live directory empty): a replication queue's position names a segment by its
    // number and must never see a number again.
    for (String name : storage.list(OLD_DIR)) {
      last = Math.max(last, archivedSegmentNumber(name, serverId));
    }
    this.nextSegment = last + 1;
    this.closedSegments.addAll(recovered);
    if (!fenced) {
      storage.mkdirs(dir); // a fenced log's directory is made by its lock, and must not be again
    }
    storage.mkdirs(OLD_DIR);
    openSegment();
    this.lastFlushNanos = clock.nanoTime();
    this.flusher = new Thread(this::runFlusher, "wal-flusher-" + serverId);
    this.flusher.setDaemon(true);
    this.flusher.start();
    archiveWhatIsPersisted();
  }

  public static String segmentName(long number) {
    return String.format("wal-%020d", number);
  }

  /** Where segment {@code segmentName} of {@code server}'s log goes when archived. */
  public static String archivedPath(String server, String segmentName) {
    return OLD_DIR + "/" + server + "." + segmentName;
  }

  /**
   * The segment number of a file name in {@code oldWALs/} if it is one of {@code server}'s archived
   * segments ({@link #archivedPath}), else -1.
   */
  public static long archivedSegmentNumber(String archivedName, String server) {
    return archivedName.length() > server.length()
            && archivedName.startsWith(server)
            && archivedName.charAt(server.length()) == '.'
        ? segmentNumber(archivedName.substring(server.length() + 1))
        : -1;
  }

  /** Whether a file name in a log directory is a segment's (not the lock file, say). */
  public static boolean isSegment(String name) {
    return segmentNumber(name) >= 0;
  }

  /** The number of a segment file name, or -1 for names that are not segments. */
  public static long segmentNumber(String name) {
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
   * Queues an entry; it is written by the next round.
   *
   * @return the transaction number to pass to {@link #sync}
   */
  public long append(WalEntry e) throws IOException {
    int regionId = regionIds.computeIfAbsent(e.region(), r -> nextRegionId.getAndIncrement());
    ClusterIds clusters = clusterIdsOf(e.clusterIds());
    byte[] frame = WalFormat.editFrame(e, regionId, clusters.ids());
    lock.lock();
    try {
      checkUsable();
      pending.add(
          new Pending(
              frame,
              e.region(),
              e.table(),
              regionId,
              clusters.clusters(),
              clusters.ids(),
              e.lastSequenceId()));
      pendingBytes += frame.length;
      long txid = appendedTxid + 1;
      appendedTxid = txid;
      return txid;
    } finally {
      lock.unlock();
    }
  }

  private ClusterIds clusterIdsOf(List<UUID> clusters) {
    ClusterIds last = lastClusterIds;
    if (last.clusters() == clusters) {
      return last;
    }
    int[] ids = new int[clusters.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = clusterIds.computeIfAbsent(clusters.get(i), c -> nextClusterId.getAndIncrement());
    }
    ClusterIds fresh = new ClusterIds(clusters, ids);
    lastClusterIds = fresh;
    return fresh;
  }

  /**
   * Waits until every entry up to {@code txid} is as durable as {@code durability} asks: flushed to
   * the operating system for SYNC_WAL, forced to the device for FSYNC_WAL. ASYNC_WAL and SKIP_WAL
   * return at once, unless {@link WalSettings#ASYNC_BACKLOG} bytes already wait for the background
   * flusher: then an ASYNC_WAL writer waits as a SYNC_WAL one would (back-pressure).
   *
   * <p>No wake-up is lost: a waiter registers before it tries to lead, and every round's leader
   * scans the waiters only after it releases the write lock.
   */
  public void sync(long txid, Durability durability) throws IOException {
    boolean force = durability == Durability.FSYNC_WAL;
    if (!force
        && durability != Durability.SYNC_WAL
        && !(durability == Durability.ASYNC_WAL && pendingBytes > maxAsyncBacklog)) {
      return;
    }
    if (force) {
      fsyncRequested.accumulateAndGet(txid, Math::max);
    }
    Waiter me = null;
    try {
      while (!covered(txid, force)) {
        IOException f = failure;
        if (f != null) {
          throw new IOException("WAL " + dir + " failed: " + f.getMessage(), f);
        }
        if (writeLock.tryLock()) {
          try {
            // Lead a few rounds while others wait: this thread is already running, and a hand-off
            // to a parked one costs a wake-up per round.
            for (int round = 0; round < MAX_ROUNDS_PER_LEADER; round++) {
              if (round > 0 && !uncoveredWaiters()) {
                break;
              }
              writeRound();
              wakeCoveredWaiters();
            }
          } finally {
            writeLock.unlock();
            wakeWaiters();
          }
        } else if (me == null) {
          me = new Waiter(Thread.currentThread(), txid, force);
          waiters.add(me); // then try to lead once more before parking
        } else {
          LockSupport.park(this);
          if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for WAL sync of txid " + txid);
          }
        }
      }
    } finally {
      if (me != null) {
        waiters.remove(me);
      }
    }
  }

  private boolean covered(long txid, boolean force) {
    return (force ? syncedTxid : flushedTxid) >= txid;
  }

  private boolean uncoveredWaiters() {
    for (Waiter w : waiters) {
      if (!covered(w.txid(), w.force())) {
        return true;
      }
    }
    return false;
  }

  private void wakeCoveredWaiters() {
    for (Waiter w : waiters) {
      if (covered(w.txid(), w.force())) {
        LockSupport.unpark(w.thread());
      }
    }
  }

  /**
   * Wakes one waiter the last round did not cover, to lead the next round, and then every waiter it
   * covered: the next fsync can start while the others are still waking up.
   */
  private void wakeWaiters() {
    boolean failed = failure != null;
    for (Waiter w : waiters) {
      if (!failed && !covered(w.txid(), w.force())) {
        LockSupport.unpark(w.thread());
        break;
      }
    }
    for (Waiter w : waiters) {
      if (failed || covered(w.txid(), w.force())) {
        LockSupport.unpark(w.thread());
      }
    }
  }

  /** Asks for a new segment; the next round (at the latest the background flusher's) starts it. */
  /**
   * Where the log ends once everything appended so far is written: a position at or after the end
   * of every entry appended before this call (replication records where a closed region's last edit
   * lies, for serial peers).
   */
  public WalPosition endPosition() throws IOException {
    sync(appendedTxid, Durability.SYNC_WAL);
    lock.lock();
    try {
      return new WalPosition(segmentNumber(currentName), current.position());
    } finally {
      lock.unlock();
    }
  }

  public void requestRoll() {
    rollRequested = true;
    LockSupport.unpark(flusher);
  }

  /** Records that {@code region} has persisted every edit up to {@code seq}; archives segments. */
  public void markPersisted(String region, long seq) throws IOException {
    synchronized (accounting) {
      persisted.merge(region, seq, Math::max);
    }
    archiveWhatIsPersisted();
  }

  /**
   * A region opens on this log with every edit up to {@code seq} persisted. Replaces what the log
   * knew of it, unlike {@link #markPersisted}: a region closed here before was forgotten ({@link
   * #forgetRegion}, as persisted up to the end of time), and its new edits must keep their segments
   * until they are flushed.
   */
  public void regionOpened(String region, long seq) throws IOException {
    synchronized (accounting) {
      persisted.put(region, seq);
    }
    archiveWhatIsPersisted();
  }

  /** The region is gone (dropped): none of its edits are needed any more. */
  public void forgetRegion(String region) throws IOException {
    markPersisted(region, Long.MAX_VALUE);
  }

  /**
   * Names of closed segments still kept, oldest first (for tests and metrics). Waits for segments
   * being closed in the background, so that the answer does not depend on timing.
   */
  public List<String> liveSegments() {
    try {
      closer.awaitAll();
    } catch (IOException e) {
      // a failed log keeps the segments it could not close; list the others
    }
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
    String path = dir + "/" + currentName;
    try {
      // Not recursive: a log whose directory was renamed away to fence it cannot make a new one.
      current = storage.createNonRecursive(path);
    } catch (FileNotFoundException e) {
      throw new IOException(
          "WAL directory "
              + storage.describe(dir)
              + " is gone: it was renamed away to recover this server's log, so this server may"
              + " not write another edit",
          e);
    }
    current.write(WalFormat.header(serverId, currentCreated));
    current.sync();
    if (fenced && !storage.exists(dir + "/" + Storage.LOCK_FILE)) {
      current.close();
      storage.delete(path);
      if (storage.list(dir).isEmpty()) {
        storage.delete(dir);
      }
      throw new IOException(
          "WAL directory "
              + storage.describe(dir)
              + " lost its lock file: it was renamed away to recover this server's log, so this"
              + " server may not write another edit");
    }
    currentEdits = 0;
    currentRegions = new HashMap<>();
    regionsDefined = new BitSet();
    clustersDefined = new BitSet();
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
    current.write(WalFormat.trailerFrame(currentEdits));
    // Whole in the OS before the next segment exists: a killed process leaves no torn old segment.
    current.flush();
    closer.close(current, new Segment(currentName, currentRegions));
    openSegment();
    LOG.debug("rolled WAL to {}", currentName);
  }

  /** A rolled-away segment is forced and closed: it may be archived from now on. */
  private void closed(Segment s) {
    synchronized (accounting) {
      closedSegments.add(s);
    }
    try {
      archiveWhatIsPersisted();
    } catch (IOException e) {
      LOG.warn("could not archive WAL segments of {}; the next flush tries again", dir, e);
    }
  }

  private void closeFailed(IOException e) {
    LOG.error("WAL {} failed forcing a segment; no further writes will be acknowledged", dir, e);
    if (failure == null) {
      failure = e;
    }
    wakeWaiters();
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
          storage.rename(dir + "/" + s.name(), archivedPath(serverId, s.name()));
          it.remove();
        }
      }
    }
  }

  /**
   * Writes everything queued, flushes it (forcing it when an FSYNC_WAL waiter needs that),
   * publishes the new positions and rolls when due. Called with the write lock held.
   *
   * @throws IOException after which the log is failed
   */
  private void writeRound() throws IOException {
    if (failure != null) {
      return;
    }
    try {
      boolean force = fsyncRequested.get() > syncedTxid;
      ArrayList<Pending> batch;
      long batchTxid;
      lock.lock();
      try {
        batch = pending;
        pendingBytes = 0;
        pending = spare != null ? spare : new ArrayList<>();
        spare = null; // until this batch is written (after a failure nothing is reused)
        batchTxid = appendedTxid;
      } finally {
        lock.unlock();
      }
      for (Pending p : batch) {
        define(p);
        current.write(p.frame());
        currentRegions.merge(p.region(), p.lastSeq(), Math::max);
        currentEdits++;
      }
      FaultPoints.hit(FAULT_BEFORE_FLUSH);
      if (force) {
        current.sync();
        closer.awaitAll(); // entries of segments still being closed are covered too
      } else if (!batch.isEmpty()) {
        current.flush();
      }
      batch.clear();
      spare = batch;
      flushedTxid = batchTxid;
      if (force) {
        syncedTxid = batchTxid;
      }
      lastFlushNanos = clock.nanoTime();
      if (rollRequested
          || current.position() >= rollSize
          || clock.currentTimeMillis() - currentCreated >= rollPeriodMillis) {
        rollRequested = false;
        roll();
      }
    } catch (IOException | RuntimeException e) {
      LOG.error("WAL {} failed; no further writes will be acknowledged", dir, e);
      failure = e instanceof IOException ? (IOException) e : new IOException(e);
      throw failure;
    }
  }

  /** Writes the dictionary frames the current segment still lacks for an entry. */
  private void define(Pending p) throws IOException {
    if (!regionsDefined.get(p.regionId())) {
      current.write(WalFormat.regionFrame(p.regionId(), p.region(), p.table()));
      regionsDefined.set(p.regionId());
    }
    int[] ids = p.clusterIds();
    for (int i = 0; i < ids.length; i++) {
      if (!clustersDefined.get(ids[i])) {
        current.write(WalFormat.clusterFrame(ids[i], p.clusters().get(i)));
        clustersDefined.set(ids[i]);
      }
    }
  }

  /** Writes ASYNC_WAL entries within the flush interval and honours roll requests. */
  private void runFlusher() {
    long interval = TimeUnit.MILLISECONDS.toNanos(asyncFlushMillis);
    while (!closing && failure == null) {
      LockSupport.parkNanos(this, interval);
      boolean due = appendedTxid > flushedTxid && clock.nanoTime() - lastFlushNanos >= interval;
      if ((due || rollRequested) && !closing) {
        writeLock.lock();
        try {
          writeRound();
        } catch (IOException e) {
          // recorded in failure; waiters are woken below
        } finally {
          writeLock.unlock();
        }
        wakeWaiters();
      }
    }
  }

  /** Writes what is queued, closes the current segment cleanly and stops the flusher. */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closing) {
        return;
      }
      closing = true; // appends are refused from now on
    } finally {
      lock.unlock();
    }
    LockSupport.unpark(flusher);
    try {
      flusher.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted closing the WAL");
    }
    writeLock.lock();
    try {
      if (failure == null) {
        writeRound();
        closer.awaitAll();
        closeSegment();
      }
    } finally {
      writeLock.unlock();
      closer.shutdown();
      wakeWaiters();
    }
    IOException f = failure;
    if (f != null) {
      throw new IOException("WAL " + dir + " failed: " + f.getMessage(), f);
    }
  }
}
