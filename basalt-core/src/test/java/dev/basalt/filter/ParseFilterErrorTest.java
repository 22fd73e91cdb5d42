package dev.basalt.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed filter strings: each error's reason and position, and how the message shows it. */
class ParseFilterErrorTest {

  private static FilterParseException error(String input) {
    FilterParseException e =
        catchThrowableOfType(() -> ParseFilter.parse(input), FilterParseException.class);
    assertThat(e).as("no error for %s", input).isNotNull();
    return e;
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        // input, position, a part of the reason
        Arguments.of("", 0, "the filter string is empty"),
        Arguments.of("   ", 3, "the filter string is empty"),
        Arguments.of("PrefixFilter('a') AND Foo('b')", 22, "unknown filter 'Foo'"),
        Arguments.of(
            "prefixfilter('a')", 0, "unknown filter 'prefixfilter'; did you mean PrefixFilter?"),
        Arguments.of("FuzzyRowFilter('a')", 0, "it has no filter-language form (as in HBase)"),
        Arguments.of("SkipFilter(PrefixFilter('a'))", 0, "use the SKIP operator"),
        Arguments.of("and", 0, "the operators AND, OR, SKIP and WHILE are upper case"),
        Arguments.of("PrefixFilter('a') and PrefixFilter('b')", 18, "upper case"),
        Arguments.of("PrefixFilter", 12, "expected '(' after PrefixFilter, got the end"),
        Arguments.of("PrefixFilter 'a'", 13, "expected '(' after PrefixFilter"),
        // unterminated quotes
        Arguments.of("PrefixFilter('abc)", 13, "unterminated quoted string"),
        Arguments.of("PrefixFilter('it's')", 17, "got 's' (a quote inside a string is written '')"),
        Arguments.of("PrefixFilter('a') AND PrefixFilter('b)", 35, "unterminated quoted string"),
        // parentheses
        Arguments.of("(PrefixFilter('a')", 0, "this '(' is never closed"),
        Arguments.of("((PrefixFilter('a'))", 0, "this '(' is never closed"),
        Arguments.of("PrefixFilter('a'))", 17, "this ')' has no matching '('"),
        Arguments.of(")", 0, "expected a filter, got ')'"),
        Arguments.of("()", 1, "expected a filter after '(', got ')'"),
        Arguments.of("PrefixFilter('a'", 12, "the argument list of PrefixFilter is never closed"),
        Arguments.of("PrefixFilter('a',", 12, "the argument list of PrefixFilter is never closed"),
        Arguments.of("PrefixFilter((", 13, "expected argument 1 in the arguments of PrefixFilter"),
        // operators out of place and trailing garbage
        Arguments.of("AND PrefixFilter('a')", 0, "expected a filter, got 'AND'"),
        Arguments.of("PrefixFilter('a') AND", 21, "expected a filter after 'AND', got the end"),
        Arguments.of("PrefixFilter('a') OR OR PrefixFilter('b')", 21, "after 'OR', got 'OR'"),
        Arguments.of("SKIP", 4, "expected a filter after 'SKIP'"),
        Arguments.of("PrefixFilter('a') SKIP PrefixFilter('b')", 18, "expected AND, OR or the end"),
        Arguments.of("PrefixFilter('a') PrefixFilter('b')", 18, "expected AND, OR or the end"),
        Arguments.of("PrefixFilter('a') 'x'", 18, "got the quoted string 'x'"),
        Arguments.of("(PrefixFilter('a') PrefixFilter('b'))", 19, "expected AND, OR or ')'"),
        Arguments.of("PrefixFilter('a') garbage", 18, "got 'garbage'"),
        // argument lists
        Arguments.of(
            "PrefixFilter('a' 'b')", 17, "expected ',' or ')' after the quoted string 'a'"),
        Arguments.of("PrefixFilter('a',)", 17, "expected argument 2 in the arguments"),
        Arguments.of("PrefixFilter(,'a')", 13, "expected argument 1 in the arguments"),
        Arguments.of("PageFilter(1 2)", 13, "expected ',' or ')' after '1'"),
        // argument counts
        Arguments.of(
            "PrefixFilter()",
            13,
            "PrefixFilter takes 1 argument, got 0; usage: PrefixFilter('rowPrefix')"),
        Arguments.of("PrefixFilter('a', 'b')", 18, "PrefixFilter takes 1 argument, got 2"),
        Arguments.of("FirstKeyOnlyFilter(true)", 19, "FirstKeyOnlyFilter takes 0 arguments, got 1"),
        Arguments.of(
            "KeyOnlyFilter(true, false)", 20, "KeyOnlyFilter takes 0 or 1 argument, got 2"),
        Arguments.of(
            "SingleColumnValueFilter('f', 'q', =, 'binary:v', true)",
            49,
            "takes 4 or 6 arguments, got 5"),
        Arguments.of("SingleColumnValueFilter('f', 'q', =)", 35, "takes 4 or 6 arguments, got 3"),
        Arguments.of("DependentColumnFilter('f')", 25, "takes 2, 3 or 5 arguments, got 1"),
        Arguments.of(
            "DependentColumnFilter('f', 'q', true, =)", 38, "takes 2, 3 or 5 arguments, got 4"),
        Arguments.of(
            "ColumnRangeFilter('a', true, 'b', false, 'c')", 41, "takes 4 arguments, got 5"),
        // argument types and ranges
        Arguments.of(
            "PrefixFilter(abc)", 13, "PrefixFilter: rowPrefix must be a quoted string, got 'abc'"),
        Arguments.of(
            "PageFilter('10')",
            11,
            "PageFilter: pageSize must be a whole number, got the quoted string '10'"),
        Arguments.of("PageFilter(1.5)", 11, "pageSize must be a whole number, got '1.5'"),
        Arguments.of("PageFilter(+1)", 11, "pageSize must be a whole number"),
        Arguments.of("PageFilter(-)", 11, "pageSize must be a whole number"),
        Arguments.of("PageFilter(١)", 11, "pageSize must be a whole number"),
        Arguments.of("PageFilter(-1)", 11, "PageFilter: pageSize must be at least 0, got -1"),
        Arguments.of(
            "PageFilter(9223372036854775808)",
            11,
            "pageSize does not fit in a long, got 9223372036854775808"),
        Arguments.of(
            "PageFilter(-9223372036854775809)",
            11,
            "pageSize must be at least 0, got -9223372036854775809"),
        Arguments.of(
            "ColumnCountGetFilter(99999999999999999999)",
            21,
            "limit is out of range (at most 2147483647)"),
        Arguments.of(
            "ColumnCountGetFilter(2147483648)", 21, "limit is out of range (at most 2147483647)"),
        Arguments.of("ColumnPaginationFilter(-5, 1)", 23, "limit must be at least 0, got -5"),
        Arguments.of("ColumnPaginationFilter(5, -1)", 26, "offset must be at least 0, got -1"),
        Arguments.of("TimestampsFilter(1, -2)", 20, "timestamp 2 must be at least 0, got -2"),
        Arguments.of(
            "KeyOnlyFilter(yes)", 14, "KeyOnlyFilter: lenAsVal must be true or false, got 'yes'"),
        Arguments.of("KeyOnlyFilter('true')", 14, "lenAsVal must be true or false"),
        Arguments.of(
            "ColumnRangeFilter('a', 1, 'b', false)",
            23,
            "minColumnInclusive must be true or false"),
        // compare operators
        Arguments.of(
            "RowFilter(==, 'binary:a')",
            10,
            "expected a compare operator, one of <, <=, =, !=, >=, >"),
        Arguments.of("RowFilter('=', 'binary:a')", 10, "(write it without quotes)"),
        Arguments.of("RowFilter(NO_OP, 'binary:a')", 10, "NO_OP has no use in a filter string"),
        Arguments.of("RowFilter(=<, 'binary:a')", 10, "got '=<'"),
        // comparators
        Arguments.of("RowFilter(=, 'a')", 13, "a comparator is written 'type:value'"),
        Arguments.of(
            "RowFilter(=, binary:a)", 13, "the comparator ('type:value') must be a quoted string"),
        Arguments.of(
            "RowFilter(=, 'long:5')",
            14,
            "unknown comparator type 'long', expected one of binary, binaryprefix, regexstring, substring"),
        Arguments.of("RowFilter(=, 'Binary:5')", 14, "(comparator types are lower case)"),
        Arguments.of(
            "RowFilter(<, 'regexstring:a.*')",
            10,
            "a regexstring comparator only works with = or !=, got <"),
        Arguments.of(
            "SingleColumnValueFilter('f', 'q', >, 'substring:a')",
            34,
            "a substring comparator only works with = or !="),
        Arguments.of("ValueFilter(=, 'regexstring:a[b')", 30, "invalid regular expression 'a[b'"),
        Arguments.of("ValueFilter(=, 'regexstring:*a')", 28, "invalid regular expression"),
        // escapes
        Arguments.of(
            "PrefixFilter('ab\\x4')",
            16,
            "malformed escape: \\x must be followed by two hex digits"),
        Arguments.of("PrefixFilter('\\xZZ')", 14, "malformed escape"),
        Arguments.of("RowFilter(=, 'binary:a\\x')", 22, "malformed escape"),
        Arguments.of("PrefixFilter('a''b\\x')", 18, "malformed escape"),
        // constructor checks
        Arguments.of("MultipleColumnPrefixFilter('a', 'b', 'a')", 0, "prefixes must be distinct"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("errors")
  void reportsTheProblemAndWhereItIs(String input, int position, String reason) {
    FilterParseException e = error(input);
    assertThat(e.getReason()).contains(reason);
    assertThat(e.getPosition()).isEqualTo(position);
    assertThat(e.getInput()).isEqualTo(input);
    assertThat(e).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theMessageShowsTheInputWithACaretUnderThePosition() {
    assertThat(error("PrefixFilter('a') AND Foo('b')"))
        .hasMessage(
            String.join(
                "\n",
                "unknown filter 'Foo' at position 22",
                "  PrefixFilter('a') AND Foo('b')",
                "                        ^"));
  }

  @Test
  void multiLineInputShowsTheLineAndColumn() {
    assertThat(error("PrefixFilter('a') AND\n  PageFilter(x)"))
        .hasMessage(
            String.join(
                "\n",
                "PageFilter: pageSize must be a whole number, got 'x' at position 35"
                    + " (line 2, column 14)",
                "    PageFilter(x)",
                "               ^"));
  }

  @Test
  void controlCharactersKeepTheCaretAligned() {
    assertThat(error("PrefixFilter('\u0001')\tX").getMessage())
        .endsWith("\n  PrefixFilter('?') X\n                    ^");
  }

  @Test
  void longInputIsCutAroundThePosition() {
    String input = "PrefixFilter('" + "a".repeat(200) + "') AND Foo('b')";
    FilterParseException e = error(input);
    assertThat(e.getPosition()).isEqualTo(221);
    String[] lines = e.getMessage().split("\n");
    assertThat(lines[1]).startsWith("  ...").endsWith("AND Foo('b')").hasSizeLessThan(110);
    assertThat(lines[1].charAt(lines[2].indexOf('^'))).isEqualTo('F');

    String atStart = "Foo('" + "a".repeat(200) + "')";
    String[] startLines = error(atStart).getMessage().split("\n");
    assertThat(startLines[1]).startsWith("  Foo('").endsWith("...");
    assertThat(startLines[2]).isEqualTo("  ^");
  }

  @Test
  void nestingBeyondTheLimitIsAnError() {
    int depth = FilterExpressionParser.MAX_DEPTH + 1;
    String parens = "(".repeat(depth) + "PrefixFilter('a')" + ")".repeat(depth);
    assertThat(error(parens).getReason()).isEqualTo("filters nested more than 100 levels deep");
    assertThat(error(parens).getPosition()).isEqualTo(depth - 1);
    String skips = "SKIP ".repeat(depth) + "PrefixFilter('a')";
    assertThat(error(skips).getPosition()).isEqualTo(5 * (depth - 1));
    // Far deeper input fails the same way instead of overflowing the stack.
    assertThat(error("(".repeat(100_000)).getReason()).contains("nested more than");
  }

  @Test
  void byteInputPositionsAreByteOffsets() {
    byte[] input = "PrefixFilter('é') AND Foo()".getBytes(StandardCharsets.UTF_8);
    FilterParseException e =
        catchThrowableOfType(() -> ParseFilter.parse(input), FilterParseException.class);
    assertThat(e.getPosition()).isEqualTo(23);
    assertThat(e.getReason()).isEqualTo("unknown filter 'Foo'");
  }

  @Test
  void nullInputIsAnIllegalArgument() {
    assertThatThrownBy(() -> ParseFilter.parse((String) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("filter string must not be null");
    assertThatThrownBy(() -> ParseFilter.parse((byte[]) null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
