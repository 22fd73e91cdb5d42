package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.db.ResultScanner;
import dev.basalt.db.Table;
import dev.basalt.filter.BinaryComparator;
import dev.basalt.filter.BinaryPrefixComparator;
import dev.basalt.filter.ColumnPrefixFilter;
import dev.basalt.filter.ColumnRangeFilter;
import dev.basalt.filter.CompareOperator;
import dev.basalt.filter.Filter;
import dev.basalt.filter.FilterList;
import dev.basalt.filter.FuzzyRowFilter;
import dev.basalt.filter.MultiRowRangeFilter;
import dev.basalt.filter.MultipleColumnPrefixFilter;
import dev.basalt.filter.PrefixFilter;
import dev.basalt.filter.QualifierFilter;
import dev.basalt.filter.RowFilter;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * How much seek hints save: filters that know where the next interesting cell is, against the same
 * selection evaluated cell by cell, on data in store files with the block cache off for the table
 * (so every data block a query touches is a read from storage, and is counted).
 *
 * <pre>
 * java -cp basalt-bench/target/benchmarks.jar dev.basalt.bench.FilterSeekBench [dir] [rows] [columns]
 * </pre>
 *
 * Part 1: one row of {@code columns} columns (default 1,000,000); ColumnRangeFilter,
 * ColumnPrefixFilter and MultipleColumnPrefixFilter fetch 10 columns from the middle, against two
 * QualifierFilters in an AND list (no hints). Part 2: {@code rows} rows (default 10,000,000);
 * PrefixFilter, MultiRowRangeFilter and FuzzyRowFilter select 10 rows, against a RowFilter with a
 * prefix comparator (no hints).
 */
