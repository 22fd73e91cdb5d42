package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.compaction.CompactionSettings;
import dev.basalt.fs.Storage;
import dev.basalt.memstore.Memstore;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.IsolationLevel;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.NoWait;
import dev.basalt.util.config.Config;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A contiguous range of a table's rows with one store per column family: the unit that serves reads
 * and writes atomically per row.
 *
 * <p>Writes: validate, lock the rows (sorted, with a timeout), apply each operation in order
 * ({@link RowMutator}), sync the edit log, advance MVCC, release the locks, answer. Every row
 * mutation is atomic and isolated: readers see all of it or none of it. Reads take the MVCC read
 * point when they start and see exactly what was committed before.
 *
 * <p>Thread-safe: any number of concurrent readers and writers.
 */
public final class Region implements Closeable {
  /** Fault point: a batch holds its row locks and has applied nothing yet. */
  public static final String FAULT_ROWS_LOCKED = "region.batch.rowsLocked";

  /** Fault point: a batch's edits are in the memstore but not yet durable or visible. */
  public static final String FAULT_BEFORE_COMMIT = "region.batch.beforeCommit";

  /**
   * Fault point: a batch's edits are durable and visible, and its caller has not been answered (a
   * crash here is the one a client's nonce protects a retried increment against).
   */
  public static final String FAULT_AFTER_COMMIT = "region.batch.afterCommit";

  private final RegionInfo info;
  private final TableDescriptor table;
  private final RegionServices services;
  private final NavigableMap<byte[], Store> stores = new TreeMap<>(Bytes.COMPARATOR);
  private final Store[] storeArray;
  private final Mvcc mvcc;
  private final RowLocks rowLocks = new RowLocks();
  private final MutationValidator validator;
  private final RowMutator mutator = new RowMutator(this);
  private final long rowLockWaitMillis;
  private final long flushSize;
  private final long deepVersionsFlush;
  private final double scannedMemstoreFlush;
  private final RowCache rowCache; // null without one, or when the table has a TTL
  private final long rowCacheId = RowCache.newRegionId();
  private final long blockingWaitMillis;
  private final RegionFlusher flusher = new RegionFlusher(this);
  private final RegionCompactor compactor;
  private final ConcurrentHashMap<Object, Long> explicitReadPoints = new ConcurrentHashMap<>();
  private final LongAdder readRequests = new LongAdder();

  /** Rows returned by scanners (gets are counted in readRequests). */
  private final LongAdder scannedRows = new LongAdder();

  /** Cells returned by scanners. */
  private final LongAdder scannedCells = new LongAdder();

  /** {@link #scannedRows} and {@link #scannedCells} when the memstores were last set aside. */
  private volatile long scannedRowsAtFlush;

  private volatile long scannedCellsAtFlush;

  private final LongAdder writeRequests = new LongAdder();

  /** Held shared by every operation, exclusively by close and by a flush while it snapshots. */
  private final ReentrantReadWriteLock closeLock = new ReentrantReadWriteLock();

  private volatile boolean closed;
  private volatile IOException failure;

  /**
   * An in-memory region (no store files: it cannot flush).
   *
   * @param lastSequenceId the highest sequence id already used by this region's data
   */
  public Region(
      RegionInfo info, TableDescriptor table, RegionServices services, long lastSequenceId) {
    this(info, table, services, inMemoryStores(table), lastSequenceId);
  }

