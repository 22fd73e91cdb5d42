package dev.basalt.region;

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
import dev.basalt.schema.TableDescriptor;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.util.List;

/**
 * The engine a model history runs against: a fresh in-memory {@link Region} ({@link #inMemory}), or
 * a table of a durable {@link dev.basalt.db.Database} ({@link RegionModelDatabaseTarget}), which
 * can also flush, compact and restart.
 */
interface RegionModelTarget {

  void put(Put put) throws IOException;

  void delete(Delete delete) throws IOException;

  Result increment(Increment increment) throws IOException;

  Result append(Append append) throws IOException;

  void mutateRow(RowMutations mutations) throws IOException;

  CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException;

  List<OperationStatus> batchMutate(List<? extends Row> ops) throws IOException;

  Result get(Get get) throws IOException;

  Scanner getScanner(Scan scan) throws IOException;

  /** An open scanner of either kind of target. */
  interface Scanner extends AutoCloseable {
    /** The next Result, or null at the end. */
    Result next() throws IOException;

    @Override
    void close();
  }

  /** Writes the memstores to store files. */
  default void flush() throws IOException {
    throw new UnsupportedOperationException(this + " has no storage to flush to");
  }

  /** A minor or a major compaction. */
  default void compact(boolean major) throws IOException {
    throw new UnsupportedOperationException(this + " has no storage to compact");
  }

  /** Splits the region holding {@code row} at it, if it is not a region's start already. */
  default void split(String row) throws IOException {
    throw new UnsupportedOperationException(this + " has one region");
  }

  /** Merges two adjacent regions, if there are two. */
  default void merge(int index) throws IOException {
    throw new UnsupportedOperationException(this + " has one region");
  }

  /** Closes and reopens the engine; no scanner may be open. */
  default void restart(boolean flushOnClose) throws IOException {
    throw new UnsupportedOperationException(this + " cannot restart");
  }

  /**
   * Whether a compaction has rewritten store files so far. Exact only while no scanner is open
   * (files a scanner still reads are archived when it closes).
   */
  /**
   * Whether compactions keep, for as long as a scanner of this target is open and not exhausted,
   * every cell written after it opened. No target does today: scanners read the store contents they
   * opened with (a table scan pins each region's contents), so compactions need not; the model's
   * horizon stays for a target that would.
   */
  default boolean keepsWhatOpenScannersSee() {
    return false;
  }

  default boolean compactedSoFar() {
    return false;
  }

  /**
   * How many store files compactions have archived so far (for statistics; files a scanner still
   * reads are archived when it closes).
   */
  default int archivedFiles() {
    return 0;
  }

  /** Releases everything (and, for a database, deletes its directory). */
  void close();

  /**
   * A fresh in-memory region: no flushes, no compactions, no restarts; with a row cache, so that
   * every plain get of a history after a write checks that the write dropped the cached row.
   */
  static RegionModelTarget inMemory(TableDescriptor table, Clock clock) {
    RegionServices services =
        RegionServices.of(clock, Config.defaults(), EditLog.NONE)
            .withRowCache(new RowCache(1 << 20));
    Region region = Region.inMemory(table, services);
    return new RegionModelTarget() {
      @Override
      public void put(Put put) throws IOException {
        region.put(put);
      }

      @Override
      public void delete(Delete delete) throws IOException {
        region.delete(delete);
      }

      @Override
      public Result increment(Increment increment) throws IOException {
        return region.increment(increment);
      }

      @Override
      public Result append(Append append) throws IOException {
        return region.append(append);
      }

      @Override
      public void mutateRow(RowMutations mutations) throws IOException {
        region.mutateRow(mutations);
      }

      @Override
      public CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException {
        return region.checkAndMutate(checkAndMutate);
      }

      @Override
      public List<OperationStatus> batchMutate(List<? extends Row> ops) throws IOException {
        return region.batchMutate(ops);
      }

      @Override
      public Result get(Get get) throws IOException {
        return region.get(get);
      }

      @Override
      public Scanner getScanner(Scan scan) throws IOException {
        RegionScanner s = region.getScanner(scan);
        return new Scanner() {
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

      @Override
      public void close() {
        region.close();
      }

      @Override
      public String toString() {
        return "an in-memory region";
      }
    };
  }
}