public final class FilterSeekBench {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  private FilterSeekBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/filterbench");
    long rows = args.length > 1 ? Long.parseLong(args[1]) : 10_000_000L;
    int columns = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
    BenchFiles.deleteTree(dir);
    try (Database db = Database.open(dir, Config.defaults())) {
      System.out.println(wideRow(db, columns));
      System.out.println(tallTable(db, rows));
    }
    BenchFiles.deleteTree(dir);
  }

  private static Table table(Database db, String name) throws IOException {
    TableName t = TableName.valueOf(name);
    db.createTable(
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(F).setBlockCacheEnabled(false).build())
            .build());
    return db.getTable(t);
  }

  /** The region of a one-region table, for block counts (not part of the public API). */
  private static Region region(Database db, String table) throws Exception {
    Method m = Database.class.getDeclaredMethod("region", TableName.class);
    m.setAccessible(true);
    return (Region) m.invoke(db, TableName.valueOf(table));
  }

  private record Measure(String name, double millis, long blocks, int cells) {}

  private static Measure measure(String name, Region r, Supplier<Integer> query, int rounds) {
    query.get(); // warm-up (code paths; data blocks are never cached)
    double[] times = new double[rounds];
    long blocks = 0;
    int cells = 0;
    for (int i = 0; i < rounds; i++) {
      long b0 = r.getDataBlocksReadFromStorage();
      long t0 = System.nanoTime();
      cells = query.get();
      times[i] = (System.nanoTime() - t0) / 1e6;
      blocks = r.getDataBlocksReadFromStorage() - b0;
    }
    Arrays.sort(times);
    return new Measure(name, times[rounds / 2], blocks, cells);
  }

  private static String table(String title, List<Measure> ms, Measure baseline) {
    StringBuilder sb = new StringBuilder("\n### ").append(title).append("\n\n");
    sb.append(
        "| query | cells/rows returned | data blocks read | median ms | speed-up vs cell by cell |\n");
    sb.append("| --- | ---: | ---: | ---: | ---: |\n");
    for (Measure m : ms) {
      sb.append(
          String.format(
              "| %s | %d | %d | %.3f | %s |%n",
              m.name(),
              m.cells(),
              m.blocks(),
              m.millis(),
              m == baseline ? "1x" : String.format("%.0fx", baseline.millis() / m.millis())));
    }
    return sb.toString();
  }

  /**
   * A filter carries the state of one read (as on an HBase server, where each request builds its
   * own), so every run gets a fresh one.
   */
  private static Supplier<Integer> get(Table t, byte[] row, Supplier<Filter> f) {
    return () -> {
      try {
        Result r = t.get(new Get(row).setFilter(f.get()));
        return r.size();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    };
  }

  private static Supplier<Integer> scan(Table t, Supplier<Filter> f) {
    return () -> {
      int n = 0;
      try (ResultScanner s = t.getScanner(new Scan().setFilter(f.get()))) {
        while (s.next() != null) {
          n++;
        }
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
      return n;
    };
  }

  private static String wideRow(Database db, int columns) throws Exception {
    Table t = table(db, "wide");
    byte[] row = Bytes.toBytes("the-row");
    long start = System.nanoTime();
    for (int c = 0; c < columns; c += 1000) {
      Put p = new Put(row);
      for (int i = c; i < Math.min(columns, c + 1000); i++) {
        p.addColumn(F, col(i), 1, Bytes.toBytes(String.format("value-%010d", i)));
      }
      t.put(p);
    }
    db.flush(TableName.valueOf("wide"));
    db.majorCompact(TableName.valueOf("wide"));
    double loadSec = (System.nanoTime() - start) / 1e9;
    Region r = region(db, "wide");
    int mid = columns / 2;
    byte[] lo = col(mid);
    byte[] hi = col(mid + 10);
    String prefix = Bytes.toString(col(mid)).substring(0, Bytes.toString(col(mid)).length() - 1);
    byte[][] prefixes = new byte[10][];
    for (int i = 0; i < 10; i++) {
      prefixes[i] = col(mid + i);
    }
    Supplier<Filter> naive =
        () ->
            new FilterList(
                FilterList.Operator.MUST_PASS_ALL,
                List.of(
                    new QualifierFilter(CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(lo)),
                    new QualifierFilter(CompareOperator.LESS, new BinaryComparator(hi))));
    Measure base = measure("QualifierFilter >= and < (cell by cell)", r, get(t, row, naive), 5);
    List<Measure> ms = new ArrayList<>();
    ms.add(
        measure(
            "ColumnRangeFilter",
            r,
            get(t, row, () -> new ColumnRangeFilter(lo, true, hi, false)),
            21));
    ms.add(
        measure(
            "ColumnPrefixFilter",
            r,
            get(t, row, () -> new ColumnPrefixFilter(Bytes.toBytes(prefix))),
            21));
    ms.add(
        measure(
            "MultipleColumnPrefixFilter",
            r,
            get(t, row, () -> new MultipleColumnPrefixFilter(prefixes)),
            21));
    ms.add(base);
    return String.format(
            "one row of %,d columns (16-byte values), one store file of %,d bytes, loaded in %.1f s",
            columns, r.getStoreFileSize(), loadSec)
        + table("A wide row: 10 columns from the middle", ms, base);
  }

  private static byte[] col(int i) {
    return Bytes.toBytes(String.format("c%07d", i));
  }

  private static byte[] rowKey(long i) {
    return Bytes.toBytes(String.format("r%08d", i));
  }

  private static String tallTable(Database db, long rows) throws Exception {
    Table t = table(db, "tall");
    long start = System.nanoTime();
    List<Row> batch = new ArrayList<>(1000);
    for (long i = 0; i < rows; i++) {
      batch.add(new Put(rowKey(i)).addColumn(F, Q, 1, Bytes.toBytes(i)));
      if (batch.size() == 1000) {
        t.batch(batch);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      t.batch(batch);
    }
    db.flush(TableName.valueOf("tall"));
    db.majorCompact(TableName.valueOf("tall"));
    double loadSec = (System.nanoTime() - start) / 1e9;
    Region r = region(db, "tall");
    long mid = rows / 2;
    String midKey = Bytes.toString(rowKey(mid));
    byte[] prefix = Bytes.toBytes(midKey.substring(0, midKey.length() - 1)); // 10 rows
    Supplier<Filter> naive =
        () -> new RowFilter(CompareOperator.EQUAL, new BinaryPrefixComparator(prefix));
    Measure base = measure("RowFilter with a prefix comparator (row by row)", r, scan(t, naive), 3);
    // Fuzzy: the 10 rows that differ from the middle one in the third-to-last digit.
    byte[] fuzzyKey = rowKey(mid - (mid / 100 % 10) * 100);
    byte[] mask = new byte[fuzzyKey.length];
    mask[fuzzyKey.length - 3] = 1;
    List<Measure> ms = new ArrayList<>();
    ms.add(measure("PrefixFilter", r, scan(t, () -> new PrefixFilter(prefix)), 21));
    ms.add(
        measure(
            "MultiRowRangeFilter",
            r,
            scan(
                t,
                () ->
                    new MultiRowRangeFilter(
                        List.of(
                            new MultiRowRangeFilter.RowRange(
                                rowKey(mid - mid % 10),
                                true,
                                rowKey(mid - mid % 10 + 10),
                                false)))),
            21));
    ms.add(
        measure(
            "FuzzyRowFilter",
            r,
            scan(t, () -> new FuzzyRowFilter(List.of(Map.entry(fuzzyKey, mask)))),
            21));
    ms.add(base);
    return String.format(
            "%n%,d rows (one 8-byte cell each), one store file of %,d bytes, loaded in %.1f s",
            rows, r.getStoreFileSize(), loadSec)
        + table("A tall table: 10 rows", ms, base);
  }
}
