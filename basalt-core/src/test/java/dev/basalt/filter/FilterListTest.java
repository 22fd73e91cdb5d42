package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.reversed;
import static dev.basalt.filter.Fixture.scan;
import static dev.basalt.filter.Fixture.scanReversed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.filter.Filter.ReturnCode;
import dev.basalt.filter.FilterList.Operator;
import dev.basalt.filter.MultiRowRangeFilter.RowRange;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class FilterListTest {
  private static final ReturnCode[] ORDER = {
    ReturnCode.INCLUDE,
    ReturnCode.INCLUDE_AND_NEXT_COL,
    ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW,
    ReturnCode.SKIP,
    ReturnCode.NEXT_COL,
    ReturnCode.NEXT_ROW,
    ReturnCode.SEEK_NEXT_USING_HINT
  };

  // HBase's documented tables: row = the member's code, column = the code so far (ORDER).
  private static final String[] AND_TABLE = {
    "I INC ISNR S NC NR H",
    "INC INC ISNR NC NC NR H",
    "ISNR ISNR ISNR NR NR NR H",
    "S NC NR S NC NR H",
    "NC NC NR NC NC NR H",
    "NR NR NR NR NR NR H",
    "H H H H H H H"
  };
  private static final String[] OR_TABLE = {
    "I I I I I I I",
    "I INC INC I INC INC I",
    "I INC ISNR I INC ISNR I",
    "I I I S S S S",
    "I INC INC S NC NC S",
    "I INC ISNR S NC NR S",
    "I I I S S S H"
  };

  private static ReturnCode parse(String s) {
    switch (s) {
      case "I":
        return ReturnCode.INCLUDE;
      case "INC":
        return ReturnCode.INCLUDE_AND_NEXT_COL;
      case "ISNR":
        return ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW;
      case "S":
        return ReturnCode.SKIP;
      case "NC":
        return ReturnCode.NEXT_COL;
      case "NR":
        return ReturnCode.NEXT_ROW;
      default:
        return ReturnCode.SEEK_NEXT_USING_HINT;
    }
  }

  @Test
  void answersMergeAsHBasesTablesSay() {
    for (int local = 0; local < ORDER.length; local++) {
      String[] and = AND_TABLE[local].split(" ");
      String[] or = OR_TABLE[local].split(" ");
      for (int sofar = 0; sofar < ORDER.length; sofar++) {
        assertThat(FilterListWithAND.merge(ORDER[sofar], ORDER[local]))
            .as("AND %s then %s", ORDER[sofar], ORDER[local])
            .isEqualTo(parse(and[sofar]));
        assertThat(FilterListWithOR.merge(ORDER[sofar], ORDER[local]))
            .as("OR %s then %s", ORDER[sofar], ORDER[local])
            .isEqualTo(parse(or[sofar]));
      }
    }
  }

  private static Region grid() throws IOException {
    Region r = Fixture.memory(3);
    for (String row : new String[] {"r1", "r2", "r3", "r4"}) {
      for (String q : new String[] {"a1", "a2", "b1", "c1", "c2", "d1"}) {
        put(r, row + "/f:" + q + "@1");
      }
      put(r, row + "/f:b1@2", row + "/g:a1@1", row + "/g:c3@1");
    }
    return r;
  }

  private static List<String> both(Region r, Supplier<Filter> f) throws IOException {
    List<String> fwd = scan(r, f.get());
    assertThat(scanReversed(r, f.get())).isEqualTo(reversed(fwd));
    return fwd;
  }

  private static List<String> cellsOf(List<String> rows) {
    List<String> out = new ArrayList<>();
    for (String row : rows) {
      String[] parts = row.split(" ");
      for (int i = 1; i < parts.length; i++) {
        out.add(parts[0] + "/" + parts[i].substring(0, parts[i].indexOf('=')));
      }
    }
    return out;
  }

  @Test
  void andIntersectsAndOrUnitesColumnFilters() throws IOException {
    Region r = grid();
    assertThat(
            cellsOf(
                both(
                    r,
                    () ->
                        new FilterList(
                            Operator.MUST_PASS_ALL,
                            new ColumnRangeFilter(b("a2"), true, b("c1"), true),
                            new MultipleColumnPrefixFilter(new byte[][] {b("a"), b("c")})))))
        .containsExactly(
            "r1/f:a2@1",
            "r1/f:c1@1",
            "r2/f:a2@1",
            "r2/f:c1@1",
            "r3/f:a2@1",
            "r3/f:c1@1",
            "r4/f:a2@1",
            "r4/f:c1@1");
    assertThat(
            cellsOf(
                both(
                    r,
                    () ->
                        new FilterList(
                            Operator.MUST_PASS_ONE,
                            new ColumnPrefixFilter(b("b")),
                            new ColumnPrefixFilter(b("d"))))))
        .filteredOn(s -> s.startsWith("r2/"))
        .containsExactly("r2/f:b1@2", "r2/f:b1@1", "r2/f:d1@1");
  }

  @Test
  void orTakesTheNearestHintInBothDirections() throws IOException {
    Region r = grid();
    Supplier<Filter> f =
        () ->
            new FilterList(
                Operator.MUST_PASS_ONE,
                new ColumnPrefixFilter(b("d")),
                new ColumnPrefixFilter(b("b")));
    assertThat(cellsOf(both(r, f)))
        .filteredOn(s -> s.startsWith("r3/"))
        .containsExactly("r3/f:b1@2", "r3/f:b1@1", "r3/f:d1@1");
    Spy spy = new Spy(f.get());
    scan(r, new Scan().setReversed(true).addFamily(Fixture.F).withStartRow(b("r1")).setFilter(spy));
    // a1 seeks to b (the nearer hint); reading one version, only b1's newest is shown. At c1 one
    // member seeks to d and the other leaves the row: as in HBase that merges to a plain step, so
    // c2 is seen (its members are not asked again).
    assertThat(spy.seen)
        .containsExactly("r1/f:a1@1", "r1/f:b1@2", "r1/f:c1@1", "r1/f:c2@1", "r1/f:d1@1");
  }

  @Test
  void orKeepsAMemberFromSeeingCellsItSkipped() throws IOException {
    Region r = grid();
    List<String> rows =
        scan(
            r,
            new Scan()
                .readAllVersions()
                .addFamily(Fixture.F)
                .withStopRow(b("r1"), true)
                .setFilter(
                    new FilterList(
                        Operator.MUST_PASS_ONE,
                        new ColumnPaginationFilter(1, 2),
                        new ColumnPrefixFilter(b("d")))));
    // The page member counts columns only: b1's older version does not count as a column.
    assertThat(cellsOf(rows)).containsExactly("r1/f:b1@2", "r1/f:d1@1");
  }

  @Test
  void nestedListsCombineRowAndColumnHints() throws IOException {
    Region r = grid();
    Supplier<Filter> f =
        () ->
            new FilterList(
                Operator.MUST_PASS_ONE,
                new FilterList(new PrefixFilter(b("r1")), new ColumnPrefixFilter(b("a"))),
                new FilterList(
                    new MultiRowRangeFilter(
                        new ArrayList<>(List.of(new RowRange("r3", true, "r4", true)))),
                    new ColumnRangeFilter(b("c2"), true, null, false)));
    assertThat(cellsOf(both(r, f)))
        .containsExactly(
            "r1/f:a1@1",
            "r1/f:a2@1",
            "r1/g:a1@1",
            "r3/f:c2@1",
            "r3/f:d1@1",
            "r3/g:c3@1",
            "r4/f:c2@1",
            "r4/f:d1@1",
            "r4/g:c3@1");
  }

  @Test
  void andLetsAHintingMemberSeekPastRowsAnotherMemberRejects() throws IOException {
    Region r = Fixture.memory(1);
    for (int i = 0; i < 10; i++) {
      put(r, "r" + i + "/f:q@1");
    }
    Spy spy =
        new Spy(
            new FilterList(
                new MultiRowRangeFilter(
                    new ArrayList<>(List.of(new RowRange("r5", true, "r7", false)))),
                new RowFilter(CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(b("r3")))));
    assertThat(scan(r, spy)).containsExactly("r5 f:q@1=r5q", "r6 f:q@1=r6q");
    assertThat(spy.rowKeys).containsExactly("r0", "r5", "r6", "r7");
  }

  @Test
  void andStopsAskingAtTheFirstMemberThatRejects() throws IOException {
    Region r = Fixture.memory(1);
    put(r, "a/f:q@1=0", "b/f:q@1=1", "c/f:q@1=1", "d/f:q@1=1", "e/f:q@1=0");
    // The page counts only rows whose cells the value filter let through.
    assertThat(
            scan(
                r,
                new FilterList(
                    new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("1"))),
                    new FirstKeyOnlyFilter(),
                    new ColumnCountGetFilter(5))))
        .hasSize(3);
  }

  @Test
  void transformationsComeFromTheMembersThatIncluded() throws IOException {
    Region r = grid();
    List<String> or =
        scan(
            r,
            new Scan()
                .withStopRow(b("r1"), true)
                .addFamily(Fixture.G)
                .setFilter(
                    new FilterList(
                        Operator.MUST_PASS_ONE,
                        new FilterList(new ColumnPrefixFilter(b("a")), new KeyOnlyFilter(true)),
                        new ColumnPrefixFilter(b("c")))));
    assertThat(or).containsExactly("r1 g:a1@1=\\x00\\x00\\x00\\x04 g:c3@1=r1c3");
    List<String> and =
        scan(
            r,
            new Scan()
                .withStopRow(b("r1"), true)
                .addFamily(Fixture.G)
                .setFilter(new FilterList(new KeyOnlyFilter(), new ColumnPrefixFilter(b("c")))));
    assertThat(and).containsExactly("r1 g:c3@1=");
  }

  @Test
  void wholeRowStepsCombine() throws IOException {
    Region r = Fixture.memory(1);
    put(r, "a/f:k@1=1", "a/f:v@1=x", "b/f:k@1=2", "b/f:v@1=y", "c/f:v@1=z");
    SingleColumnValueFilter k1 =
        new SingleColumnValueFilter(Fixture.F, b("k"), CompareOperator.EQUAL, b("1"));
    k1.setFilterIfMissing(true);
    SingleColumnValueFilter k2 =
        new SingleColumnValueFilter(Fixture.F, b("k"), CompareOperator.EQUAL, b("2"));
    k2.setFilterIfMissing(true);
    FilterList or = new FilterList(Operator.MUST_PASS_ONE, k1, k2);
    assertThat(or.hasFilterRow()).isTrue();
    assertThat(scan(r, or)).containsExactly("a f:k@1=1 f:v@1=x", "b f:k@1=2 f:v@1=y");
    SingleColumnValueFilter any =
        new SingleColumnValueFilter(Fixture.F, b("k"), CompareOperator.GREATER, b("0"));
    FilterList and =
        new FilterList(
            any,
            new SingleColumnValueExcludeFilter(
                Fixture.F, b("k"), CompareOperator.NOT_EQUAL, b("2")));
    assertThat(scan(r, and)).containsExactly("a f:v@1=x", "c f:v@1=z");
  }

  @Test
  void emptyListsPassEverything() throws IOException {
    Region r = grid();
    assertThat(scan(r, new FilterList(Operator.MUST_PASS_ALL))).hasSize(4);
    assertThat(scan(r, new FilterList(Operator.MUST_PASS_ONE))).hasSize(4);
    FilterList l = new FilterList(Operator.MUST_PASS_ONE);
    l.addFilter(new PrefixFilter(b("r2")));
    l.addFilter(List.of(new PrefixFilter(b("r3"))));
    assertThat(l.size()).isEqualTo(2);
    assertThat(both(r, () -> l2())).hasSize(2);
    assertThat(l.getOperator()).isEqualTo(Operator.MUST_PASS_ONE);
    assertThat(l.getFilters()).hasSize(2);
  }

  private static Filter l2() {
    FilterList l = new FilterList(Operator.MUST_PASS_ONE);
    l.addFilter(new PrefixFilter(b("r2")));
    l.addFilter(List.of(new PrefixFilter(b("r3"))));
    return l;
  }

  @Test
  void badListsAreRejected() {
    Filter rev = new KeyOnlyFilter();
    rev.setReversed(true);
    assertThatThrownBy(() -> new FilterList(new KeyOnlyFilter(), rev))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reversed");
    FilterList l = new FilterList(new KeyOnlyFilter());
    assertThatThrownBy(() -> l.addFilter(rev)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FilterList(new KeyOnlyFilter(), null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FilterList((Operator) null, new ArrayList<>()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("operator");
  }
}
