package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.scan;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.filter.FilterList.Operator;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parsed filters applied to a small in-memory region return the same rows and cells as the same
 * filters built by hand.
 */
class ParseFilterRegionTest {
  private Region r;

  @BeforeEach
  void load() throws IOException {
    r = Region.inMemory(Fixture.table(3), RegionServices.defaults());
    put(r, "\\x00k/f:a@1=x");
    put(r, "other/f:a@1=x", "other/f:d@1=d1", "other/f:d@2=d2");
    put(r, "user1/f:a1@1=x", "user1/f:a1@2=X2", "user1/f:a2@1=y", "user1/f:b@1=x");
    put(r, "user1/g:a@1=z");
    put(r, "user10/f:a@1=w");
    put(r, "user2/f:a1@1=x", "user2/f:c@1=q");
  }

  private static CompareOperator op(String name) {
    return CompareOperator.valueOf(name);
  }

  private static Filter list(Operator op, Filter... filters) {
    return new FilterList(op, filters);
  }

  static Stream<Arguments> pairs() {
    return Stream.of(
        pair(
            "PrefixFilter('user1') AND ColumnPrefixFilter('a') OR ValueFilter(=, 'binary:x')",
            () ->
                list(
                    Operator.MUST_PASS_ONE,
                    list(
                        Operator.MUST_PASS_ALL,
                        new PrefixFilter(b("user1")),
                        new ColumnPrefixFilter(b("a"))),
                    new ValueFilter(op("EQUAL"), new BinaryComparator(b("x"))))),
        pair(
            "SKIP ValueFilter(!=, 'binary:q')",
            () -> new SkipFilter(new ValueFilter(op("NOT_EQUAL"), new BinaryComparator(b("q"))))),
        pair(
            "WHILE RowFilter(<, 'binary:user1')",
            () ->
                new WhileMatchFilter(new RowFilter(op("LESS"), new BinaryComparator(b("user1"))))),
        pair(
            "SingleColumnValueFilter('f', 'c', =, 'binary:q', true, true)",
            () ->
                new SingleColumnValueFilter(
                    b("f"), b("c"), op("EQUAL"), new BinaryComparator(b("q")), true, true)),
        pair("PrefixFilter('\\x00')", () -> new PrefixFilter(new byte[] {0})),
        pair(
            "(FamilyFilter(=, 'binary:g') OR QualifierFilter(=, 'regexstring:^a[0-9]$'))"
                + " AND KeyOnlyFilter(true)",
            () ->
                list(
                    Operator.MUST_PASS_ALL,
                    list(
                        Operator.MUST_PASS_ONE,
                        new FamilyFilter(op("EQUAL"), new BinaryComparator(b("g"))),
                        new QualifierFilter(op("EQUAL"), new RegexStringComparator("^a[0-9]$"))),
                    new KeyOnlyFilter(true))),
        pair(
            "ColumnPaginationFilter(1, 1) AND PageFilter(2)",
            () ->
                list(Operator.MUST_PASS_ALL, new ColumnPaginationFilter(1, 1), new PageFilter(2))),
        pair("ColumnPaginationFilter(2, 'a2')", () -> new ColumnPaginationFilter(2, b("a2"))),
        pair(
            "TimestampsFilter(2) OR DependentColumnFilter('f', 'a1', true)",
            () ->
                list(
                    Operator.MUST_PASS_ONE,
                    new TimestampsFilter(List.of(2L)),
                    new DependentColumnFilter(b("f"), b("a1"), true))),
        pair(
            "ColumnRangeFilter('a1', false, 'c', true)",
            () -> new ColumnRangeFilter(b("a1"), false, b("c"), true)),
        pair(
            "InclusiveStopFilter('user1') AND FirstKeyOnlyFilter()",
            () ->
                list(
                    Operator.MUST_PASS_ALL,
                    new InclusiveStopFilter(b("user1")),
                    new FirstKeyOnlyFilter())),
        pair(
            "SingleColumnValueExcludeFilter('f', 'b', =, 'binary:x')",
            () ->
                new SingleColumnValueExcludeFilter(
                    b("f"), b("b"), op("EQUAL"), new BinaryComparator(b("x")))),
        pair(
            "ColumnValueFilter('f', 'a1', =, 'substring:X')",
            () ->
                new ColumnValueFilter(b("f"), b("a1"), op("EQUAL"), new SubstringComparator("X"))),
        pair(
            "MultipleColumnPrefixFilter('b', 'c') OR ColumnCountGetFilter(1)",
            () ->
                list(
                    Operator.MUST_PASS_ONE,
                    new MultipleColumnPrefixFilter(new byte[][] {b("b"), b("c")}),
                    new ColumnCountGetFilter(1))));
  }

  private static Arguments pair(String filterString, Supplier<Filter> byHand) {
    return Arguments.of(filterString, byHand);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pairs")
  void parsedFiltersReadLikeHandBuiltOnes(String filterString, Supplier<Filter> byHand)
      throws IOException {
    List<String> parsed = scan(r, ParseFilter.parse(filterString));
    assertThat(parsed).isEqualTo(scan(r, byHand.get())).isNotEmpty();
  }

  @Test
  void theIssueExampleReturnsTheAColumnsOfUser1PrefixedRowsAndEveryXValue() throws IOException {
    assertThat(
            scan(
                r,
                ParseFilter.parse(
                    "PrefixFilter('user1') AND ColumnPrefixFilter('a')"
                        + " OR ValueFilter(=, 'binary:x')")))
        .containsExactly(
            "\\x00k f:a@1=x",
            "other f:a@1=x",
            "user1 f:a1@2=X2 f:a1@1=x f:a2@1=y f:b@1=x g:a@1=z",
            "user10 f:a@1=w",
            "user2 f:a1@1=x");
  }
}
