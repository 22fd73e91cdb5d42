package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static dev.basalt.compat.StockClientFixtures.rows;
import static dev.basalt.compat.StockClientFixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scans through the stock client over a table of five regions, each compared with a model of what
 * was written: row bounds with inclusive flags, reversed scans, limits, caching, batches and
 * partial results, small result sizes (many RPCs), versions, time ranges, prefixes, columns, raw
 * scans, and scanners left open.
 */
class StockClientScanTest extends OneConnectionTest {
  private static final byte[] F = b("f");
  private static final byte[] G = b("g");
  private static final int ROWS = 100;

  private static Table table;

  /** Every cell written, in HBase cell order (row, family, qualifier asc; timestamp desc). */
  private static final List<C> MODEL = new ArrayList<>();

  record C(String row, String family, String qualifier, long ts, String value) {
    @Override
    public String toString() {
      return row + "/" + family + ":" + qualifier + "@" + ts + "=" + value;
    }
  }

  private static final Comparator<C> CELL_ORDER =
      Comparator.comparing(C::row)
          .thenComparing(C::family)
          .thenComparing(C::qualifier)
          .thenComparing(Comparator.comparingLong(C::ts).reversed());

  @BeforeAll
  static void writeTable() throws Exception {
    TableName tn;
    try (Admin admin = conn.getAdmin()) {
      tn =
          StockClientFixtures.create(
              admin,
              "scan_model",
              3,
              StockClientFixtures.splits("r020", "r040", "r060", "r080"),
              "f",
              "g");
      assertThat(admin.getRegions(tn)).hasSize(5);
    }
    table = conn.getTable(tn);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      String row = String.format("r%03d", i);
      Put p = new Put(b(row));
      for (String q : List.of("a", "b", "c", "d", "e")) {
        add(p, row, "f", q, 100, row + "." + q);
      }
      if (i % 7 == 0) {
        add(p, row, "g", "x", 150, "gx" + i);
      }
      if (i % 10 == 0) {
        for (long ts : new long[] {100, 200, 300}) {
          add(p, row, "f", "v", ts, "v" + ts);
        }
      }
      puts.add(p);
    }
    table.put(puts);
    MODEL.sort(CELL_ORDER);
  }

  private static void add(Put p, String row, String family, String q, long ts, String value) {
    p.addColumn(b(family), b(q), ts, b(value));
    MODEL.add(new C(row, family, q, ts, value));
  }

  @AfterAll
  static void closeTable() throws Exception {
    if (table != null) {
      table.close();
    }
  }

  // ---- the model

  /**
   * What a scan should return, cell by cell: rows passing {@code rows}, cells passing {@code
   * cells}, the newest {@code versions} of each column, rows in descending order when reversed.
   */
  private static List<String> expected(
      Predicate<String> rows, Predicate<C> cells, int versions, boolean reversed) {
    Map<String, List<String>> byRow = new TreeMap<>();
    Map<String, Integer> perColumn = new LinkedHashMap<>();
    for (C c : MODEL) {
      if (!rows.test(c.row()) || !cells.test(c)) {
        continue;
      }
      String column = c.row() + "/" + c.family() + ":" + c.qualifier();
      if (perColumn.merge(column, 1, Integer::sum) > versions) {
        continue;
      }
      byRow.computeIfAbsent(c.row(), k -> new ArrayList<>()).add(c.toString());
    }
    List<String> rowKeys = new ArrayList<>(byRow.keySet());
    if (reversed) {
      rowKeys.sort(Comparator.reverseOrder());
    }
    List<String> out = new ArrayList<>();
    for (String r : rowKeys) {
      out.addAll(byRow.get(r));
    }
    return out;
  }

  private static List<String> expected(Predicate<String> rows, boolean reversed) {
    return expected(rows, c -> true, 1, reversed);
  }

  private static List<String> expectedRows(Predicate<String> rows, boolean reversed) {
    List<String> out = new ArrayList<>();
    for (String cell : expected(rows, reversed)) {
      String row = cell.substring(0, cell.indexOf('/'));
      if (out.isEmpty() || !out.get(out.size() - 1).equals(row)) {
        out.add(row);
      }
    }
    return out;
  }

  /** "row/family:qualifier@ts" of a cell, as the model writes it. */
  private static String coordinates(Cell c) {
    return Bytes.toString(CellUtil.cloneRow(c))
        + "/"
        + StockClientFixtures.column(c)
        + "@"
        + c.getTimestamp();
  }

  /** The cells of results, in the order returned, as the model writes them. */
  private static List<String> flatten(List<Result> results) {
    List<String> out = new ArrayList<>();
    for (Result r : results) {
      for (Cell c : r.rawCells()) {
        out.add(coordinates(c) + "=" + Bytes.toString(CellUtil.cloneValue(c)));
      }
    }
    return out;
  }

  private static Predicate<String> between(
      String from, boolean fromIncl, String to, boolean toIncl) {
    return r -> {
      int a = r.compareTo(from);
      int z = r.compareTo(to);
      return (fromIncl ? a >= 0 : a > 0) && (toIncl ? z <= 0 : z < 0);
    };
  }

  // ---- tests

  @Test
  void fullScanAcrossRegionsMatchesTheModel() throws Exception {
    List<Result> rs = scan(table, new Scan());
    assertThat(rs).hasSize(ROWS);
    assertThat(flatten(rs)).isEqualTo(expected(r -> true, false));
    for (Result r : rs) {
      assertThat(r.mayHaveMoreCellsInRow()).isFalse();
    }
  }

  @Test
  void startAndStopRowsWithInclusiveFlags() throws Exception {
    String[][] bounds = {
      {"r015", "r045"}, {"r020", "r040"}, {"r019", "r060"}, {"r000", "r099"}, {"r039", "r041"}
    };
    for (String[] bound : bounds) {
      for (boolean startIncl : new boolean[] {true, false}) {
        for (boolean stopIncl : new boolean[] {true, false}) {
          Scan s =
              new Scan().withStartRow(b(bound[0]), startIncl).withStopRow(b(bound[1]), stopIncl);
          assertThat(flatten(scan(table, s)))
              .as("%s%s, %s%s", startIncl ? "[" : "(", bound[0], bound[1], stopIncl ? "]" : ")")
              .isEqualTo(expected(between(bound[0], startIncl, bound[1], stopIncl), false));
        }
      }
    }
    // bounds between existing rows, and only one bound
    assertThat(rows(scan(table, new Scan().withStartRow(b("r0355")).withStopRow(b("r0405")))))
        .containsExactly("r036", "r037", "r038", "r039", "r040");
    assertThat(rows(scan(table, new Scan().withStartRow(b("r095")))))
        .containsExactly("r095", "r096", "r097", "r098", "r099");
    assertThat(rows(scan(table, new Scan().withStopRow(b("r003"), true))))
        .containsExactly("r000", "r001", "r002", "r003");
    assertThat(scan(table, new Scan().withStartRow(b("s")))).isEmpty();
    assertThat(scan(table, new Scan().withStartRow(b("r050")).withStopRow(b("r050")))).isEmpty();
    assertThat(rows(scan(table, new Scan().withStartRow(b("r050")).withStopRow(b("r050"), true))))
        .containsExactly("r050");
  }

  @Test
  void reversedScansAcrossRegions() throws Exception {
    List<Result> all = scan(table, new Scan().setReversed(true));
    assertThat(flatten(all)).isEqualTo(expected(r -> true, true));

    String[][] bounds = {{"r065", "r025"}, {"r060", "r040"}, {"r099", "r000"}, {"r041", "r039"}};
    for (String[] bound : bounds) {
      for (boolean startIncl : new boolean[] {true, false}) {
        for (boolean stopIncl : new boolean[] {true, false}) {
          Scan s =
              new Scan()
                  .setReversed(true)
                  .withStartRow(b(bound[0]), startIncl)
                  .withStopRow(b(bound[1]), stopIncl);
          assertThat(flatten(scan(table, s)))
              .as("reversed %s%s .. %s%s", bound[0], startIncl ? "]" : ")", bound[1], stopIncl)
              .isEqualTo(expected(between(bound[1], stopIncl, bound[0], startIncl), true));
        }
      }
    }
    // a reversed start row between rows, and at the end of the table
    assertThat(rows(scan(table, new Scan().setReversed(true).withStartRow(b("r0405")).setLimit(3))))
        .containsExactly("r040", "r039", "r038");
    assertThat(rows(scan(table, new Scan().setReversed(true).withStartRow(b("zzz")).setLimit(2))))
        .containsExactly("r099", "r098");
    assertThat(
            rows(
                scan(
                    table,
                    new Scan().setReversed(true).setCaching(1).withStopRow(b("r017"), true))))
        .isEqualTo(expectedRows(r -> r.compareTo("r017") >= 0, true));
  }

  @Test
  void limitsStopTheScanAcrossRegionBoundaries() throws Exception {
    assertThat(rows(scan(table, new Scan().setLimit(7))))
        .isEqualTo(expectedRows(r -> true, false).subList(0, 7));
    assertThat(rows(scan(table, new Scan().withStartRow(b("r015")).setLimit(10))))
        .isEqualTo(expectedRows(r -> r.compareTo("r015") >= 0, false).subList(0, 10));
    assertThat(rows(scan(table, new Scan().setReversed(true).withStartRow(b("r044")).setLimit(9))))
        .isEqualTo(expectedRows(r -> r.compareTo("r044") <= 0, true).subList(0, 9));
    for (int caching : new int[] {1, 2, 3, 100}) {
      assertThat(rows(scan(table, new Scan().setCaching(caching).setLimit(25))))
          .as("caching %d", caching)
          .isEqualTo(expectedRows(r -> true, false).subList(0, 25));
    }
    // a limit larger than the table
    assertThat(scan(table, new Scan().setLimit(1000))).hasSize(ROWS);
    // a limit with a batch counts rows, not results (batch 1: the 2.6 client's batch cache
    // counts a row twice when it ends in a batch smaller than the batch size, and asserts)
    List<Result> batched = scan(table, new Scan().setBatch(1).setLimit(3));
    assertThat(batched.stream().map(r -> Bytes.toString(r.getRow())).distinct())
        .containsExactly("r000", "r001", "r002");
    assertThat(batched).hasSize(7 + 5 + 5);
  }

  @Test
  void cachingSmallAndLargeGivesTheSameRows() throws Exception {
    List<String> want = expected(r -> true, false);
    for (int caching : new int[] {1, 2, 7, 1000, Integer.MAX_VALUE}) {
      assertThat(flatten(scan(table, new Scan().setCaching(caching))))
          .as("caching %d", caching)
          .isEqualTo(want);
      assertThat(flatten(scan(table, new Scan().setCaching(caching).setReversed(true))))
          .as("reversed caching %d", caching)
          .isEqualTo(expected(r -> true, true));
    }
  }

  @Test
  void batchSplitsRowsIntoResultsOfAtMostThatManyCells() throws Exception {
    for (int batch : new int[] {1, 2, 3, 5}) {
      List<Result> rs = scan(table, new Scan().setBatch(batch).readVersions(3));
      assertThat(flatten(rs))
          .as("batch %d", batch)
          .isEqualTo(expected(r -> true, c -> true, 3, false));
      for (Result r : rs) {
        assertThat(r.size()).isBetween(1, batch);
      }
      // row r000 has 5 + 1 + 3 = 9 cells: ceil(9 / batch) results
      long r000 = rs.stream().filter(r -> Bytes.toString(r.getRow()).equals("r000")).count();
      assertThat(r000).isEqualTo((9 + batch - 1) / batch);
    }
    // batch with a reversed scan, and with caching 1
    List<Result> rs = scan(table, new Scan().setBatch(2).setReversed(true).setCaching(1));
    assertThat(flatten(rs)).isEqualTo(expected(r -> true, true));
  }

  @Test
  void partialResultsWhenAllowedAndSmallResultSizes() throws Exception {
    List<String> want = expected(r -> true, c -> true, 3, false);
    // a result size of one byte: every RPC returns as little as the server can
    Scan tiny = new Scan().readVersions(3).setMaxResultSize(1).setScanMetricsEnabled(true);
    List<Result> rs = new ArrayList<>();
    ScanMetrics metrics;
    try (ResultScanner s = table.getScanner(tiny)) {
      for (Result r : s) {
        rs.add(r);
      }
      metrics = s.getScanMetrics();
    }
    assertThat(flatten(rs)).isEqualTo(want);
    assertThat(rs).hasSize(ROWS); // the client merges partial rows back together
    assertThat(metrics.countOfRPCcalls.get()).isGreaterThanOrEqualTo(ROWS);

    // partial results handed out as they come
    List<Result> partial =
        scan(table, new Scan().readVersions(3).setMaxResultSize(1).setAllowPartialResults(true));
    assertThat(flatten(partial)).isEqualTo(want);
    for (int i = 0; i + 1 < partial.size(); i++) {
      if (partial.get(i).mayHaveMoreCellsInRow()) {
        assertThat(partial.get(i + 1).getRow()).isEqualTo(partial.get(i).getRow());
      }
    }
    // batch and allowPartialResults together
    List<Result> both =
        scan(table, new Scan().readVersions(3).setBatch(4).setAllowPartialResults(true));
    assertThat(flatten(both)).isEqualTo(want);
    assertThat(both).allSatisfy(r -> assertThat(r.size()).isLessThanOrEqualTo(4));

    // a moderate result size, reversed
    assertThat(flatten(scan(table, new Scan().setReversed(true).setMaxResultSize(300))))
        .isEqualTo(expected(r -> true, true));
  }

  @Test
  void versionsAndTimeRanges() throws Exception {
    Predicate<String> tens = r -> Integer.parseInt(r.substring(1)) % 10 == 0;
    Predicate<C> v = c -> c.qualifier().equals("v");
    Scan s = new Scan().addColumn(F, b("v"));
    assertThat(flatten(scan(table, s))).isEqualTo(expected(tens, v, 1, false));
    assertThat(flatten(scan(table, new Scan().addColumn(F, b("v")).readVersions(2))))
        .isEqualTo(expected(tens, v, 2, false));
    assertThat(flatten(scan(table, new Scan().addColumn(F, b("v")).readAllVersions())))
        .isEqualTo(expected(tens, v, 3, false));
    assertThat(flatten(scan(table, new Scan().addColumn(F, b("v")).readAllVersions()))).hasSize(30);
    // [150, 300): only ts 200 of f:v, and g:x at 150
    List<String> ranged = flatten(scan(table, new Scan().setTimeRange(150, 300).readAllVersions()));
    assertThat(ranged).isEqualTo(expected(r -> true, c -> c.ts() >= 150 && c.ts() < 300, 3, false));
    assertThat(ranged).allMatch(x -> x.contains("@200=") || x.contains("/g:x@150="));
    // one timestamp
    assertThat(flatten(scan(table, new Scan().setTimestamp(300))))
        .isEqualTo(expected(r -> true, c -> c.ts() == 300, 3, false));
    // per-family time range
    assertThat(
            flatten(
                scan(
                    table,
                    new Scan()
                        .setColumnFamilyTimeRange(F, 250, 1000)
                        .setColumnFamilyTimeRange(G, 0, 1000))))
        .isEqualTo(expected(r -> true, c -> c.family().equals("g") || c.ts() >= 250, 1, false));
  }

  @Test
  void prefixesColumnsAndFamilies() throws Exception {
    assertThat(rows(scan(table, new Scan().setRowPrefixFilter(b("r03")))))
        .isEqualTo(expectedRows(r -> r.startsWith("r03"), false));
    assertThat(rows(scan(table, new Scan().setStartStopRowForPrefixScan(b("r07")))))
        .isEqualTo(expectedRows(r -> r.startsWith("r07"), false));
    // reversed, the prefix's rows are bounded by hand (the prefix helpers set forward bounds)
    assertThat(
            rows(
                scan(
                    table,
                    new Scan()
                        .setReversed(true)
                        .withStartRow(b("r03"), false)
                        .withStopRow(b("r02"), true))))
        .isEqualTo(expectedRows(r -> r.startsWith("r02"), true));
    assertThat(flatten(scan(table, new Scan().addFamily(G))))
        .isEqualTo(expected(r -> true, c -> c.family().equals("g"), 1, false));
    assertThat(flatten(scan(table, new Scan().addColumn(F, b("b")).addColumn(F, b("d")))))
        .isEqualTo(
            expected(
                r -> true,
                c ->
                    c.family().equals("f")
                        && (c.qualifier().equals("b") || c.qualifier().equals("d")),
                1,
                false));
    assertThat(flatten(scan(table, new Scan().addColumn(F, b("a")).addFamily(G))))
        .isEqualTo(
            expected(
                r -> true, c -> c.family().equals("g") || c.qualifier().equals("a"), 1, false));
    // a column nobody wrote: no rows at all
    assertThat(scan(table, new Scan().addColumn(F, b("zz")))).isEmpty();
  }

  @Test
  void rawScansSeeDeleteMarkersAndDeletedCells() throws Exception {
    TableName tn;
    try (Admin admin = conn.getAdmin()) {
      tn = StockClientFixtures.create(admin, "scan_raw", 3, StockClientFixtures.splits("m"), "f");
    }
    try (Table t = conn.getTable(tn)) {
      t.put(new Put(b("a")).addColumn(F, b("q"), 10, b("a10")).addColumn(F, b("q"), 20, b("a20")));
      t.put(new Put(b("n")).addColumn(F, b("q"), 10, b("n10")).addColumn(F, b("p"), 10, b("p")));
      t.delete(new Delete(b("a")).addColumn(F, b("q"), 20));
      t.delete(new Delete(b("n")).addFamily(F, 15));
      t.delete(new Delete(b("z")).addColumns(F, b("q"), 5));

      assertThat(flattenTyped(scan(t, new Scan()))).containsExactly("a/f:q@10 Put");
      List<String> raw = flattenTyped(scan(t, new Scan().setRaw(true).readAllVersions()));
      assertThat(raw)
          .containsExactly(
              "a/f:q@20 Delete",
              "a/f:q@20 Put",
              "a/f:q@10 Put",
              "n/f:@15 DeleteFamily",
              "n/f:p@10 Put",
              "n/f:q@10 Put",
              "z/f:q@5 DeleteColumn");
      List<String> rawReversed =
          flattenTyped(scan(t, new Scan().setRaw(true).readAllVersions().setReversed(true)));
      assertThat(rawReversed.get(0)).isEqualTo("z/f:q@5 DeleteColumn");
      assertThat(rawReversed).hasSameElementsAs(raw);
    }
  }

  private static List<String> flattenTyped(List<Result> results) {
    List<String> out = new ArrayList<>();
    for (Result r : results) {
      for (Cell c : r.rawCells()) {
        out.add(coordinates(c) + " " + c.getType());
      }
    }
    return out;
  }

  @Test
  void scannersLeftOpenThenClosedAndReadSlowly() throws Exception {
    List<String> want = expectedRows(r -> true, false);
    // one scanner left open part-way while others run to completion, then closed
    ResultScanner open = table.getScanner(new Scan().setCaching(2));
    List<String> first = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      first.add(Bytes.toString(open.next().getRow()));
    }
    assertThat(first).isEqualTo(want.subList(0, 5));
    assertThat(rows(scan(table, new Scan()))).isEqualTo(want);
    ResultScanner second = table.getScanner(new Scan().setCaching(1).setReversed(true));
    assertThat(Bytes.toString(second.next().getRow())).isEqualTo("r099");
    open.close();
    open.close(); // closing twice is harmless

    // the second scanner, read slowly, with other calls in between, sees every row
    List<String> reversed = new ArrayList<>(List.of("r099"));
    Result r;
    while ((r = second.next()) != null) {
      reversed.add(Bytes.toString(r.getRow()));
      if (reversed.size() % 10 == 0) {
        assertThat(table.exists(new org.apache.hadoop.hbase.client.Get(r.getRow()))).isTrue();
      }
    }
    second.close();
    List<String> wantReversed = new ArrayList<>(want);
    wantReversed.sort(Comparator.reverseOrder());
    assertThat(reversed).isEqualTo(wantReversed);

    // next(n) in chunks across regions
    try (ResultScanner chunks = table.getScanner(new Scan().setCaching(3))) {
      List<String> got = new ArrayList<>();
      Result[] some;
      while ((some = chunks.next(7)).length > 0) {
        for (Result x : some) {
          got.add(Bytes.toString(x.getRow()));
        }
      }
      assertThat(got).isEqualTo(want);
    }

    // many scanners open at once, each closed
    List<ResultScanner> many = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ResultScanner s = table.getScanner(new Scan().withStartRow(b(String.format("r%03d", i * 5))));
      assertThat(Bytes.toString(s.next().getRow())).isEqualTo(String.format("r%03d", i * 5));
      many.add(s);
    }
    for (ResultScanner s : many) {
      s.close();
    }
  }

  @Test
  void optionsTheServerNeedNotActOnAreAccepted() throws Exception {
    List<String> want = expected(r -> true, false);
    List<java.util.function.Consumer<Scan>> options =
        List.of(
            x -> x.setCacheBlocks(false),
            x -> x.setReadType(Scan.ReadType.PREAD),
            x -> x.setReadType(Scan.ReadType.STREAM),
            x -> x.setConsistency(org.apache.hadoop.hbase.client.Consistency.TIMELINE),
            x ->
                x.setIsolationLevel(org.apache.hadoop.hbase.client.IsolationLevel.READ_UNCOMMITTED),
            x -> x.setNeedCursorResult(true),
            x -> x.setLoadColumnFamiliesOnDemand(true),
            x -> x.setQueryMetricsEnabled(true),
            x -> x.setAttribute("app.tag", b("x")));
    List<Scan> scans = new ArrayList<>();
    for (java.util.function.Consumer<Scan> option : options) {
      Scan scan = new Scan();
      option.accept(scan);
      scans.add(scan);
    }
    for (Scan scan : scans) {
      List<Result> rs = scan(table, scan);
      assertThat(flatten(rs)).as(scan.toString()).isEqualTo(want);
      assertThat(rs).allSatisfy(r -> assertThat(r.isStale()).isFalse());
    }
  }

  @Test
  void perFamilyLimitAndOffset() throws Exception {
    // f has a..e (and v on every tenth row): at most 2 cells per family, after skipping 1
    List<Result> rs =
        scan(table, new Scan().setMaxResultsPerColumnFamily(2).setRowOffsetPerColumnFamily(1));
    assertThat(rs).hasSize(ROWS);
    for (Result r : rs) {
      List<String> cells = flatten(List.of(r));
      assertThat(cells).hasSize(2);
      assertThat(cells.get(0)).contains("/f:b@");
      assertThat(cells.get(1)).contains("/f:c@");
    }
  }

  @Test
  void emptyTableAndEmptyRegions() throws Exception {
    TableName tn;
    try (Admin admin = conn.getAdmin()) {
      tn =
          StockClientFixtures.create(
              admin, "scan_sparse", 1, StockClientFixtures.splits("b", "c", "d", "e"), "f");
    }
    try (Table t = conn.getTable(tn)) {
      assertThat(scan(t, new Scan())).isEmpty();
      assertThat(scan(t, new Scan().setReversed(true))).isEmpty();
      t.put(new Put(b("a1")).addColumn(F, b("q"), b("1")));
      t.put(new Put(b("e1")).addColumn(F, b("q"), b("1")));
      for (int caching : new int[] {1, 100}) {
        assertThat(rows(scan(t, new Scan().setCaching(caching)))).containsExactly("a1", "e1");
        assertThat(rows(scan(t, new Scan().setCaching(caching).setReversed(true))))
            .containsExactly("e1", "a1");
        assertThat(rows(scan(t, new Scan().setCaching(caching).setLimit(1)))).containsExactly("a1");
      }
    }
  }
}