  private Region(
      RegionInfo info,
      TableDescriptor table,
      RegionServices services,
      List<Store> storeList,
      long lastSequenceId) {
    if (!info.getTable().equals(table.getTableName())) {
      throw new IllegalArgumentException(
          "region "
              + info.getEncodedName()
              + " belongs to "
              + info.getTable()
              + ", not "
              + table.getTableName());
    }
    this.info = info;
    this.table = table;
    this.services = services;
    for (Store s : storeList) {
      stores.put(s.familyName(), s);
    }
    this.storeArray = stores.values().toArray(new Store[0]);
    long persisted = 0;
    for (Store s : storeArray) {
      persisted = Math.max(persisted, s.persistedSequenceId());
    }
    this.mvcc = new Mvcc(Math.max(lastSequenceId, persisted));
    Config config = services.config();
    this.validator = new MutationValidator(info, table, config.get(RegionSettings.MAX_CELL_SIZE));
    this.rowLockWaitMillis = config.get(RegionSettings.ROW_LOCK_WAIT);
    this.flushSize =
        table.getMemStoreFlushSize() > 0
            ? table.getMemStoreFlushSize()
            : config.get(RegionSettings.FLUSH_SIZE);
    this.deepVersionsFlush = config.get(RegionSettings.DEEP_VERSIONS_FLUSH);
    this.scannedMemstoreFlush = config.get(RegionSettings.SCANNED_MEMSTORE_FLUSH);
    // Rows of a table with a TTL change with time alone, which the cache cannot see.
    this.rowCache =
        table.getColumnFamilies().stream()
                .allMatch(f -> f.getTimeToLive() == ColumnFamilyDescriptor.FOREVER)
            ? services.rowCache()
            : null;
    this.blockingWaitMillis = config.get(CompactionSettings.BLOCKING_WAIT);
    this.compactor = new RegionCompactor(this, config);
    flusher.resetLastFlushTime(services.clock().currentTimeMillis());
  }

