package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
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
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
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
  private final AtomicLong memstoreSize = new AtomicLong();
  private final ReentrantReadWriteLock closeLock = new ReentrantReadWriteLock();
  private volatile boolean closed;
  private volatile IOException failure;

  /**
   * Opens a region.
   *
   * @param lastSequenceId the highest sequence id already used by this region's data
   */
  public Region(
      RegionInfo info, TableDescriptor table, RegionServices services, long lastSequenceId) {
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
    for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
      stores.put(f.getName(), new Store(f));
    }
    this.storeArray = stores.values().toArray(new Store[0]);
    this.mvcc = new Mvcc(lastSequenceId);
    this.validator =
        new MutationValidator(info, table, services.config().get(RegionSettings.MAX_CELL_SIZE));
    this.rowLockWaitMillis = services.config().get(RegionSettings.ROW_LOCK_WAIT);
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

  /** Heap bytes held by this region's memstores. */
  public long getMemstoreSize() {
    return memstoreSize.get();
  }

  // ---- reads ------------------------------------------------------------------------------

  /** Reads one row. */
  public Result get(Get get) throws IOException {
    startOperation();
    try {
      validator.checkRow(get.getRow(), "Get");
      validator.checkQuery(get);
      long readPoint =
          get.getIsolationLevel() == IsolationLevel.READ_UNCOMMITTED
              ? Long.MAX_VALUE
              : mvcc.readPoint();
      return read(get, readPoint);
    } finally {
      endOperation();
    }
  }

  /** Reads the row a writer holds locked: its committed state plus the writer's own edits. */
  Result readLocked(Get get) throws IOException {
    return read(get, Long.MAX_VALUE);
  }

  private Result read(Get get, long readPoint) throws IOException {
    try (RegionScannerImpl s = new RegionScannerImpl(this, new Scan(get), readPoint)) {
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
      return new RegionScannerImpl(this, scan, readPoint);
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

  /** Applies the Puts and Deletes of one row atomically, in order. */
  public void mutateRow(RowMutations mutations) throws IOException {
    single(mutations);
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
    startOperation();
    try {
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
      List<RowLocks.RowLock> held = new ArrayList<>(rows.size());
      TreeMap<byte[], IOException> lockFailures = new TreeMap<>(Bytes.COMPARATOR);
      try {
        for (byte[] row : rows) {
          try {
            held.add(rowLocks.lock(row, rowLockWaitMillis, info.getEncodedName()));
          } catch (RowLockTimeoutException e) {
            lockFailures.put(row, e);
          }
        }
        FaultPoints.hit(FAULT_ROWS_LOCKED);
        Commit commit = new Commit();
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
        for (RowLocks.RowLock l : held) {
          l.close();
        }
      }
      List<OperationStatus> out = new ArrayList<>(statuses.length);
      Collections.addAll(out, statuses);
      return out;
    } finally {
      endOperation();
    }
  }

  /**
   * Adds recovered cells (each carrying its original sequence id) straight to the memstores and
   * moves the sequence past them. Only for recovery, before the region serves: the cells were
   * logged and validated when first written, and one call must hold whole edits.
   */
  public void replay(List<KeyValue> cells) {
    long max = 0;
    for (KeyValue kv : cells) {
      insert(kv);
      max = Math.max(max, kv.getSequenceId());
    }
    mvcc.advanceTo(max);
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

  void insert(KeyValue kv) {
    memstoreSize.addAndGet(storeOf(kv).add(kv));
  }

  void rollback(KeyValue kv) {
    memstoreSize.addAndGet(storeOf(kv).rollback(kv));
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
    closeLock.readLock().lock();
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

  /** Waits for running operations, then refuses new ones. */
  @Override
  public void close() {
    closeLock.writeLock().lock();
    try {
      closed = true;
    } finally {
      closeLock.writeLock().unlock();
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
