package dev.basalt.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every filter of the language parsed from HBase-style strings, checked through its getters; the
 * argument forms (numbers, booleans, operators, comparators, byte strings); the name list.
 */
class ParseFilterCatalogTest {

  @SuppressWarnings("unchecked")
  private static <T extends Filter> T parse(String s, Class<T> type) {
    Filter f = ParseFilter.parse(s);
    assertThat(f).isExactlyInstanceOf(type);
    return (T) f;
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  @Test
  void theNamesAreExactlyHBase2sRegisteredFilters() {
    assertThat(ParseFilter.supportedFilters())
        .containsExactly(
            "ColumnCountGetFilter",
            "ColumnPaginationFilter",
            "ColumnPrefixFilter",
            "ColumnRangeFilter",
            "ColumnValueFilter",
            "DependentColumnFilter",
            "FamilyFilter",
            "FirstKeyOnlyFilter",
            "InclusiveStopFilter",
            "KeyOnlyFilter",
            "MultipleColumnPrefixFilter",
            "PageFilter",
            "PrefixFilter",
            "QualifierFilter",
            "RowFilter",
            "SingleColumnValueExcludeFilter",
            "SingleColumnValueFilter",
            "TimestampsFilter",
            "ValueFilter");
  }

  @Test
  void everyNameHasAUsageThatStartsWithIt() {
    for (String name : ParseFilter.supportedFilters()) {
      assertThat(ParseFilter.usage(name)).hasValueSatisfying(u -> assertThat(u).startsWith(name));
    }
    assertThat(ParseFilter.usage("PrefixFilter")).hasValue("PrefixFilter('rowPrefix')");
    assertThat(ParseFilter.usage("FuzzyRowFilter")).isEmpty();
    assertThat(ParseFilter.usage(null)).isEmpty();
  }

  @Test
  void keyOnlyFilter() {
    assertThat(parse("KeyOnlyFilter()", KeyOnlyFilter.class).isLenAsVal()).isFalse();
    assertThat(parse("KeyOnlyFilter(true)", KeyOnlyFilter.class).isLenAsVal()).isTrue();
    assertThat(parse("KeyOnlyFilter(FALSE)", KeyOnlyFilter.class).isLenAsVal()).isFalse();
    assertThat(parse("KeyOnlyFilter(True)", KeyOnlyFilter.class).isLenAsVal()).isTrue();
  }

  @Test
  void firstKeyOnlyFilter() {
    parse("FirstKeyOnlyFilter()", FirstKeyOnlyFilter.class);
    parse("FirstKeyOnlyFilter ( )", FirstKeyOnlyFilter.class);
  }

  @Test
  void prefixAndColumnPrefixAndInclusiveStopFilters() {
    assertThat(parse("PrefixFilter('row1')", PrefixFilter.class).getPrefix()).isEqualTo(b("row1"));
    assertThat(parse("ColumnPrefixFilter('q')", ColumnPrefixFilter.class).getPrefix())
        .isEqualTo(b("q"));
    assertThat(parse("InclusiveStopFilter('row9')", InclusiveStopFilter.class).getStopRowKey())
        .isEqualTo(b("row9"));
    assertThat(parse("PrefixFilter('')", PrefixFilter.class).getPrefix()).isEmpty();
  }

  @Test
  void multipleColumnPrefixFilter() {
    MultipleColumnPrefixFilter f =
        parse("MultipleColumnPrefixFilter('c', 'a', 'b')", MultipleColumnPrefixFilter.class);
    assertThat(f.getPrefix()).isDeepEqualTo(new byte[][] {b("a"), b("b"), b("c")});
    assertThat(parse("MultipleColumnPrefixFilter()", MultipleColumnPrefixFilter.class).getPrefix())
        .isEmpty();
  }

  @Test
  void countAndPageFilters() {
    assertThat(parse("ColumnCountGetFilter(4)", ColumnCountGetFilter.class).getLimit())
        .isEqualTo(4);
    assertThat(parse("PageFilter(10)", PageFilter.class).getPageSize()).isEqualTo(10);
    assertThat(parse("PageFilter(9223372036854775807)", PageFilter.class).getPageSize())
        .isEqualTo(Long.MAX_VALUE);
    assertThat(parse("ColumnCountGetFilter(2147483647)", ColumnCountGetFilter.class).getLimit())
        .isEqualTo(Integer.MAX_VALUE);
    assertThat(parse("PageFilter(007)", PageFilter.class).getPageSize()).isEqualTo(7);
    assertThat(parse("PageFilter(-0)", PageFilter.class).getPageSize()).isZero();
  }

  @Test
  void columnPaginationFilterTakesAnOffsetOrAColumnOffset() {
    ColumnPaginationFilter f = parse("ColumnPaginationFilter(3, 5)", ColumnPaginationFilter.class);
    assertThat(f.getLimit()).isEqualTo(3);
    assertThat(f.getOffset()).isEqualTo(5);
    assertThat(f.getColumnOffset()).isNull();

    ColumnPaginationFilter c =
        parse("ColumnPaginationFilter(3, 'q5')", ColumnPaginationFilter.class);
    assertThat(c.getLimit()).isEqualTo(3);
    assertThat(c.getOffset()).isEqualTo(-1);
    assertThat(c.getColumnOffset()).isEqualTo(b("q5"));
  }

  @Test
  void timestampsFilter() {
    TimestampsFilter f = parse("TimestampsFilter(300, 100, 200, 100)", TimestampsFilter.class);
    assertThat(f.getTimestamps()).containsExactly(100L, 200L, 300L);
    assertThat(f.getCanHint()).isFalse();
    assertThat(parse("TimestampsFilter(5000000000000)", TimestampsFilter.class).getTimestamps())
        .containsExactly(5_000_000_000_000L);
    assertThat(parse("TimestampsFilter()", TimestampsFilter.class).getTimestamps()).isEmpty();
  }

  @Test
  void theFourCompareFilters() {
    RowFilter row = parse("RowFilter(<=, 'binary:r5')", RowFilter.class);
    assertThat(row.getCompareOperator()).isEqualTo(CompareOperator.LESS_OR_EQUAL);
    assertThat(row.getComparator()).isEqualTo(new BinaryComparator(b("r5")));

    FamilyFilter fam = parse("FamilyFilter(=, 'binaryprefix:f')", FamilyFilter.class);
    assertThat(fam.getCompareOperator()).isEqualTo(CompareOperator.EQUAL);
    assertThat(fam.getComparator()).isEqualTo(new BinaryPrefixComparator(b("f")));

    QualifierFilter q =
        parse("QualifierFilter(!=, 'regexstring:^q[0-9]+$')", QualifierFilter.class);
    assertThat(q.getCompareOperator()).isEqualTo(CompareOperator.NOT_EQUAL);
    assertThat(((RegexStringComparator) q.getComparator()).getPattern()).isEqualTo("^q[0-9]+$");

    ValueFilter v = parse("ValueFilter(=, 'substring:ABC')", ValueFilter.class);
    assertThat(v.getComparator()).isEqualTo(new SubstringComparator("abc"));
  }

  @Test
  void everyCompareOperatorInSymbolAndWordForm() {
    String[][] forms = {
      {"<", "LESS"},
      {"<=", "LESS_OR_EQUAL"},
      {"=", "EQUAL"},
      {"!=", "NOT_EQUAL"},
      {">=", "GREATER_OR_EQUAL"},
      {">", "GREATER"}
    };
    for (String[] form : forms) {
      CompareOperator expected = CompareOperator.valueOf(form[1]);
      for (String written : List.of(form[0], form[1], form[1].toLowerCase())) {
        RowFilter f = parse("RowFilter(" + written + ", 'binary:x')", RowFilter.class);
        assertThat(f.getCompareOperator()).as(written).isEqualTo(expected);
      }
    }
  }

  @Test
  void comparatorValuesSplitAtTheFirstColonAndMayBeEmpty() {
    assertThat(parse("ValueFilter(=, 'binary:a:b')", ValueFilter.class).getComparator())
        .isEqualTo(new BinaryComparator(b("a:b")));
    assertThat(parse("ValueFilter(=, 'binary:')", ValueFilter.class).getComparator())
        .isEqualTo(new BinaryComparator(new byte[0]));
    assertThat(parse("ValueFilter(=, 'substring:it''s')", ValueFilter.class).getComparator())
        .isEqualTo(new SubstringComparator("it's"));
  }

  @Test
  void regexComparatorsKeepTheirOwnEscapesAndDotAll() {
    ValueFilter v = parse("ValueFilter(=, 'regexstring:\\x41\\d.')", ValueFilter.class);
    RegexStringComparator r = (RegexStringComparator) v.getComparator();
    assertThat(r.getPattern()).isEqualTo("\\x41\\d.");
    assertThat(r.compareTo(b("xA1\n"))).isZero();
  }

  @Test
  void columnRangeFilterWithEmptyBoundsOpen() {
    ColumnRangeFilter f =
        parse("ColumnRangeFilter('a', true, 'm', false)", ColumnRangeFilter.class);
    assertThat(f.getMinColumn()).isEqualTo(b("a"));
    assertThat(f.getMinColumnInclusive()).isTrue();
    assertThat(f.getMaxColumn()).isEqualTo(b("m"));
    assertThat(f.getMaxColumnInclusive()).isFalse();

    ColumnRangeFilter open =
        parse("ColumnRangeFilter('', false, '', true)", ColumnRangeFilter.class);
    assertThat(open.getMinColumn()).isNull();
    assertThat(open.getMaxColumn()).isNull();
    assertThat(open.getMaxColumnInclusive()).isTrue();
  }

  @Test
  void dependentColumnFilterInItsThreeForms() {
    DependentColumnFilter two =
        parse("DependentColumnFilter('f', 'd')", DependentColumnFilter.class);
    assertThat(two.getFamily()).isEqualTo(b("f"));
    assertThat(two.getQualifier()).isEqualTo(b("d"));
    assertThat(two.getDropDependentColumn()).isFalse();
    assertThat(two.getCompareOperator()).isEqualTo(CompareOperator.NO_OP);
    assertThat(two.getComparator()).isNull();

    DependentColumnFilter three =
        parse("DependentColumnFilter('f', 'd', true)", DependentColumnFilter.class);
    assertThat(three.getDropDependentColumn()).isTrue();
    assertThat(three.getComparator()).isNull();

    DependentColumnFilter five =
        parse("DependentColumnFilter('f', 'd', false, >, 'binary:5')", DependentColumnFilter.class);
    assertThat(five.getDropDependentColumn()).isFalse();
    assertThat(five.getCompareOperator()).isEqualTo(CompareOperator.GREATER);
    assertThat(five.getComparator()).isEqualTo(new BinaryComparator(b("5")));
  }

  @Test
  void singleColumnValueFilterWithAndWithoutFlags() {
    SingleColumnValueFilter four =
        parse("SingleColumnValueFilter('f', 'q', =, 'binary:v')", SingleColumnValueFilter.class);
    assertThat(four.getFamily()).isEqualTo(b("f"));
    assertThat(four.getQualifier()).isEqualTo(b("q"));
    assertThat(four.getCompareOperator()).isEqualTo(CompareOperator.EQUAL);
    assertThat(four.getComparator()).isEqualTo(new BinaryComparator(b("v")));
    // HBase's defaults.
    assertThat(four.getFilterIfMissing()).isFalse();
    assertThat(four.getLatestVersionOnly()).isTrue();

    SingleColumnValueFilter six =
        parse(
            "SingleColumnValueFilter('f', 'q', >=, 'binaryprefix:v', true, false)",
            SingleColumnValueFilter.class);
    assertThat(six.getCompareOperator()).isEqualTo(CompareOperator.GREATER_OR_EQUAL);
    assertThat(six.getComparator()).isEqualTo(new BinaryPrefixComparator(b("v")));
    assertThat(six.getFilterIfMissing()).isTrue();
    assertThat(six.getLatestVersionOnly()).isFalse();
  }

  @Test
  void singleColumnValueExcludeFilter() {
    SingleColumnValueExcludeFilter f =
        parse(
            "SingleColumnValueExcludeFilter('f', 'q', !=, 'substring:x', false, true)",
            SingleColumnValueExcludeFilter.class);
    assertThat(f.getFamily()).isEqualTo(b("f"));
    assertThat(f.getQualifier()).isEqualTo(b("q"));
    assertThat(f.getCompareOperator()).isEqualTo(CompareOperator.NOT_EQUAL);
    assertThat(f.getComparator()).isEqualTo(new SubstringComparator("x"));
    assertThat(f.getFilterIfMissing()).isFalse();
    assertThat(f.getLatestVersionOnly()).isTrue();
    assertThat(
            parse(
                    "SingleColumnValueExcludeFilter('f', 'q', =, 'binary:v')",
                    SingleColumnValueExcludeFilter.class)
                .getLatestVersionOnly())
        .isTrue();
  }

  @Test
  void columnValueFilter() {
    ColumnValueFilter f =
        parse("ColumnValueFilter('f', 'q', >, 'binary:m')", ColumnValueFilter.class);
    assertThat(f.getFamily()).isEqualTo(b("f"));
    assertThat(f.getQualifier()).isEqualTo(b("q"));
    assertThat(f.getCompareOperator()).isEqualTo(CompareOperator.GREATER);
    assertThat(f.getComparator()).isEqualTo(new BinaryComparator(b("m")));
    assertThat(
            parse("ColumnValueFilter('f', '', =, 'binary:m')", ColumnValueFilter.class)
                .getQualifier())
        .isEmpty();
  }

  @Test
  void byteStringsReadHexEscapes() {
    assertThat(parse("PrefixFilter('\\x00\\xFFa\\x7f')", PrefixFilter.class).getPrefix())
        .containsExactly(0x00, 0xff, 'a', 0x7f);
    assertThat(parse("RowFilter(=, 'binary:\\x01\\x02')", RowFilter.class).getComparator())
        .isEqualTo(new BinaryComparator(new byte[] {1, 2}));
    // A backslash not starting \x stays; \x5C is a backslash (so \x5Cx41 is "\x41" literally).
    assertThat(parse("PrefixFilter('a\\b')", PrefixFilter.class).getPrefix()).isEqualTo(b("a\\b"));
    assertThat(parse("PrefixFilter('\\x5Cx41')", PrefixFilter.class).getPrefix())
        .isEqualTo(b("\\x41"));
  }

  @Test
  void byteStringsAreUtf8AndSubstringsStayText() {
    assertThat(parse("PrefixFilter('é✓😀')", PrefixFilter.class).getPrefix())
        .isEqualTo("é✓😀".getBytes(StandardCharsets.UTF_8));
    assertThat(parse("ValueFilter(=, 'substring:\\x41')", ValueFilter.class).getComparator())
        .isEqualTo(new SubstringComparator("\\x41"));
  }

  @Test
  void byteInputKeepsRawBytesAndDecodesTextAsUtf8() {
    byte[] input =
        Bytes.concat(
            b("PrefixFilter('"),
            new byte[] {(byte) 0x80, (byte) 0xff, 0},
            b("') AND ValueFilter(=, 'substring:"),
            "é".getBytes(StandardCharsets.UTF_8),
            b("')"));
    FilterList and = (FilterList) ParseFilter.parse(input);
    assertThat(((PrefixFilter) and.getFilters().get(0)).getPrefix()).containsExactly(0x80, 0xff, 0);
    assertThat(((ValueFilter) and.getFilters().get(1)).getComparator())
        .isEqualTo(new SubstringComparator("é"));
  }

  @Test
  void everySupportedFilterParsesFromItsExample() {
    Set<String> covered =
        Set.of(
            "KeyOnlyFilter()",
            "FirstKeyOnlyFilter()",
            "PrefixFilter('r')",
            "ColumnPrefixFilter('q')",
            "MultipleColumnPrefixFilter('a', 'b')",
            "ColumnCountGetFilter(1)",
            "PageFilter(1)",
            "ColumnPaginationFilter(1, 0)",
            "InclusiveStopFilter('r')",
            "TimestampsFilter(1)",
            "RowFilter(=, 'binary:r')",
            "FamilyFilter(=, 'binary:f')",
            "QualifierFilter(=, 'binary:q')",
            "ValueFilter(=, 'binary:v')",
            "ColumnRangeFilter('a', true, 'b', false)",
            "DependentColumnFilter('f', 'q')",
            "SingleColumnValueFilter('f', 'q', =, 'binary:v')",
            "SingleColumnValueExcludeFilter('f', 'q', =, 'binary:v')",
            "ColumnValueFilter('f', 'q', =, 'binary:v')");
    for (String example : covered) {
      Filter f = ParseFilter.parse(example);
      assertThat(example).startsWith(f.getClass().getSimpleName() + "(");
    }
    assertThat(covered).hasSameSizeAs(ParseFilter.supportedFilters());
  }
}