  private static List<Store> inMemoryStores(TableDescriptor table) {
    List<Store> out = new ArrayList<>();
    for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
      out.add(new Store(f, null, List.of()));
    }
    return out;
  }

  /**
   * Opens a region whose store files live under {@code regionDir} (one directory per family);
   * compacted-away files are moved under {@code archiveDir}. The caller replays the WAL next.
   */
  public static Region open(
      RegionInfo info,
      TableDescriptor table,
      RegionServices services,
      Storage storage,
      String regionDir,
      String archiveDir)
      throws IOException {
    return open(info, table, services, storage, regionDir, archiveDir, 0);
  }

  /**
   * Opens a region as {@link #open(RegionInfo, TableDescriptor, RegionServices, Storage, String,
   * String)} does, whose sequence ids continue after {@code lastSequenceId} even when its store
   * files hold lower ones (a dropped family's edits had higher ones: they must stay below any new
   * edit, so that a replay floor at that id skips them and nothing else).
   */
  public static Region open(
      RegionInfo info,
      TableDescriptor table,
      RegionServices services,
      Storage storage,
      String regionDir,
      String archiveDir,
      long lastSequenceId)
      throws IOException {
    List<Store> storeList = new ArrayList<>();
    try {
      for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
        String fam = f.getNameAsString();
        StoreFiles files =
            new StoreFiles(
                storage,
                regionDir + "/" + fam,
                archiveDir + "/" + fam,
                services.blockCache(),
                f,
                services.clock());
        storeList.add(new Store(f, files, files.openAll()));
      }
    } catch (IOException | RuntimeException e) {
      storeList.forEach(Store::close);
      throw e;
    }
    return new Region(info, table, services, storeList, lastSequenceId);
  }

  /** A fresh in-memory region covering the whole key space of the table. */
  public static Region inMemory(TableDescriptor table, RegionServices services) {
    RegionInfo info =
        RegionInfo.of(
            table.getTableName(), Bytes.EMPTY, Bytes.EMPTY, services.clock().currentTimeMillis());
    return new Region(info, table, services, 0);
  }

  public RegionInfo getRegionInfo() {
    return info;
  }

  public TableDescriptor getTableDescriptor() {
    return table;
  }

  RegionServices services() {
    return services;
  }

  Mvcc mvcc() {
    return mvcc;
  }

  /** The highest sequence id visible to a reader starting now. */
  public long getReadPoint() {
    return mvcc.readPoint();
  }

  /**
   * Reads served since the region opened, counted as HBase's region server counts them: one per
   * Get, and one per row a scanner returns (however many slices it is cut into).
   */
  public long getReadRequestCount() {
    return readRequests.sum() + scannedRows.sum();
  }

  /** Mutations taken since the region opened: one per operation of every batch. */
  public long getWriteRequestCount() {
    return writeRequests.sum();
  }

  public long getMemstoreSize() {
    long n = 0;
    for (Store s : storeArray) {
      n += s.memstoreSize();
    }
    return n;
  }

  /** Store files of every family. */
  public int getStoreFileCount() {
    int n = 0;
    for (Store s : storeArray) {
      n += s.fileCount();
    }
    return n;
  }

  /** Bytes of store files of every family. */
  public long getStoreFileSize() {
    long n = 0;
    for (Store s : storeArray) {
      for (StoreFile f : s.view().files()) {
        n += f.info().fileSize();
      }
    }
    return n;
  }

  /**
   * Data blocks the region's current store files have read from storage (not from the block cache)
   * since they were opened.
   */
  public long getDataBlocksReadFromStorage() {
    long n = 0;
    for (Store s : storeArray) {
      for (StoreFile f : s.view().files()) {
        n += f.reader().dataBlocksReadFromStorage();
      }
    }
    return n;
  }

  /**
   * The highest sequence id whose edits of {@code family} are all in store files (replay of the log
   * skips those).
   */
  public long getPersistedSequenceId(byte[] family) {
    Store s = stores.get(family);
    return s == null ? 0 : s.persistedSequenceId();
  }

  List<Store> storeList() {
    return List.of(storeArray);
  }

  /** Lowest read point a reader of this region may still open store scanners at. */
  long smallestReadPoint() {
    long min = mvcc.readPoint();
    for (long rp : explicitReadPoints.values()) {
      min = Math.min(min, rp);
    }
    return min;
  }

  void lockForFlush() {
    closeLock.writeLock().lock();
  }

  void unlockForFlush() {
    closeLock.writeLock().unlock();
  }

  // ---- flush and compaction ---------------------------------------------------------------

  /**
   * Writes the memstores out as store files.
   *
   * @return true when anything was written
   * @throws IllegalStateException for an in-memory region
   */
  public boolean flush() throws IOException {
    requireStorage("flush");
    return flusher.flush();
  }

  /**
   * Compacts stores that need it (minor), or every file of every store (major).
   *
   * @return true when any store was rewritten
   */
  public boolean compact(boolean major) throws IOException {
    requireStorage("compact");
    return compactor.compact(major);
  }

  /**
   * Whether a periodic major compaction is due: some store has more than one file, or one not yet
   * major-compacted, and its oldest file is older than the period, spread by a jitter fixed per
   * store so that stores do not all compact at once.
   */
  public boolean majorCompactionDue(long now, long periodMillis, double jitter) {
    for (Store s : storeArray) {
      List<StoreFile> files = s.view().files();
      if (files.isEmpty() || (files.size() == 1 && files.get(0).info().majorCompacted())) {
        continue;
      }
      long oldest = Long.MAX_VALUE;
      for (StoreFile f : files) {
        oldest = Math.min(oldest, f.info().creationTime());
      }
      int h = (info.getEncodedName() + s.family().getNameAsString()).hashCode();
      double spread = jitter * ((h & 0xffff) / 32767.5 - 1.0);
      if (now - oldest >= (long) (periodMillis * (1.0 + spread))) {
        return true;
      }
    }
    return false;
  }

  /** Whether a minor compaction would find work. */
  public boolean needsCompaction() {
    return compactor.needsCompaction();
  }

  /** Whether some store has more files than writes tolerate (hbase.hstore.blockingStoreFiles). */
  public boolean hasTooManyStoreFiles() {
    return compactor.tooManyFiles();
  }

  /** Wall-clock time of the last flush (or of opening), for periodic flushes. */
  public long getLastFlushTime() {
    return flusher.lastFlushTime();
  }

  /**
   * Whether the memstores passed the flush size or, while scanners read the region, hold so many
   * versions stacked on the same columns ({@link RegionSettings#DEEP_VERSIONS_FLUSH}) or were
   * scanned so often ({@link RegionSettings#SCANNED_MEMSTORE_FLUSH}) that scans would be faster
   * from a file.
   */
  public boolean needsFlush() {
    long active = 0;
    long deep = 0;
    for (Store s : storeArray) {
      Memstore m = s.view().active();
      active += m.heapSize();
      deep += m.deepInserts();
    }
    if (active >= flushSize) {
      return true;
    }
    if (active < flushSize / 16
        || scannedRows.sum() - scannedRowsAtFlush < RegionSettings.DEEP_FLUSH_SCANNED_ROWS) {
      return false;
    }
    return (deepVersionsFlush > 0 && deep >= deepVersionsFlush)
        || (scannedMemstoreFlush > 0
            && scannedCells.sum() - scannedCellsAtFlush >= scannedMemstoreFlush * cellsHeld());
  }

  /**
   * Cells in the memstores and files: scans that read the region evenly read the memstores' share
   * of them. Counted only once the cheaper tests of {@link #needsFlush} passed (it runs after every
   * write).
   */
  private long cellsHeld() {
    long cells = 0;
    for (Store s : storeArray) {
      Store.View v = s.view();
      cells += v.active().cellCount();
      for (StoreFile f : v.files()) {
        cells += f.info().cellCount();
      }
    }
    return cells;
  }

  /**
   * What this region's reads return changed without a write (a major compaction of a classic
   * family): rows cached before no longer hold.
   */
  void readsChangedWithoutAWrite() {
    if (rowCache != null) {
      rowCache.dropRegion(rowCacheId);
    }
  }

  /** Called by the flusher as it sets the memstores aside: scans are counted afresh from here. */
  void memstoresSetAside() {
    scannedRowsAtFlush = scannedRows.sum();
    scannedCellsAtFlush = scannedCells.sum();
  }

  /** A counted scanner returned the first part of a row ({@code newRow}) or a later one. */
  void scanned(boolean newRow, int cells) {
    if (newRow) {
      scannedRows.increment();
    }
    scannedCells.add(cells);
  }

  /**
   * A counted scanner that returned rows closed: a region that only scans read gets no write to
   * check its flush rules after, so the check is made here too.
   */
  void scannerClosed() {
    if (scannedMemstoreFlush > 0 && !closed && needsFlush()) {
      services.maintenance().requestFlush(this);
    }
  }

  private void requireStorage(String what) {
    if (!storeArray[0].hasStorage()) {
      throw new IllegalStateException("an in-memory region cannot " + what);
    }
  }

  // ---- reads ------------------------------------------------------------------------------

  /**
   * Reads one row. A get changes nothing, so a thread that must not wait is refused (see {@link
   * NoWait#beginReadOnly}) before it reads a block from storage.
   */
  public Result get(Get get) throws IOException {
    startOperation();
    int noWait = NoWait.beginReadOnly();
    try {
      validator.checkRow(get.getRow(), "Get");
      validator.checkQuery(get);
      Result r;
      if (rowCache != null && readsWholeLatestRow(get)) {
        r = cachedGet(get);
      } else {
        long readPoint =
            get.getIsolationLevel() == IsolationLevel.READ_UNCOMMITTED
                ? Long.MAX_VALUE
                : mvcc.readPoint();
        r = read(get, readPoint);
      }
      readRequests.increment(); // once per get, not per attempt
      return r;
    } finally {
      NoWait.endReadOnly(noWait);
      endOperation();
    }
  }

  /** A get the row cache can answer: the latest version of every column of the row. */
  private Result cachedGet(Get get) throws IOException {
    RowCache.Key key = RowCache.Key.of(rowCacheId, get.getRow());
    Result r = rowCache.get(key);
    if (r == null) {
      long token = rowCache.startRead(key); // before the read point is taken
      r = read(get.isCheckExistenceOnly() ? new Get(get.getRow()) : get, mvcc.readPoint());
      rowCache.offer(key, token, r);
    }
    return get.isCheckExistenceOnly() ? Result.ofExists(!r.isEmpty()) : r;
  }

  /**
   * Whether a get asks for exactly what the row cache holds: every family (none named, or all named
   * whole), one version, all of time, no filter or per-family limits, committed data only.
   */
  private boolean readsWholeLatestRow(Get get) {
    if (get.getFilter() != null
        || get.getMaxVersions() != 1
        || !get.getTimeRange().isAllTime()
        || !get.getColumnFamilyTimeRange().isEmpty()
        || get.getMaxResultsPerColumnFamily() >= 0
        || get.getRowOffsetPerColumnFamily() > 0
        || get.getIsolationLevel() == IsolationLevel.READ_UNCOMMITTED) {
      return false;
    }
    Map<byte[], NavigableSet<byte[]>> families = get.getFamilyMap();
    if (families.isEmpty()) {
      return true;
    }
    if (families.size() != storeArray.length) {
      return false;
    }
    for (NavigableSet<byte[]> columns : families.values()) {
      if (columns != null && !columns.isEmpty()) {
        return false;
      }
    }
    return true; // the validator checked that each named family exists
  }

  /** Reads the row a writer holds locked: its committed state plus the writer's own edits. */
  Result readLocked(Get get) throws IOException {
    return read(get, Long.MAX_VALUE);
  }

  private Result read(Get get, long readPoint) throws IOException {
    try (RegionScannerImpl s = new RegionScannerImpl(this, new Scan(get), readPoint, null)) {
      Result r = s.next();
      if (get.isCheckExistenceOnly()) {
        return Result.ofExists(r != null && !r.isEmpty());
      }
      return r == null ? Result.EMPTY : r;
    }
  }

  /** Opens a scanner over this region's part of the scan's row range. */
  public RegionScanner getScanner(Scan scan) throws IOException {
    startOperation();
    try {
      validator.checkQuery(scan);
      long readPoint;
      if (scan.getMvccReadPoint() > 0) {
        readPoint = scan.getMvccReadPoint();
      } else if (scan.getIsolationLevel() == IsolationLevel.READ_UNCOMMITTED) {
        readPoint = Long.MAX_VALUE;
      } else {
        readPoint = mvcc.readPoint();
      }
      if (scan.getMvccReadPoint() > 0) {
        // An older read point: compactions must keep what it can see (see smallestReadPoint).
        Object token = new Object();
        explicitReadPoints.put(token, readPoint);
        try {
          return new RegionScannerImpl(
                  this, scan, readPoint, () -> explicitReadPoints.remove(token))
              .countReadsIn(this);
        } catch (IOException | RuntimeException e) {
          explicitReadPoints.remove(token);
          throw e;
        }
      }
      return new RegionScannerImpl(this, scan, readPoint, null).countReadsIn(this);
    } finally {
      endOperation();
    }
  }

  /**
   * Holds the region as it is now (read point, clock, memstores and store files) until the pin is
   * closed, so that a scanner opened later at the pin ({@link #getScanner(Scan, ReadPointPin)})
   * sees the region as it was now, whatever flushes and compactions happen meanwhile (a table scan
   * pins every region it will visit when it starts).
   */
  public ReadPointPin pinReadPoint() throws RegionClosedException {
    startOperation();
    try {
      // The views' files stay as they are while referenced, so compactions need not know the read
      // point (as for any open scanner).
      Map<Store, Store.View> views = new HashMap<>();
      for (Store s : storeArray) {
        views.put(s, s.pin());
      }
      return new ReadPointPin(this, mvcc.readPoint(), services.clock().currentTimeMillis(), views);
    } finally {
      endOperation();
    }
  }

  /**
   * Opens a scanner of the region as the pin holds it: its store contents at its read point, TTLs
   * judged at its clock reading (the scanner takes its own references; the pin may be closed once
   * this returns). A scan that sets its own read point or reads uncommitted data, or a pin of
   * another region (or of an earlier opening of this one), is read as of now instead.
   */
  public RegionScanner getScanner(Scan scan, ReadPointPin pin) throws IOException {
    if (pin.region() != this
        || scan.getMvccReadPoint() > 0
        || scan.getIsolationLevel() == IsolationLevel.READ_UNCOMMITTED) {
      return getScanner(scan);
    }
    startOperation();
    try {
      validator.checkQuery(scan);
      return new RegionScannerImpl(this, scan, pin, null).countReadsIn(this);
    } finally {
      endOperation();
    }
  }

  /** The stores a read covers, in family order. */
  List<Store> storesFor(Scan scan) {
    if (!scan.hasFamilies()) {
      return new ArrayList<>(stores.values());
    }
    List<Store> out = new ArrayList<>();
    for (byte[] f : scan.getFamilyMap().keySet()) {
      out.add(stores.get(f));
    }
    return out;
  }

  // ---- writes -----------------------------------------------------------------------------

  public void put(Put put) throws IOException {
    single(put);
  }

  public void delete(Delete delete) throws IOException {
    single(delete);
  }

  /** Adds to counters atomically; returns the new values (unless the Increment declines them). */
  public Result increment(Increment increment) throws IOException {
    return single(increment).getResult();
  }

  public Result append(Append append) throws IOException {
    return single(append).getResult();
  }

  /**
   * Applies the mutations of one row atomically, in order.
   *
   * @return the cells the increments and appends among them return, together (empty when there are
   *     none)
   */
  public Result mutateRow(RowMutations mutations) throws IOException {
    return single(mutations).getResult();
  }

  /** See {@link MutationValidator#checkFamilies}; called under the row lock. */
  void checkFamilies(Row action) throws NoSuchColumnFamilyException {
    validator.checkFamilies(action);
  }

  public CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException {
    return single(checkAndMutate).getCheckAndMutateResult();
  }

  private OperationStatus single(Row op) throws IOException {
    OperationStatus s = batchMutate(Collections.singletonList(op)).get(0);
    if (!s.isSuccess()) {
      throw s.getException();
    }
    return s;
  }

  /**
   * Applies a batch of operations (Put, Delete, Increment, Append, RowMutations, CheckAndMutate),
   * each atomic on its own row, in the given order. One operation failing does not stop the others;
   * its status says why.
   *
   * @throws IOException only when the region itself cannot take writes (closed, or its edit log
   *     failed); per-operation problems are reported in the statuses
   */
  public List<OperationStatus> batchMutate(List<? extends Row> ops) throws IOException {
    services.maintenance().beforeWrite(this);
    waitWhileTooManyFiles();
    startOperation();
    try {
      writeRequests.add(ops.size());
      OperationStatus[] statuses = new OperationStatus[ops.size()];
      TreeSet<byte[]> rows = new TreeSet<>(Bytes.COMPARATOR);
      for (int i = 0; i < ops.size(); i++) {
        try {
          validator.check(ops.get(i));
          rows.add(ops.get(i).getRow());
        } catch (BasaltIOException e) {
          statuses[i] = OperationStatus.failure(e);
        }
      }
      Commit visible = null; // once the batch's edits are visible
      List<RowLocks.RowLock> held = new ArrayList<>(rows.size());
      List<RowCache.Key> cached = rowCache == null ? List.of() : new ArrayList<>(rows.size());
      TreeMap<byte[], IOException> lockFailures = new TreeMap<>(Bytes.COMPARATOR);
      try {
        for (byte[] row : rows) {
          try {
            held.add(rowLocks.lock(row, rowLockWaitMillis, info.getEncodedName()));
            if (rowCache != null) {
              RowCache.Key key = RowCache.Key.of(rowCacheId, row);
              rowCache.beginWrite(key);
              cached.add(key);
            }
          } catch (RowLockTimeoutException e) {
            lockFailures.put(row, e);
          }
        }
        FaultPoints.hit(FAULT_ROWS_LOCKED);
        Commit commit = new Commit(rowCache != null); // the cache applies the cells
        for (int i = 0; i < ops.size(); i++) {
          if (statuses[i] != null) {
            continue;
          }
          IOException lockFailure = lockFailures.get(ops.get(i).getRow());
          if (lockFailure != null) {
            statuses[i] = OperationStatus.failure(lockFailure);
            continue;
          }
          try {
            statuses[i] = mutator.apply(ops.get(i), commit);
          } catch (BasaltIOException e) {
            statuses[i] = OperationStatus.failure(e);
          }
        }
        FaultPoints.hit(FAULT_BEFORE_COMMIT);
        try {
          commit.finish(mvcc, services.editLog());
          visible = commit;
          FaultPoints.hit(FAULT_AFTER_COMMIT);
        } catch (IOException e) {
          // The edits are in memory but not durable: stop taking writes rather than expose them.
          failure = e;
          throw new RegionClosedException(
              "region "
                  + info.getEncodedName()
                  + " stopped: its edit log failed: "
                  + e.getMessage());
        }
      } finally {
        // The edits are visible (or abandoned): the cache may serve these rows again.
        if (!cached.isEmpty()) {
          endCachedWrites(cached, visible);
        }
        for (RowLocks.RowLock l : held) {
          l.close();
        }
      }
      List<OperationStatus> out = new ArrayList<>(statuses.length);
      Collections.addAll(out, statuses);
      if (needsFlush()) {
        services.maintenance().requestFlush(this);
      }
      return out;
    } finally {
      endOperation();
    }
  }

  /**
   * Ends the row cache's writes of a batch: each cached row is brought up to date with the batch's
   * cells of that row, or dropped when the batch did not become visible or wrote cells the cache
   * cannot apply (see {@link RowCache#endWrite}).
   */
  private void endCachedWrites(List<RowCache.Key> keys, Commit visible) {
    List<KeyValue> written = visible == null ? null : visible.written();
    Map<byte[], List<KeyValue>> byRow =
        written == null || keys.size() == 1 ? null : cellsByRow(written);
    for (RowCache.Key key : keys) {
      List<KeyValue> cells = byRow == null ? written : byRow.getOrDefault(key.row(), List.of());
      rowCache.endWrite(key, cells != null && appliesToCache(key, cells) ? cells : null);
    }
  }

  /** A batch's cells by row; the cells of one operation are consecutive and share their row. */
  private static Map<byte[], List<KeyValue>> cellsByRow(List<KeyValue> cells) {
    TreeMap<byte[], List<KeyValue>> byRow = new TreeMap<>(Bytes.COMPARATOR);
    List<KeyValue> run = null;
    for (int i = 0; i < cells.size(); i++) {
      KeyValue kv = cells.get(i);
      if (run == null || !CellUtil.matchingRows(cells.get(i - 1), kv)) {
        run = byRow.computeIfAbsent(CellUtil.cloneRow(kv), r -> new ArrayList<>());
      }
      run.add(kv);
    }
    return byRow;
  }

  /**
   * Whether the cells are all puts without a per-cell TTL of the key's row in families with
   * deterministic history. (A cell with a TTL must not be cached: once it expires the cache would
   * still serve it, and with several versions kept the one under it shows, which the cache does not
   * hold.)
   */
  private boolean appliesToCache(RowCache.Key key, List<KeyValue> cells) {
    byte[] row = key.row();
    for (KeyValue kv : cells) {
      if (kv.getTypeByte() != CellType.PUT.code()
          || kv.getTtl() != KeyValue.NO_TTL
          || !CellUtil.matchingRow(kv, row)
          || !storeOf(kv).family().isNewVersionBehavior()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Holds writes while a store has more files than writes tolerate, so that compactions catch up
   * before reads slow down further.
   *
   * @throws RegionTooBusyException when compactions did not catch up in time
   */
  private void waitWhileTooManyFiles() throws IOException {
    MaintenanceRequests maintenance = services.maintenance();
    if (!compactor.tooManyFiles() || !maintenance.compactionsEnabled()) {
      return;
    }
    maintenance.requestCompaction(this);
    NoWait.beforeWaiting("compactions of region " + info.getEncodedName());
    long deadline = services.clock().nanoTime() + blockingWaitMillis * 1_000_000L;
    // A region closed meanwhile (split, merged, moved) has no files: the loop ends and
    // startOperation answers RegionClosedException, which the caller retries where the row went.
    for (int round = 1; compactor.tooManyFiles() && maintenance.compactionsEnabled(); round++) {
      if (services.clock().nanoTime() >= deadline) {
        throw new RegionTooBusyException(
            "region "
                + info.getEncodedName()
                + " has a store with more than "
                + services.config().get(CompactionSettings.BLOCKING_FILES)
                + " files and compactions did not catch up within "
                + blockingWaitMillis
                + " ms (hbase.hstore.blockingWaitTime); retry later");
      }
      try {
        Thread.sleep(20);
        if (round % 50 == 0) {
          // Again, now and then: a compaction that failed is not retried by itself.
          maintenance.requestCompaction(this);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for compactions");
      }
    }
  }

  /**
   * Adds recovered cells (each carrying its original sequence id) straight to the memstores,
   * skipping those already in their store's files, and moves the sequence past them. Only for
   * recovery, before the region serves: the cells were logged and validated when first written.
   *
   * @return how many cells were not yet persisted and were applied
   */
  public int replay(List<KeyValue> cells) {
    long max = 0;
    int applied = 0;
    for (KeyValue kv : cells) {
      Store s = storeOf(kv);
      max = Math.max(max, kv.getSequenceId());
      if (kv.getSequenceId() > s.persistedSequenceId()) {
        s.add(kv);
        applied++;
      }
    }
    mvcc.advanceTo(max);
    return applied;
  }

  /** The highest sequence id used so far. */
  public long getLastSequenceId() {
    return mvcc.writePoint();
  }

  Durability effectiveDurability(Durability d) {
    if (d != Durability.USE_DEFAULT) {
      return d;
    }
    Durability t = table.getDurability();
    return t == Durability.USE_DEFAULT ? Durability.SYNC_WAL : t;
  }

  /** Adds a copy of a cell with the given sequence id and timestamp; returns the copy as stored. */
  KeyValue insert(KeyValue kv, long seq, long timestamp) {
    return storeOf(kv).add(kv, seq, timestamp);
  }

  void rollback(KeyValue kv) {
    storeOf(kv).rollback(kv);
  }

  /** The store of a cell's family, found without allocating (tables have few families). */
  private Store storeOf(KeyValue kv) {
    for (Store s : storeArray) {
      byte[] f = s.familyName();
      if (Bytes.equals(
          f, 0, f.length, kv.getFamilyArray(), kv.getFamilyOffset(), kv.getFamilyLength())) {
        return s;
      }
    }
    throw new IllegalStateException("no store for cell " + kv); // validated before
  }

  // ---- lifecycle --------------------------------------------------------------------------

  private void startOperation() throws RegionClosedException {
    if (!closeLock.readLock().tryLock()) {
      // A flush is taking its snapshot or the region is closing.
      NoWait.beforeWaiting("region " + info.getEncodedName() + " to finish a flush or close");
      closeLock.readLock().lock();
    }
    if (closed || failure != null) {
      closeLock.readLock().unlock();
      throw new RegionClosedException(
          "region "
              + info.getEncodedName()
              + (failure != null ? " failed: " + failure.getMessage() : " is closed"));
    }
  }

  private void endOperation() {
    closeLock.readLock().unlock();
  }

  /**
   * Closes the region after a final flush ({@link #close(boolean)}) and returns the names of each
   * family's store files at that moment, by family name: the files a split's daughters or a merge's
   * new region refer to.
   */
  public Map<String, List<String>> closeForHandOver() throws IOException {
    Map<String, List<String>> files = new TreeMap<>();
    closeInternal(true, files);
    return files;
  }

  /** Whether some store still reads files of the region this one was split or merged from. */
  public boolean hasReferences() {
    for (Store s : storeArray) {
      if (RegionCompactor.hasReferences(s)) {
        return true;
      }
    }
    return false;
  }

  /** Waits for running operations, flushes and compactions, then refuses new ones. */
  @Override
  public void close() {
    try {
      close(false);
    } catch (IOException e) {
      throw new IllegalStateException("a close without a flush cannot fail", e);
    }
  }

  /**
   * Closes the region as {@link #close()} does; with {@code flushFirst}, the memstores are flushed
   * while no operation runs, so that every edit the region acknowledged is in its store files when
   * it stops (disabling a table, changing its schema). Writes arriving meanwhile wait, then find
   * the region closed.
   *
   * @throws IOException when the flush fails; the region then stays open
   */
  public void close(boolean flushFirst) throws IOException {
    closeInternal(flushFirst, null);
  }

  private void closeInternal(boolean flushFirst, Map<String, List<String>> files)
      throws IOException {
    // Wait for a running flush and compaction first (same lock order as they use).
    synchronized (flusher.lock()) {
      synchronized (compactor.lock()) {
        closeLock.writeLock().lock();
        try {
          if (closed) {
            return;
          }
          if (flushFirst && storeArray[0].hasStorage() && failure == null) {
            flusher.flush(); // reentrant: this thread holds the flush and close locks
          }
          closed = true;
          for (Store s : storeArray) {
            if (files != null) {
              List<String> names = new ArrayList<>();
              for (StoreFile f : s.view().files()) {
                names.add(f.name());
              }
              files.put(s.family().getNameAsString(), names);
            }
            s.close();
          }
        } finally {
          closeLock.writeLock().unlock();
        }
      }
    }
  }

  public boolean isClosed() {
    return closed;
  }

  @Override
  public String toString() {
    return "Region" + info;
  }
}
