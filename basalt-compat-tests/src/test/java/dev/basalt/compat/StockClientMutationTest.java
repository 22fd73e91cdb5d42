package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static dev.basalt.compat.StockClientFixtures.columns;
import static dev.basalt.compat.StockClientFixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Read-modify-write operations and batches through the stock client: increments, appends,
 * check-and-mutate in its builder and fluent forms with value and filter conditions, atomic row
 * mutations, and {@code Table.batch} mixing every kind of action, including one that fails.
 */
class StockClientMutationTest extends OneConnectionTest {
  private static final byte[] F = b("f");
  private static final byte[] G = b("g");
  private static final AtomicInteger TABLES = new AtomicInteger();

  /** A new table with families f and g (3 versions), split at m. */
  private static Table table() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      TableName tn =
          StockClientFixtures.create(
              admin,
              "mut_" + TABLES.incrementAndGet(),
              3,
              StockClientFixtures.splits("m"),
              "f",
              "g");
      return conn.getTable(tn);
    }
  }

  private static String value(Table t, String row, byte[] family, String q) throws Exception {
    return s(t.get(new Get(b(row))).getValue(family, b(q)));
  }

  private static long counter(Table t, String row, byte[] family, String q) throws Exception {
    return Bytes.toLong(t.get(new Get(b(row))).getValue(family, b(q)));
  }

  // ---- increments and appends

  @Test
  void incrementsStartFromZeroAndReturnTheNewValues() throws Exception {
    try (Table t = table()) {
      Result r = t.increment(new Increment(b("a")).addColumn(F, b("c"), 5));
      assertThat(Bytes.toLong(r.getValue(F, b("c")))).isEqualTo(5);
      r = t.increment(new Increment(b("a")).addColumn(F, b("c"), -7));
      assertThat(Bytes.toLong(r.getValue(F, b("c")))).isEqualTo(-2);
      assertThat(counter(t, "a", F, "c")).isEqualTo(-2);

      // several columns in two families at once; only the incremented cells come back
      t.put(new Put(b("z")).addColumn(F, b("other"), b("x")));
      r =
          t.increment(
              new Increment(b("z"))
                  .addColumn(F, b("c1"), 1)
                  .addColumn(F, b("c2"), 10)
                  .addColumn(G, b("c3"), 100));
      assertThat(r.size()).isEqualTo(3);
      assertThat(Bytes.toLong(r.getValue(F, b("c1")))).isEqualTo(1);
      assertThat(Bytes.toLong(r.getValue(F, b("c2")))).isEqualTo(10);
      assertThat(Bytes.toLong(r.getValue(G, b("c3")))).isEqualTo(100);
      r = t.increment(new Increment(b("z")).addColumn(F, b("c1"), 1).addColumn(G, b("c3"), 1));
      assertThat(Bytes.toLong(r.getValue(F, b("c1")))).isEqualTo(2);
      assertThat(Bytes.toLong(r.getValue(G, b("c3")))).isEqualTo(101);
      assertThat(t.get(new Get(b("z"))).size()).isEqualTo(4);

      // incrementColumnValue, with and without a durability
      assertThat(t.incrementColumnValue(b("b"), F, b("n"), 3)).isEqualTo(3);
      assertThat(t.incrementColumnValue(b("b"), F, b("n"), 4)).isEqualTo(7);
      assertThat(t.incrementColumnValue(b("b"), F, b("n"), 0)).isEqualTo(7);
      assertThat(t.incrementColumnValue(b("b"), F, b("n"), 1, Durability.SKIP_WAL)).isEqualTo(8);
      assertThat(counter(t, "b", F, "n")).isEqualTo(8);

      // a counter written as a long by a put can be incremented
      t.put(new Put(b("p")).addColumn(F, b("n"), Bytes.toBytes(40L)));
      assertThat(t.incrementColumnValue(b("p"), F, b("n"), 2)).isEqualTo(42);

      // results turned off: the increment is applied, nothing comes back
      Increment quiet = new Increment(b("q")).addColumn(F, b("n"), 9);
      quiet.setReturnResults(false);
      assertThat(t.increment(quiet).isEmpty()).isTrue();
      assertThat(counter(t, "q", F, "n")).isEqualTo(9);
    }
  }

  @Test
  void incrementingAValueThatIsNotALongFailsAtOnce() throws Exception {
    try (Table t = table()) {
      t.put(new Put(b("a")).addColumn(F, b("s"), b("text")));
      assertThatThrownBy(() -> t.increment(new Increment(b("a")).addColumn(F, b("s"), 1)))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("long");
      assertThat(value(t, "a", F, "s")).isEqualTo("text");
      assertThatThrownBy(() -> t.increment(new Increment(b("a")).addColumn(b("nope"), b("s"), 1)))
          .isInstanceOf(NoSuchColumnFamilyException.class);
    }
  }

  @Test
  void appendsConcatenateAndReturnTheNewValues() throws Exception {
    try (Table t = table()) {
      Result r = t.append(new Append(b("a")).addColumn(F, b("s"), b("he")));
      assertThat(s(r.getValue(F, b("s")))).isEqualTo("he");
      r = t.append(new Append(b("a")).addColumn(F, b("s"), b("llo")).addColumn(G, b("t"), b("!")));
      assertThat(columns(r)).containsExactly(Map.entry("f:s", "hello"), Map.entry("g:t", "!"));
      t.put(new Put(b("x")).addColumn(F, b("s"), b("abc")));
      t.append(new Append(b("x")).addColumn(F, b("s"), b("def")));
      assertThat(value(t, "x", F, "s")).isEqualTo("abcdef");
      Append quiet = new Append(b("x")).addColumn(F, b("s"), b("g"));
      quiet.setReturnResults(false);
      assertThat(t.append(quiet).isEmpty()).isTrue();
      assertThat(value(t, "x", F, "s")).isEqualTo("abcdefg");
    }
  }

  // ---- check-and-mutate

  @Test
  void checkAndMutateWithTheBuilderApi() throws Exception {
    try (Table t = table()) {
      byte[] row = b("row");
      // ifNotExists: the first put wins, the second does nothing
      CheckAndMutateResult r =
          t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifNotExists(F, b("q"))
                  .build(new Put(row).addColumn(F, b("q"), b("5"))));
      assertThat(r.isSuccess()).isTrue();
      r =
          t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifNotExists(F, b("q"))
                  .build(new Put(row).addColumn(F, b("q"), b("6"))));
      assertThat(r.isSuccess()).isFalse();
      assertThat(value(t, "row", F, "q")).isEqualTo("5");

      // ifEquals
      assertThat(
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row)
                          .ifEquals(F, b("q"), b("4"))
                          .build(new Put(row).addColumn(F, b("q"), b("x"))))
                  .isSuccess())
          .isFalse();
      assertThat(
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row)
                          .ifEquals(F, b("q"), b("5"))
                          .build(new Put(row).addColumn(F, b("p"), b("set"))))
                  .isSuccess())
          .isTrue();
      assertThat(value(t, "row", F, "p")).isEqualTo("set");

      // ifMatches compares the given value with the stored one: LESS holds when given < stored
      assertThat(matches(t, row, CompareOperator.LESS, "3")).isTrue();
      assertThat(matches(t, row, CompareOperator.LESS, "7")).isFalse();
      assertThat(matches(t, row, CompareOperator.GREATER, "7")).isTrue();
      assertThat(matches(t, row, CompareOperator.GREATER, "3")).isFalse();
      assertThat(matches(t, row, CompareOperator.LESS_OR_EQUAL, "5")).isTrue();
      assertThat(matches(t, row, CompareOperator.GREATER_OR_EQUAL, "5")).isTrue();
      assertThat(matches(t, row, CompareOperator.NOT_EQUAL, "5")).isFalse();
      assertThat(matches(t, row, CompareOperator.NOT_EQUAL, "6")).isTrue();
      assertThat(matches(t, row, CompareOperator.EQUAL, "5")).isTrue();
      t.delete(new Delete(row).addFamily(G)); // the probes' cells

      // build(delete)
      assertThat(
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row)
                          .ifEquals(F, b("q"), b("5"))
                          .build(new Delete(row).addColumns(F, b("p"))))
                  .isSuccess())
          .isTrue();
      assertThat(t.get(new Get(row)).containsColumn(F, b("p"))).isFalse();

      // build(rowMutations): both or neither
      RowMutations rm =
          RowMutations.of(
              List.of(
                  new Put(row).addColumn(G, b("a"), b("1")),
                  new Delete(row).addColumns(F, b("q"))));
      assertThat(
              t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(F, b("q"), b("0")).build(rm))
                  .isSuccess())
          .isFalse();
      assertThat(t.get(new Get(row)).size()).isEqualTo(1);
      assertThat(
              t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(F, b("q"), b("5")).build(rm))
                  .isSuccess())
          .isTrue();
      assertThat(columns(t.get(new Get(row)))).containsExactly(Map.entry("g:a", "1"));

      // build(increment) and build(append) return the new cells
      CheckAndMutateResult inc =
          t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifEquals(G, b("a"), b("1"))
                  .build(new Increment(row).addColumn(G, b("n"), 7)));
      assertThat(inc.isSuccess()).isTrue();
      assertThat(Bytes.toLong(inc.getResult().getValue(G, b("n")))).isEqualTo(7);
      CheckAndMutateResult app =
          t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifNotExists(G, b("missing"))
                  .build(new Append(row).addColumn(G, b("a"), b("23"))));
      assertThat(app.isSuccess()).isTrue();
      assertThat(s(app.getResult().getValue(G, b("a")))).isEqualTo("123");

      // a time range restricts the version checked
      t.put(new Put(row).addColumn(F, b("v"), 100, b("old")));
      t.put(new Put(row).addColumn(F, b("v"), 200, b("new")));
      assertThat(
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row)
                          .ifEquals(F, b("v"), b("old"))
                          .timeRange(TimeRange.between(0, 150))
                          .build(new Put(row).addColumn(F, b("w"), b("1"))))
                  .isSuccess())
          .isTrue();
      assertThat(
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row)
                          .ifEquals(F, b("v"), b("old"))
                          .build(new Put(row).addColumn(F, b("w"), b("2"))))
                  .isSuccess())
          .isFalse();
      assertThat(value(t, "row", F, "w")).isEqualTo("1");
    }
  }

  private static boolean matches(Table t, byte[] row, CompareOperator op, String given)
      throws Exception {
    return t.checkAndMutate(
            CheckAndMutate.newBuilder(row)
                .ifMatches(F, b("q"), op, b(given))
                .build(new Put(row).addColumn(G, b("probe"), b(op.name()))))
        .isSuccess();
  }

  @Test
  void checkAndMutateFluentApi() throws Exception {
    try (Table t = table()) {
      byte[] row = b("n1");
      assertThat(
              t.checkAndMutate(row, F)
                  .qualifier(b("q"))
                  .ifNotExists()
                  .thenPut(new Put(row).addColumn(F, b("q"), b("a"))))
          .isTrue();
      assertThat(
              t.checkAndMutate(row, F)
                  .qualifier(b("q"))
                  .ifEquals(b("b"))
                  .thenPut(new Put(row).addColumn(F, b("q"), b("c"))))
          .isFalse();
      assertThat(
              t.checkAndMutate(row, F)
                  .qualifier(b("q"))
                  .ifEquals(b("a"))
                  .thenPut(new Put(row).addColumn(F, b("q"), b("b"))))
          .isTrue();
      assertThat(value(t, "n1", F, "q")).isEqualTo("b");
      assertThat(
              t.checkAndMutate(row, F)
                  .qualifier(b("q"))
                  .ifMatches(CompareOperator.NOT_EQUAL, b("b"))
                  .thenDelete(new Delete(row)))
          .isFalse();
      assertThat(
              t.checkAndMutate(row, F)
                  .qualifier(b("q"))
                  .ifMatches(CompareOperator.EQUAL, b("b"))
                  .thenMutate(
                      RowMutations.of(
                          List.of(
                              new Put(row).addColumn(F, b("r"), b("1")),
                              new Put(row).addColumn(G, b("r"), b("2"))))))
          .isTrue();
      assertThat(t.get(new Get(row)).size()).isEqualTo(3);
      assertThat(
              t.checkAndMutate(row, F)
                  .qualifier(b("q"))
                  .ifEquals(b("b"))
                  .thenDelete(new Delete(row)))
          .isTrue();
      assertThat(t.exists(new Get(row))).isFalse();
    }
  }

  @Test
  void checkAndMutateWithFilterConditions() throws Exception {
    try (Table t = table()) {
      byte[] row = b("fr");
      t.put(new Put(row).addColumn(F, b("status"), b("open")).addColumn(F, b("n"), b("7")));
      SingleColumnValueFilter isOpen =
          new SingleColumnValueFilter(F, b("status"), CompareOperator.EQUAL, b("open"));
      assertThat(
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row)
                          .ifMatches(isOpen)
                          .build(new Put(row).addColumn(F, b("status"), b("closed"))))
                  .isSuccess())
          .isTrue();
      assertThat(
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row)
                          .ifMatches(
                              new SingleColumnValueFilter(
                                  F, b("status"), CompareOperator.EQUAL, b("open")))
                          .build(new Put(row).addColumn(F, b("status"), b("reopened"))))
                  .isSuccess())
          .isFalse();
      assertThat(value(t, "fr", F, "status")).isEqualTo("closed");

      // a filter list; the row matches when something passes the filter
      FilterList both =
          new FilterList(
              FilterList.Operator.MUST_PASS_ALL,
              new PrefixFilter(b("f")),
              new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("7"))));
      CheckAndMutateResult r =
          t.checkAndMutate(
              CheckAndMutate.newBuilder(row)
                  .ifMatches(both)
                  .build(new Increment(row).addColumn(G, b("hits"), 1)));
      assertThat(r.isSuccess()).isTrue();
      assertThat(Bytes.toLong(r.getResult().getValue(G, b("hits")))).isEqualTo(1);
      FilterList none =
          new FilterList(
              FilterList.Operator.MUST_PASS_ALL,
              new PrefixFilter(b("x")),
              new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("7"))));
      assertThat(
              t.checkAndMutate(
                      CheckAndMutate.newBuilder(row).ifMatches(none).build(new Delete(row)))
                  .isSuccess())
          .isFalse();
      assertThat(t.exists(new Get(row))).isTrue();

      // the deprecated fluent form with a filter
      assertThat(
              t.checkAndMutate(
                      row, new SingleColumnValueFilter(F, b("n"), CompareOperator.EQUAL, b("7")))
                  .thenDelete(new Delete(row).addFamily(G)))
          .isTrue();
      assertThat(t.get(new Get(row)).getFamilyMap(G)).isEmpty();
    }
  }

  @Test
  void checkAndMutateManyAtOnce() throws Exception {
    try (Table t = table()) {
      t.put(new Put(b("c1")).addColumn(F, b("q"), b("1")));
      t.put(new Put(b("x1")).addColumn(F, b("q"), b("1")));
      List<CheckAndMutateResult> rs =
          t.checkAndMutate(
              List.of(
                  CheckAndMutate.newBuilder(b("c1"))
                      .ifEquals(F, b("q"), b("1"))
                      .build(new Put(b("c1")).addColumn(F, b("q"), b("2"))),
                  CheckAndMutate.newBuilder(b("x1"))
                      .ifEquals(F, b("q"), b("9"))
                      .build(new Put(b("x1")).addColumn(F, b("q"), b("2"))),
                  CheckAndMutate.newBuilder(b("y1"))
                      .ifNotExists(F, b("q"))
                      .build(new Increment(b("y1")).addColumn(F, b("n"), 3))));
      assertThat(rs).hasSize(3);
      assertThat(rs.get(0).isSuccess()).isTrue();
      assertThat(rs.get(1).isSuccess()).isFalse();
      assertThat(rs.get(2).isSuccess()).isTrue();
      assertThat(Bytes.toLong(rs.get(2).getResult().getValue(F, b("n")))).isEqualTo(3);
      assertThat(value(t, "c1", F, "q")).isEqualTo("2");
      assertThat(value(t, "x1", F, "q")).isEqualTo("1");
    }
  }

  // ---- row mutations and batches

  @Test
  void mutateRowAppliesPutsAndDeletesAtomically() throws Exception {
    try (Table t = table()) {
      byte[] row = b("rm");
      t.put(new Put(row).addColumn(F, b("gone"), b("x")).addColumn(F, b("kept"), b("y")));
      t.mutateRow(
          RowMutations.of(
              List.of(
                  new Put(row).addColumn(F, b("new"), b("1")).addColumn(G, b("new"), b("2")),
                  new Delete(row).addColumns(F, b("gone")))));
      assertThat(columns(t.get(new Get(row))))
          .containsExactly(
              Map.entry("f:kept", "y"), Map.entry("f:new", "1"), Map.entry("g:new", "2"));

      // one bad mutation (unknown family) fails the whole row mutation
      RowMutations bad =
          RowMutations.of(
              List.of(
                  new Put(row).addColumn(F, b("never"), b("1")),
                  new Put(row).addColumn(b("nope"), b("q"), b("1"))));
      // as with HBase, the sync client reports it through RetriesExhaustedWithDetailsException
      Throwable thrown = catchThrowable(() -> t.mutateRow(bad));
      assertThat(thrown).isInstanceOf(RetriesExhaustedWithDetailsException.class);
      assertThat(((RetriesExhaustedWithDetailsException) thrown).getCause(0))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      assertThat(t.get(new Get(row)).containsColumn(F, b("never"))).isFalse();
    }
  }

  @Test
  void mutateRowWithIncrementsAndAppendsReturnsTheirCells() throws Exception {
    try (Table t = table()) {
      byte[] row = b("rmi");
      t.put(new Put(row).addColumn(F, b("s"), b("ab")));
      Result r =
          t.mutateRow(
              RowMutations.of(
                  List.of(
                      new Increment(row).addColumn(F, b("n"), 5),
                      new Put(row).addColumn(G, b("p"), b("v")),
                      new Append(row).addColumn(F, b("s"), b("cd")))));
      assertThat(Bytes.toLong(r.getValue(F, b("n")))).isEqualTo(5);
      assertThat(s(r.getValue(F, b("s")))).isEqualTo("abcd");
      assertThat(value(t, "rmi", G, "p")).isEqualTo("v");
      assertThat(value(t, "rmi", F, "s")).isEqualTo("abcd");
    }
  }

  @Test
  void batchMixesEveryActionAcrossRegions() throws Exception {
    try (Table t = table()) {
      t.put(
          List.of(
              new Put(b("a")).addColumn(F, b("q"), b("a0")),
              new Put(b("n")).addColumn(F, b("q"), b("n0")),
              new Put(b("z")).addColumn(F, b("q"), b("z0"))));
      List<Row> actions =
          List.of(
              new Put(b("b")).addColumn(F, b("q"), b("b1")),
              new Get(b("a")),
              new Delete(b("n")),
              new Increment(b("c")).addColumn(F, b("n"), 2),
              new Get(b("z")).addColumn(F, b("q")),
              new Append(b("z")).addColumn(F, b("q"), b("!")),
              new Put(b("o")).addColumn(G, b("q"), b("o1")),
              new Get(b("missing")),
              RowMutations.of(
                  List.of(
                      new Put(b("p")).addColumn(F, b("q"), b("p1")),
                      new Put(b("p")).addColumn(G, b("q"), b("p2")))),
              CheckAndMutate.newBuilder(b("a"))
                  .ifEquals(F, b("q"), b("a0"))
                  .build(new Put(b("a")).addColumn(G, b("checked"), b("yes"))));
      Object[] results = new Object[actions.size()];
      t.batch(actions, results);
      assertThat(results).allSatisfy(r -> assertThat(r).isNotNull());
      assertThat(((Result) results[0]).isEmpty()).isTrue();
      assertThat(s(((Result) results[1]).getValue(F, b("q")))).isEqualTo("a0");
      assertThat(((Result) results[2]).isEmpty()).isTrue();
      assertThat(Bytes.toLong(((Result) results[3]).getValue(F, b("n")))).isEqualTo(2);
      assertThat(((Result) results[7]).isEmpty()).isTrue();
      assertThat(((CheckAndMutateResult) results[9]).isSuccess()).isTrue();
      // the get and the append of z ran in order within the region
      String zGet = s(((Result) results[4]).getValue(F, b("q")));
      assertThat(zGet).isIn("z0", "z0!");
      assertThat(s(((Result) results[5]).getValue(F, b("q")))).isEqualTo("z0!");

      assertThat(value(t, "b", F, "q")).isEqualTo("b1");
      assertThat(t.exists(new Get(b("n")))).isFalse();
      assertThat(value(t, "o", G, "q")).isEqualTo("o1");
      assertThat(columns(t.get(new Get(b("p")))))
          .containsExactly(Map.entry("f:q", "p1"), Map.entry("g:q", "p2"));
      assertThat(value(t, "a", G, "checked")).isEqualTo("yes");
    }
  }

  @Test
  void aFailedActionInABatchIsReportedAndTheOthersSucceed() throws Exception {
    try (Table t = table()) {
      List<Row> actions =
          List.of(
              new Put(b("a")).addColumn(F, b("q"), b("1")),
              new Put(b("b")).addColumn(b("nope"), b("q"), b("2")),
              new Put(b("c")).addColumn(F, b("q"), b("3")),
              new Get(b("a")),
              new Put(b("y")).addColumn(F, b("q"), b("4")),
              new Increment(b("y")).addColumn(F, b("q"), 1));
      Object[] results = new Object[actions.size()];
      Throwable thrown = catchThrowable(() -> t.batch(actions, results));
      assertThat(thrown).isInstanceOf(RetriesExhaustedWithDetailsException.class);
      RetriesExhaustedWithDetailsException e = (RetriesExhaustedWithDetailsException) thrown;
      // the put of an unknown family and the increment of a non-long fail; nothing is retried
      assertThat(e.getNumExceptions()).isEqualTo(2);
      List<String> failedRows = new ArrayList<>();
      for (int i = 0; i < e.getNumExceptions(); i++) {
        failedRows.add(s(e.getRow(i).getRow()));
      }
      assertThat(failedRows).containsExactlyInAnyOrder("b", "y");
      assertThat(results[1]).isInstanceOf(NoSuchColumnFamilyException.class);
      assertThat(results[5]).isInstanceOf(DoNotRetryIOException.class);
      assertThat(((Throwable) results[5]).getMessage()).contains("long");
      assertThat(results[0]).isInstanceOf(Result.class);
      assertThat(results[2]).isInstanceOf(Result.class);
      assertThat(results[4]).isInstanceOf(Result.class);
      assertThat(value(t, "a", F, "q")).isEqualTo("1");
      assertThat(value(t, "c", F, "q")).isEqualTo("3");
      assertThat(value(t, "y", F, "q")).isEqualTo("4");
      assertThat(t.exists(new Get(b("b")))).isFalse();

      // Table.put(List) reports the failing put the same way
      Throwable putList =
          catchThrowable(
              () ->
                  t.put(
                      List.of(
                          new Put(b("d")).addColumn(F, b("q"), b("1")),
                          new Put(b("e")).addColumn(b("nope"), b("q"), b("1")))));
      assertThat(putList).isInstanceOf(RetriesExhaustedWithDetailsException.class);
      assertThat(((RetriesExhaustedWithDetailsException) putList).getCause(0))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      assertThat(value(t, "d", F, "q")).isEqualTo("1");

      // a single put to an unknown family
      assertThatThrownBy(() -> t.put(new Put(b("f")).addColumn(b("nope"), b("q"), b("1"))))
          .isInstanceOf(NoSuchColumnFamilyException.class);
    }
  }
}
