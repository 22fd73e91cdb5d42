package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.region.OperationStatus;
import dev.basalt.region.RegionClosedException;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.List;

/**
 * Reads and writes one table (HBase's {@code Table}, same method names). Each call routes its row
 * to the region holding it; scans walk the regions in order ({@link TableScanner}); batches are
 * split by region ({@link TableBatch}). A call that meets a region being replaced by a table change
 * waits for the change and routes again, so callers do not see the change.
 *
 * <p>Each call finds the table anew, so a handle of a deleted table fails with {@link
 * TableNotFoundException} and one of a disabled table with {@link TableNotEnabledException}.
 * Thread-safe.
 */
public final class Table {
  private final Database db;
  private final TableName name;

  Table(Database db, TableName name) {
    this.db = db;
    this.name = name;
  }

  public TableName getName() {
    return name;
  }

  public TableDescriptor getDescriptor() throws IOException {
    return db.getDescriptor(name);
  }

  /** A call on the region of one row. */
  @FunctionalInterface
  private interface RegionCall<T> {
    T call(ServedRegion region) throws IOException;
  }

  private <T> T onRow(byte[] row, RegionCall<T> call) throws IOException {
    db.checkOpen();
    LiveTables tables = db.liveTables();
    long deadline = 0;
    while (true) {
      LiveTable t = tables.requireEnabled(name);
      ServedRegion r = t.regions().locate(row == null ? Bytes.EMPTY : row);
      try {
        return call.call(r);
      } catch (RegionClosedException e) {
        if (deadline == 0) {
          deadline = tables.deadline();
        }
        tables.awaitChange(t, r, e, deadline);
      }
    }
  }

  public Result get(Get get) throws IOException {
    return onRow(get.getRow(), r -> r.region().get(get));
  }

  /** Reads several rows; one Result per Get, in order. */
  public Result[] get(List<Get> gets) throws IOException {
    Result[] out = new Result[gets.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = get(gets.get(i));
    }
    return out;
  }

  public boolean exists(Get get) throws IOException {
    Get g = new Get(get.getRow());
    get.getFamilyMap()
        .forEach(
            (f, qs) -> {
              if (qs == null) {
                g.addFamily(f);
              } else {
                qs.forEach(q -> g.addColumn(f, q));
              }
            });
    g.setTimeRange(get.getTimeRange().getMin(), get.getTimeRange().getMax());
    g.setCheckExistenceOnly(true);
    return get(g).getExists();
  }

  /** Whether each Get finds anything, in order. */
  public boolean[] exists(List<Get> gets) throws IOException {
    boolean[] out = new boolean[gets.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = exists(gets.get(i));
    }
    return out;
  }

  public void put(Put put) throws IOException {
    onRow(
        put.getRow(),
        r -> {
          r.region().put(put);
          return null;
        });
  }

  /** Applies every Put; throws the first failure after all were attempted. */
  public void put(List<Put> puts) throws IOException {
    throwFirstFailure(batch(puts));
  }

  public void delete(Delete delete) throws IOException {
    onRow(
        delete.getRow(),
        r -> {
          r.region().delete(delete);
          return null;
        });
  }

  /** Applies every Delete; throws the first failure after all were attempted. */
  public void delete(List<Delete> deletes) throws IOException {
    throwFirstFailure(batch(deletes));
  }

  public Result increment(Increment increment) throws IOException {
    return onRow(increment.getRow(), r -> r.region().increment(increment));
  }

  /** Adds {@code amount} to one counter and returns its new value. */
  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount)
      throws IOException {
    Result r = increment(new Increment(row).addColumn(family, qualifier, amount));
    return Bytes.toLong(r.getValue(family, qualifier));
  }

  public Result append(Append append) throws IOException {
    return onRow(append.getRow(), r -> r.region().append(append));
  }

  public CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException {
    return onRow(checkAndMutate.getRow(), r -> r.region().checkAndMutate(checkAndMutate));
  }

  /**
   * Applies the mutations of one row atomically, in order; returns the cells its increments and
   * appends return (empty when there are none).
   */
  public Result mutateRow(RowMutations mutations) throws IOException {
    return onRow(
        mutations.getRow(),
        r -> {
          return r.region().mutateRow(mutations);
        });
  }

  /**
   * Applies mutations (Put, Delete, Increment, Append, RowMutations, CheckAndMutate), each atomic
   * on its own row; one status per operation, in order. Operations on one row apply in the given
   * order; operations on different regions are not atomic together.
   *
   * @throws TableNotFoundException, TableNotEnabledException when nothing could be applied
   */
  public List<OperationStatus> batch(List<? extends Row> ops) throws IOException {
    db.checkOpen();
    return TableBatch.apply(db.liveTables(), name, ops);
  }

  /** Scans rows across all regions of the table, in order (reversed scans: descending). */
  public ResultScanner getScanner(Scan scan) throws IOException {
    db.checkOpen();
    return new TableScanner(db.liveTables(), name, scan);
  }

  /** Scans one family. */
  public ResultScanner getScanner(byte[] family) throws IOException {
    return getScanner(new Scan().addFamily(family));
  }

  /** Scans one column. */
  public ResultScanner getScanner(byte[] family, byte[] qualifier) throws IOException {
    return getScanner(new Scan().addColumn(family, qualifier));
  }

  private static void throwFirstFailure(List<OperationStatus> statuses) throws IOException {
    for (OperationStatus s : statuses) {
      if (!s.isSuccess()) {
        throw s.getException();
      }
    }
  }

  @Override
  public String toString() {
    return "Table(" + name + ")";
  }
}
