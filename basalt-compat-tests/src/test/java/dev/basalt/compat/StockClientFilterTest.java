package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static dev.basalt.compat.StockClientFixtures.rows;
import static dev.basalt.compat.StockClientFixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.BitComparator;
import org.apache.hadoop.hbase.filter.ColumnCountGetFilter;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.ColumnValueFilter;
import org.apache.hadoop.hbase.filter.DependentColumnFilter;
import org.apache.hadoop.hbase.filter.FamilyFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterBase;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FirstKeyValueMatchingQualifiersFilter;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.InclusiveStopFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.LongComparator;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.NullComparator;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RandomRowFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SkipFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.filter.TimestampsFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HBase's filters and comparators sent by the stock client, evaluated by the server over a table of
 * four regions (rows r00..r39, ten per region). Every check would fail if the server ignored the
 * filter; filters the server does not know fail at once with a DoNotRetryIOException naming them.
 */
class StockClientFilterTest extends OneConnectionTest {
  private static final byte[] F = b("f");
  private static final byte[] G = b("g");
  private static final int ROWS = 40;
  private static final long TS = 1000;

  private static Table table;

  @BeforeAll
  static void writeTable() throws Exception {
    TableName tn;
    try (Admin admin = conn.getAdmin()) {
      tn =
          StockClientFixtures.create(
              admin, "filters", 3, StockClientFixtures.splits("r10", "r20", "r30"), "f", "g");
    }
    table = conn.getTable(tn);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      Put p = new Put(b(row(i)));
      for (int c = 0; c < 10; c++) {
        p.addColumn(F, b(String.format("c%02d", c)), TS, b("v" + c));
      }
      p.addColumn(F, b("flag"), TS, b(i % 2 == 0 ? "on" : "off"));
      p.addColumn(F, b("n"), TS, Bytes.toBytes((long) i));
      p.addColumn(F, b("name"), TS, b("name-" + i));
      for (long ts : new long[] {10, 20, 30}) {
        p.addColumn(F, b("t"), ts, b("t" + ts));
      }
      if (i % 4 == 0) {
        p.addColumn(F, b("opt"), TS, b("opt"));
      }
      if (i % 5 == 0) {
        p.addColumn(F, b("dep"), 20, b("dep"));
      }
      if (i % 6 == 0) {
        p.addColumn(F, b("bad"), TS, b("bad"));
      }
      if (i % 3 == 0) {
        p.addColumn(G, b("x"), TS, b("g" + i));
      }
      puts.add(p);
    }
    table.put(puts);
  }

  @AfterAll
  static void closeTable() throws Exception {
    if (table != null) {
      table.close();
    }
  }

  private static String row(int i) {
    return String.format("r%02d", i);
  }

  private static List<String> rowsWhere(IntPredicate p) {
    return IntStream.range(0, ROWS).filter(p).mapToObj(StockClientFilterTest::row).toList();
  }

  private static List<String> reversed(List<String> rows) {
    List<String> out = new ArrayList<>(rows);
    java.util.Collections.reverse(out);
    return out;
  }

  private static List<Result> scan(Scan s) throws Exception {
    return StockClientFixtures.scan(table, s);
  }

  private static List<Result> scan(Filter f) throws Exception {
    return scan(new Scan().setFilter(f));
  }

  /** The distinct "family:qualifier" names over all results. */
  private static Set<String> columnNames(List<Result> rs) {
    Set<String> out = new TreeSet<>();
    for (Result r : rs) {
      for (Cell c : r.rawCells()) {
        out.add(StockClientFixtures.column(c));
      }
    }
    return out;
  }

  private static List<String> qualifiers(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(Bytes.toString(CellUtil.cloneQualifier(c)));
    }
    return out;
  }

  // ---- row filters

  @Test
  void prefixFilter() throws Exception {
    assertThat(rows(scan(new PrefixFilter(b("r1"))))).isEqualTo(rowsWhere(i -> i / 10 == 1));
    assertThat(rows(scan(new Scan().setReversed(true).setFilter(new PrefixFilter(b("r2"))))))
        .isEqualTo(reversed(rowsWhere(i -> i / 10 == 2)));
    assertThat(scan(new PrefixFilter(b("x")))).isEmpty();
  }

  @Test
  void pageFilterCountsRowsPerRegion() throws Exception {
    // HBase evaluates a PageFilter in each region separately: 3 rows from each of 4 regions
    assertThat(rows(scan(new PageFilter(3)))).isEqualTo(rowsWhere(i -> i % 10 < 3));
    assertThat(rows(scan(new Scan().withStartRow(b("r15")).setFilter(new PageFilter(2)))))
        .containsExactly("r15", "r16", "r20", "r21", "r30", "r31");
    assertThat(rows(scan(new Scan().setReversed(true).setFilter(new PageFilter(1)))))
        .containsExactly("r39", "r29", "r19", "r09");
    assertThat(rows(scan(new Scan().setCaching(1).setFilter(new PageFilter(1)))))
        .containsExactly("r00", "r10", "r20", "r30");
  }

  @Test
  void rowFilterWithEveryComparator() throws Exception {
    assertThat(rows(scan(new RowFilter(CompareOperator.LESS, new BinaryComparator(b("r05"))))))
        .isEqualTo(rowsWhere(i -> i < 5));
    assertThat(
            rows(
                scan(
                    new RowFilter(
                        CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(b("r37"))))))
        .isEqualTo(rowsWhere(i -> i >= 37));
    assertThat(
            rows(scan(new RowFilter(CompareOperator.EQUAL, new BinaryPrefixComparator(b("r2"))))))
        .isEqualTo(rowsWhere(i -> i / 10 == 2));
    assertThat(
            rows(scan(new RowFilter(CompareOperator.EQUAL, new RegexStringComparator("r[0-9]5")))))
        .containsExactly("r05", "r15", "r25", "r35");
    assertThat(rows(scan(new RowFilter(CompareOperator.EQUAL, new SubstringComparator("3")))))
        .isEqualTo(rowsWhere(i -> row(i).contains("3")));
    assertThat(rows(scan(new RowFilter(CompareOperator.NOT_EQUAL, new SubstringComparator("R3")))))
        .as("substring matching ignores case")
        .isEqualTo(rowsWhere(i -> i / 10 != 3));
    assertThat(scan(new RowFilter(CompareOperator.EQUAL, new NullComparator()))).isEmpty();
    assertThat(scan(new RowFilter(CompareOperator.NOT_EQUAL, new NullComparator()))).hasSize(ROWS);
    // rows are "r" + two digits: bit 0 of the last byte set for odd digits
    byte[] mask = {0, 0, 1};
    assertThat(
            rows(
                scan(
                    new RowFilter(
                        CompareOperator.EQUAL,
                        new BitComparator(mask, BitComparator.BitwiseOp.AND)))))
        .isEqualTo(rowsWhere(i -> i % 2 == 1));
  }

  @Test
  void rowFilterWithALongComparatorOverLongRowKeys() throws Exception {
    TableName tn;
    try (Admin admin = conn.getAdmin()) {
      tn = StockClientFixtures.create(admin, "long_rows", 1, new byte[][] {Bytes.toBytes(5L)}, "f");
    }
    try (Table t = conn.getTable(tn)) {
      List<Put> puts = new ArrayList<>();
      for (long i = 0; i < 10; i++) {
        puts.add(new Put(Bytes.toBytes(i)).addColumn(F, b("q"), b("v" + i)));
      }
      t.put(puts);
      List<Long> got = new ArrayList<>();
      for (Result r :
          StockClientFixtures.scan(
              t,
              new Scan()
                  .setFilter(
                      new RowFilter(CompareOperator.GREATER_OR_EQUAL, new LongComparator(7))))) {
        got.add(Bytes.toLong(r.getRow()));
      }
      assertThat(got).containsExactly(7L, 8L, 9L);
    }
  }

  @Test
  void valueComparatorsOnALongColumn() throws Exception {
    Scan longs =
        new Scan()
            .addColumn(F, b("n"))
            .setFilter(new ValueFilter(CompareOperator.GREATER, new LongComparator(35)));
    assertThat(rows(scan(longs))).containsExactly("r36", "r37", "r38", "r39");
    Scan odd =
        new Scan()
            .addColumn(F, b("n"))
            .setFilter(
                new ValueFilter(
                    CompareOperator.EQUAL,
                    new BitComparator(Bytes.toBytes(1L), BitComparator.BitwiseOp.AND)));
    assertThat(rows(scan(odd))).isEqualTo(rowsWhere(i -> i % 2 == 1));
  }

  @Test
  void inclusiveStopRandomAndFuzzyRowFilters() throws Exception {
    assertThat(rows(scan(new InclusiveStopFilter(b("r05"))))).isEqualTo(rowsWhere(i -> i <= 5));
    assertThat(rows(scan(new InclusiveStopFilter(b("r13"))))).isEqualTo(rowsWhere(i -> i <= 13));
    assertThat(scan(new RandomRowFilter(1.0f))).hasSize(ROWS);
    assertThat(scan(new RandomRowFilter(0.0f))).isEmpty();
    FuzzyRowFilter fuzzy = new FuzzyRowFilter(List.of(new Pair<>(b("r?5"), new byte[] {0, 1, 0})));
    assertThat(rows(scan(fuzzy))).containsExactly("r05", "r15", "r25", "r35");
    FuzzyRowFilter two =
        new FuzzyRowFilter(
            List.of(
                new Pair<>(b("r1?"), new byte[] {0, 0, 1}),
                new Pair<>(b("r?7"), new byte[] {0, 1, 0})));
    assertThat(rows(scan(two))).isEqualTo(rowsWhere(i -> i / 10 == 1 || i % 10 == 7));
  }

  @Test
  void multiRowRangeFilter() throws Exception {
    MultiRowRangeFilter ranges =
        new MultiRowRangeFilter(
            new ArrayList<>(
                List.of(
                    new MultiRowRangeFilter.RowRange(b("r02"), true, b("r04"), true),
                    new MultiRowRangeFilter.RowRange(b("r15"), false, b("r17"), false),
                    new MultiRowRangeFilter.RowRange(b("r33"), true, b("r35"), false))));
    assertThat(rows(scan(ranges))).containsExactly("r02", "r03", "r04", "r16", "r33", "r34");
    MultiRowRangeFilter reversed =
        new MultiRowRangeFilter(
            new ArrayList<>(
                List.of(
                    new MultiRowRangeFilter.RowRange(b("r08"), true, b("r11"), true),
                    new MultiRowRangeFilter.RowRange(b("r38"), true, b("r40"), false))));
    assertThat(rows(scan(new Scan().setReversed(true).setFilter(reversed))))
        .containsExactly("r39", "r38", "r11", "r10", "r09", "r08");
  }

  @Test
  void whileMatchAndSkipFilters() throws Exception {
    // WhileMatch ends its region at the first row that fails. As in HBase, the whole scan ends
    // only when that region's last call returned nothing; otherwise the client goes on in the
    // next region, where the filter starts anew.
    for (int caching : new int[] {1, 1000}) {
      Scan s =
          new Scan()
              .setCaching(caching)
              .setFilter(
                  new WhileMatchFilter(
                      new RowFilter(CompareOperator.LESS, new BinaryComparator(b("r07")))));
      assertThat(rows(scan(s))).as("caching %d", caching).isEqualTo(rowsWhere(i -> i < 7));
    }
    WhileMatchFilter notR15 =
        new WhileMatchFilter(
            new RowFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("r15"))));
    assertThat(rows(scan(new Scan().setCaching(1).setFilter(notR15))))
        .as("r15 is found in a call of its own: the scan ends there")
        .isEqualTo(rowsWhere(i -> i < 15));
    WhileMatchFilter notR15again =
        new WhileMatchFilter(
            new RowFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("r15"))));
    assertThat(rows(scan(new Scan().setCaching(1000).setFilter(notR15again))))
        .as("r15 is found in a call that returned r10..r14: the scan goes on in region 3")
        .isEqualTo(rowsWhere(i -> i < 15 || i >= 20));
    // Skip drops every row holding a cell the inner filter rejects
    assertThat(
            rows(
                scan(
                    new SkipFilter(
                        new ValueFilter(
                            CompareOperator.NOT_EQUAL, new BinaryComparator(b("bad")))))))
        .isEqualTo(rowsWhere(i -> i % 6 != 0));
  }

  // ---- key, column and value filters

  @Test
  void keyOnlyAndFirstKeyOnly() throws Exception {
    List<Result> keys = scan(new KeyOnlyFilter());
    assertThat(keys).hasSize(ROWS);
    for (Result r : keys) {
      for (Cell c : r.rawCells()) {
        assertThat(c.getValueLength()).isZero();
      }
    }
    Result withLengths =
        table.get(new Get(b("r03")).addColumn(F, b("name")).setFilter(new KeyOnlyFilter(true)));
    assertThat(Bytes.toInt(withLengths.getValue(F, b("name")))).isEqualTo("name-3".length());

    List<Result> first = scan(new FirstKeyOnlyFilter());
    assertThat(rows(first)).isEqualTo(rowsWhere(i -> true));
    for (Result r : first) {
      int i = Integer.parseInt(Bytes.toString(r.getRow()).substring(1));
      assertThat(qualifiers(r)).containsExactly(i % 6 == 0 ? "bad" : "c00");
    }
    assertThat(table.get(new Get(b("r10")).setFilter(new FirstKeyOnlyFilter())).size()).isOne();
  }

  @Test
  void columnFilters() throws Exception {
    List<Result> prefix = scan(new ColumnPrefixFilter(b("c0")));
    assertThat(prefix).hasSize(ROWS);
    assertThat(columnNames(prefix))
        .isEqualTo(
            IntStream.range(0, 10)
                .mapToObj(c -> String.format("f:c%02d", c))
                .collect(Collectors.toCollection(TreeSet::new)));
    assertThat(columnNames(scan(new MultipleColumnPrefixFilter(new byte[][] {b("c01"), b("na")}))))
        .containsExactly("f:c01", "f:name");
    assertThat(columnNames(scan(new ColumnRangeFilter(b("c03"), true, b("c06"), false))))
        .containsExactly("f:c03", "f:c04", "f:c05");
    assertThat(columnNames(scan(new ColumnRangeFilter(b("c08"), false, b("flag"), true))))
        .containsExactly("f:c09", "f:dep", "f:flag");
    assertThat(qualifiers(table.get(new Get(b("r01")).setFilter(new ColumnCountGetFilter(2)))))
        .containsExactly("c00", "c01");
    List<Result> page = scan(new ColumnPaginationFilter(3, 2));
    assertThat(page).hasSize(ROWS);
    for (Result r : page) {
      // columns 2..4 of the row; rows with f:bad have it first
      int i = Integer.parseInt(Bytes.toString(r.getRow()).substring(1));
      assertThat(qualifiers(r))
          .containsExactlyElementsOf(
              i % 6 == 0 ? List.of("c01", "c02", "c03") : List.of("c02", "c03", "c04"));
    }
    assertThat(
            qualifiers(
                table.get(new Get(b("r01")).setFilter(new ColumnPaginationFilter(2, b("c08"))))))
        .containsExactly("c08", "c09");
    assertThat(
            columnNames(
                scan(new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(b("name"))))))
        .containsExactly("f:name");
    assertThat(
            columnNames(
                scan(new QualifierFilter(CompareOperator.GREATER, new BinaryComparator(b("n"))))))
        .containsExactly("f:name", "f:opt", "f:t", "g:x");
    List<Result> family = scan(new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(G)));
    assertThat(rows(family)).isEqualTo(rowsWhere(i -> i % 3 == 0));
    assertThat(columnNames(family)).containsExactly("g:x");
  }

  @Test
  void valueFilters() throws Exception {
    List<Result> on = scan(new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("on"))));
    assertThat(rows(on)).isEqualTo(rowsWhere(i -> i % 2 == 0));
    assertThat(columnNames(on)).containsExactly("f:flag");
    List<Result> names =
        scan(new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator("name-1[0-9]")));
    assertThat(rows(names)).isEqualTo(rowsWhere(i -> i / 10 == 1));

    List<Result> cvf = scan(new ColumnValueFilter(F, b("flag"), CompareOperator.EQUAL, b("on")));
    assertThat(rows(cvf)).isEqualTo(rowsWhere(i -> i % 2 == 0));
    assertThat(columnNames(cvf)).containsExactly("f:flag");
  }

  @Test
  void singleColumnValueFilters() throws Exception {
    List<Result> on =
        scan(new SingleColumnValueFilter(F, b("flag"), CompareOperator.EQUAL, b("on")));
    assertThat(rows(on)).isEqualTo(rowsWhere(i -> i % 2 == 0));
    assertThat(on.get(0).size()).isGreaterThan(10); // the whole row
    assertThat(on.get(0).getValue(F, b("flag"))).isEqualTo(b("on"));

    // rows without the column pass unless filterIfMissing
    SingleColumnValueFilter opt =
        new SingleColumnValueFilter(F, b("opt"), CompareOperator.EQUAL, b("opt"));
    assertThat(scan(opt)).hasSize(ROWS);
    SingleColumnValueFilter optRequired =
        new SingleColumnValueFilter(F, b("opt"), CompareOperator.EQUAL, b("opt"));
    optRequired.setFilterIfMissing(true);
    assertThat(rows(scan(optRequired))).isEqualTo(rowsWhere(i -> i % 4 == 0));

    // an older version matches only when not just the latest is tested
    SingleColumnValueFilter latest =
        new SingleColumnValueFilter(F, b("t"), CompareOperator.EQUAL, b("t10"));
    latest.setFilterIfMissing(true);
    assertThat(scan(new Scan().readAllVersions().setFilter(latest))).isEmpty();
    SingleColumnValueFilter anyVersion =
        new SingleColumnValueFilter(F, b("t"), CompareOperator.EQUAL, b("t10"));
    anyVersion.setFilterIfMissing(true);
    anyVersion.setLatestVersionOnly(false);
    assertThat(scan(new Scan().readAllVersions().setFilter(anyVersion))).hasSize(ROWS);

    // a long compared through a comparator
    assertThat(
            rows(
                scan(
                    new SingleColumnValueFilter(
                        F, b("n"), CompareOperator.LESS_OR_EQUAL, new LongComparator(2)))))
        .containsExactly("r00", "r01", "r02");

    SingleColumnValueExcludeFilter exclude =
        new SingleColumnValueExcludeFilter(F, b("flag"), CompareOperator.EQUAL, b("off"));
    List<Result> off = scan(exclude);
    assertThat(rows(off)).isEqualTo(rowsWhere(i -> i % 2 == 1));
    assertThat(columnNames(off)).doesNotContain("f:flag").contains("f:name", "f:c00");
  }

  @Test
  void dependentColumnAndTimestampsFilters() throws Exception {
    // cells whose timestamp some version of f:t has: f:t itself and f:dep (ts 20)
    List<Result> dep =
        scan(new Scan().readAllVersions().setFilter(new DependentColumnFilter(F, b("t"))));
    assertThat(dep).hasSize(ROWS);
    assertThat(columnNames(dep)).containsExactly("f:dep", "f:t");
    List<Result> dropped =
        scan(new Scan().readAllVersions().setFilter(new DependentColumnFilter(F, b("t"), true)));
    assertThat(rows(dropped)).isEqualTo(rowsWhere(i -> i % 5 == 0));
    assertThat(columnNames(dropped)).containsExactly("f:dep");
    List<Result> valued =
        scan(
            new Scan()
                .readAllVersions()
                .setFilter(
                    new DependentColumnFilter(
                        F, b("t"), false, CompareOperator.EQUAL, new BinaryComparator(b("t20")))));
    assertThat(valued).hasSize(ROWS);
    for (Result r : valued) {
      for (Cell c : r.rawCells()) {
        assertThat(c.getTimestamp()).isEqualTo(20);
      }
    }

    List<Result> ts =
        scan(new Scan().readAllVersions().setFilter(new TimestampsFilter(List.of(10L, 30L))));
    assertThat(ts).hasSize(ROWS);
    for (Result r : ts) {
      assertThat(StockClientFixtures.versions(r)).containsExactly("f:t@30=t30", "f:t@10=t10");
    }
    Result oneTs =
        table.get(
            new Get(b("r05")).setFilter(new TimestampsFilter(List.of(20L))).readAllVersions());
    assertThat(StockClientFixtures.versions(oneTs)).containsExactly("f:dep@20=dep", "f:t@20=t20");
  }

  // ---- filter lists

  @Test
  void filterListsAndOrNested() throws Exception {
    SingleColumnValueFilter on =
        new SingleColumnValueFilter(F, b("flag"), CompareOperator.EQUAL, b("on"));
    assertThat(
            rows(
                scan(
                    new FilterList(
                        FilterList.Operator.MUST_PASS_ALL, new PrefixFilter(b("r1")), on))))
        .isEqualTo(rowsWhere(i -> i / 10 == 1 && i % 2 == 0));
    assertThat(
            rows(
                scan(
                    new FilterList(
                        FilterList.Operator.MUST_PASS_ONE,
                        new PrefixFilter(b("r0")),
                        new PrefixFilter(b("r3"))))))
        .isEqualTo(rowsWhere(i -> i / 10 == 0 || i / 10 == 3));
    FilterList nested =
        new FilterList(
            FilterList.Operator.MUST_PASS_ALL,
            new FilterList(
                FilterList.Operator.MUST_PASS_ONE,
                new PrefixFilter(b("r0")),
                new PrefixFilter(b("r3"))),
            new SingleColumnValueFilter(F, b("flag"), CompareOperator.EQUAL, b("on")));
    assertThat(rows(scan(nested)))
        .isEqualTo(rowsWhere(i -> (i / 10 == 0 || i / 10 == 3) && i % 2 == 0));
    List<Result> rowsAndColumns =
        scan(
            new FilterList(
                FilterList.Operator.MUST_PASS_ALL,
                new PrefixFilter(b("r2")),
                new ColumnPrefixFilter(b("c0"))));
    assertThat(rows(rowsAndColumns)).isEqualTo(rowsWhere(i -> i / 10 == 2));
    assertThat(columnNames(rowsAndColumns)).allMatch(c -> c.startsWith("f:c0"));
    List<Result> eitherColumn =
        scan(
            new FilterList(
                FilterList.Operator.MUST_PASS_ONE,
                new ColumnPrefixFilter(b("name")),
                new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(G))));
    assertThat(columnNames(eitherColumn)).containsExactly("f:name", "g:x");
    // an empty list lets everything through
    assertThat(scan(new FilterList())).hasSize(ROWS);
    // a page filter in a list with a row filter, per region
    assertThat(
            rows(
                scan(
                    new FilterList(
                        FilterList.Operator.MUST_PASS_ALL,
                        new RowFilter(CompareOperator.NOT_EQUAL, new SubstringComparator("0")),
                        new PageFilter(2)))))
        .containsExactly("r11", "r12", "r21", "r22", "r31", "r32");
  }

  // ---- what the server does not know

  @Test
  void anUnsupportedFilterFailsFastNamingIt() throws Exception {
    @SuppressWarnings("deprecation")
    Filter old = new FirstKeyValueMatchingQualifiersFilter(Set.of(b("name")));
    Throwable onScan = catchThrowable(() -> firstOf(new Scan().setFilter(old)));
    assertThat(onScan)
        .isInstanceOf(DoNotRetryIOException.class)
        .hasMessageContaining("FirstKeyValueMatchingQualifiersFilter");
    Throwable onGet = catchThrowable(() -> table.get(new Get(b("r01")).setFilter(old)));
    assertThat(onGet)
        .isInstanceOf(DoNotRetryIOException.class)
        .hasMessageContaining("FirstKeyValueMatchingQualifiersFilter");

    Throwable custom =
        catchThrowable(() -> firstOf(new Scan().setFilter(new UnknownToTheServerFilter())));
    assertThat(custom)
        .isInstanceOf(DoNotRetryIOException.class)
        .hasMessageContaining(UnknownToTheServerFilter.class.getName());
    // the table still serves
    assertThat(s(table.get(new Get(b("r01"))).getValue(F, b("name")))).isEqualTo("name-1");
  }

  private static Result firstOf(Scan scan) throws Exception {
    try (ResultScanner rs = table.getScanner(scan)) {
      return rs.next();
    }
  }

  /** A filter class only this test knows; the server cannot load it. */
  public static final class UnknownToTheServerFilter extends FilterBase {
    @Override
    public byte[] toByteArray() {
      return new byte[0];
    }

    public static UnknownToTheServerFilter parseFrom(byte[] bytes) {
      return new UnknownToTheServerFilter();
    }
  }
}
