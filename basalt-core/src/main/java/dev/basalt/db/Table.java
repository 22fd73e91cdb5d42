package dev.basalt.db;

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
import dev.basalt.region.RegionScanner;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.List;

/**
 * Reads and writes one table (HBase's {@code Table}, same method names). Each call finds the table
 * anew, so a handle of a deleted table fails with {@link TableNotFoundException}. Thread-safe.
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

  public Result get(Get get) throws IOException {
    return db.region(name).get(get);
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
    return db.region(name).get(g).getExists();
  }

  public void put(Put put) throws IOException {
    db.region(name).put(put);
  }

  /** Applies every Put; throws the first failure after all were attempted. */
  public void put(List<Put> puts) throws IOException {
    throwFirstFailure(batch(puts));
  }

  public void delete(Delete delete) throws IOException {
    db.region(name).delete(delete);
  }

  public Result increment(Increment increment) throws IOException {
    return db.region(name).increment(increment);
  }

  public Result append(Append append) throws IOException {
    return db.region(name).append(append);
  }

  public CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException {
    return db.region(name).checkAndMutate(checkAndMutate);
  }

  public void mutateRow(RowMutations mutations) throws IOException {
    db.region(name).mutateRow(mutations);
  }

  /** Applies mutations, each atomic on its row; one status per operation, in order. */
  public List<OperationStatus> batch(List<? extends Row> ops) throws IOException {
    return db.region(name).batchMutate(ops);
  }

  public ResultScanner getScanner(Scan scan) throws IOException {
    RegionScanner s = db.region(name).getScanner(scan);
    return new ResultScanner() {
      @Override
      public Result next() throws IOException {
        return s.next();
      }

      @Override
      public void close() {
        s.close();
      }
    };
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
