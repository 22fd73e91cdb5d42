package dev.basalt.filter;

import static dev.basalt.filter.FilterShapes.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The operators, their precedence and grouping, parentheses and whitespace. Leaves are
 * PrefixFilters shown by their prefix, so {@code AND(a, OR(b, c))} reads as the tree the parser
 * built.
 */
class ParseFilterGrammarTest {

  @Test
  void theIssueExampleIsAnOrOfAnAndAndAValueFilter() {
    Filter f =
        ParseFilter.parse(
            "PrefixFilter('user1') AND ColumnPrefixFilter('a') OR ValueFilter(=, 'binary:x')");

    assertThat(f).isInstanceOf(FilterList.class);
    FilterList or = (FilterList) f;
    assertThat(or.getOperator()).isEqualTo(FilterList.Operator.MUST_PASS_ONE);
    assertThat(or.getFilters()).hasSize(2);

    FilterList and = (FilterList) or.getFilters().get(0);
    assertThat(and.getOperator()).isEqualTo(FilterList.Operator.MUST_PASS_ALL);
    assertThat(and.getFilters()).hasSize(2);
    assertThat(((PrefixFilter) and.getFilters().get(0)).getPrefix()).isEqualTo(b("user1"));
    assertThat(((ColumnPrefixFilter) and.getFilters().get(1)).getPrefix()).isEqualTo(b("a"));

    ValueFilter value = (ValueFilter) or.getFilters().get(1);
    assertThat(value.getCompareOperator()).isEqualTo(CompareOperator.EQUAL);
    assertThat(value.getComparator()).isEqualTo(new BinaryComparator(b("x")));
  }

  @Test
  void aSingleFilterIsNotWrapped() {
    assertThat(ParseFilter.parse("PrefixFilter('a')")).isInstanceOf(PrefixFilter.class);
    assertThat(ParseFilter.parse("((PrefixFilter('a')))")).isInstanceOf(PrefixFilter.class);
  }

  @Test
  void andBindsTighterThanOr() {
    assertThat(p("a AND b OR c")).isEqualTo("OR(AND(a, b), c)");
    assertThat(p("a OR b AND c")).isEqualTo("OR(a, AND(b, c))");
    assertThat(p("a OR b AND c OR d")).isEqualTo("OR(a, AND(b, c), d)");
    assertThat(p("a AND b OR c AND d")).isEqualTo("OR(AND(a, b), AND(c, d))");
  }

  @Test
  void operandsOfOneOperatorFormOneList() {
    assertThat(p("a AND b AND c")).isEqualTo("AND(a, b, c)");
    assertThat(p("a OR b OR c OR d")).isEqualTo("OR(a, b, c, d)");
  }

  @Test
  void parenthesesGroupAndStartANewList() {
    assertThat(p("a AND (b OR c)")).isEqualTo("AND(a, OR(b, c))");
    assertThat(p("(a AND b) AND c")).isEqualTo("AND(AND(a, b), c)");
    assertThat(p("(a OR b) AND (c OR d)")).isEqualTo("AND(OR(a, b), OR(c, d))");
    assertThat(p("((a))")).isEqualTo("a");
  }

  @Test
  void skipAndWhileBindTighterThanAnd() {
    // HBase's documented example: Filter1 AND SKIP Filter2 OR Filter3.
    assertThat(p("a AND SKIP b OR c")).isEqualTo("OR(AND(a, SKIP(b)), c)");
    assertThat(p("SKIP a AND b")).isEqualTo("AND(SKIP(a), b)");
    assertThat(p("WHILE a OR b")).isEqualTo("OR(WHILE(a), b)");
    assertThat(p("SKIP (a OR b)")).isEqualTo("SKIP(OR(a, b))");
    assertThat(p("WHILE SKIP a")).isEqualTo("WHILE(SKIP(a))");
    assertThat(p("SKIP SKIP a")).isEqualTo("SKIP(SKIP(a))");
  }

  @Test
  void operatorsNeedNoSpaceNextToParentheses() {
    assertThat(parse("PrefixFilter('a')AND(PrefixFilter('b'))OR PrefixFilter('c')"))
        .isEqualTo("OR(AND(a, b), c)");
    assertThat(parse("SKIP(PrefixFilter('a'))")).isEqualTo("SKIP(a)");
    assertThat(parse("(WHILE(PrefixFilter('a')))")).isEqualTo("WHILE(a)");
  }

  @Test
  void anyWhitespaceSeparatesTokens() {
    assertThat(parse(" \tPrefixFilter ( 'a' ) \n AND\r\n  PrefixFilter('b')\t"))
        .isEqualTo("AND(a, b)");
    assertThat(parse("ColumnRangeFilter ( 'a' ,true,\t'b' , false )"))
        .isEqualTo("ColumnRangeFilter [a, b)");
  }

  @Test
  void operatorWordsInsideQuotesAreData() {
    assertThat(parse("PrefixFilter('a AND b') OR PrefixFilter('(OR)')"))
        .isEqualTo("OR(a AND b, (OR))");
  }

  @Test
  void quotesInsideStringsAreDoubled() {
    assertThat(parse("PrefixFilter('it''s')")).isEqualTo("it's");
    assertThat(parse("PrefixFilter('''')")).isEqualTo("'");
    assertThat(parse("PrefixFilter('')")).isEqualTo("");
    assertThat(parse("PrefixFilter('a'')b')")).isEqualTo("a')b");
  }

  @Test
  void nestingUpToTheLimitParses() {
    int depth = FilterExpressionParser.MAX_DEPTH;
    String s = "(".repeat(depth) + "PrefixFilter('a')" + ")".repeat(depth);
    assertThat(ParseFilter.parse(s)).isInstanceOf(PrefixFilter.class);
    String skips = "SKIP ".repeat(depth) + "PrefixFilter('a')";
    assertThat(ParseFilter.parse(skips)).isInstanceOf(SkipFilter.class);
  }

  @Test
  void longFlatListsDoNotNest() {
    String s = String.join(" OR ", java.util.Collections.nCopies(5_000, "PrefixFilter('a')"));
    assertThat(((FilterList) ParseFilter.parse(s)).getFilters()).hasSize(5_000);
  }

  @Test
  void theInstanceApiMatchesHBasesNames() {
    ParseFilter parser = new ParseFilter();
    assertThat(FilterShapes.of(parser.parseFilterString("PrefixFilter('a') AND PrefixFilter('b')")))
        .isEqualTo("AND(a, b)");
    assertThat(FilterShapes.of(parser.parseFilterString(Bytes.toBytes("PrefixFilter('c')"))))
        .isEqualTo("c");
    assertThat(parser.getSupportedFilters()).isEqualTo(ParseFilter.supportedFilters());
  }

  /** Expands single letters to PrefixFilters, so precedence tests stay short. */
  private static String p(String compact) {
    return parse(compact.replaceAll("\\b([a-d])\\b", "PrefixFilter('$1')"));
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }
}
