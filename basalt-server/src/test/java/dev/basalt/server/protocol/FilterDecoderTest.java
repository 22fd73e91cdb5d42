package dev.basalt.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.BinaryComparator;
import dev.basalt.filter.BitComparator;
import dev.basalt.filter.ColumnPaginationFilter;
import dev.basalt.filter.CompareOperator;
import dev.basalt.filter.Filter;
import dev.basalt.filter.FilterList;
import dev.basalt.filter.FuzzyRowFilter;
import dev.basalt.filter.LongComparator;
import dev.basalt.filter.PageFilter;
import dev.basalt.filter.PrefixFilter;
import dev.basalt.filter.RegexStringComparator;
import dev.basalt.filter.RowFilter;
import dev.basalt.filter.SingleColumnValueFilter;
import dev.basalt.filter.SkipFilter;
import dev.basalt.filter.SubstringComparator;
import dev.basalt.filter.TimestampsFilter;
import dev.basalt.util.BasaltIOException;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.junit.jupiter.api.Test;

/** Filters as the stock client serialises them become basalt-core's filters. */
class FilterDecoderTest {
  static final String P = "org.apache.hadoop.hbase.filter.";

  static FilterProtos.Filter filter(String simpleName, Message m) {
    return FilterProtos.Filter.newBuilder()
        .setName(P + simpleName)
        .setSerializedFilter(m.toByteString())
        .build();
  }

  static ComparatorProtos.Comparator comparator(String simpleName, Message m) {
    return ComparatorProtos.Comparator.newBuilder()
        .setName(P + simpleName)
        .setSerializedComparator(m.toByteString())
        .build();
  }

  static ComparatorProtos.ByteArrayComparable value(byte[] v) {
    return ComparatorProtos.ByteArrayComparable.newBuilder()
        .setValue(ByteString.copyFrom(v))
        .build();
  }

  static ComparatorProtos.Comparator binary(String v) {
    return comparator(
        "BinaryComparator",
        ComparatorProtos.BinaryComparator.newBuilder()
            .setComparable(value(Bytes.toBytes(v)))
            .build());
  }

  static FilterProtos.CompareFilter compare(
      HBaseProtos.CompareType op, ComparatorProtos.Comparator c) {
    return FilterProtos.CompareFilter.newBuilder().setCompareOp(op).setComparator(c).build();
  }

  private static KeyValue cell(String row) {
    return KeyValue.of(
        Bytes.toBytes(row),
        Bytes.toBytes("f"),
        Bytes.toBytes("q"),
        1,
        dev.basalt.cell.CellType.PUT,
        Bytes.toBytes("v"));
  }

  @Test
  void aNestedListOfCompareFiltersKeepsOperatorsOperandsAndOrder() throws Exception {
    FilterProtos.Filter row =
        filter(
            "RowFilter",
            FilterProtos.RowFilter.newBuilder()
                .setCompareFilter(compare(HBaseProtos.CompareType.LESS, binary("m")))
                .build());
    FilterProtos.Filter page =
        filter("PageFilter", FilterProtos.PageFilter.newBuilder().setPageSize(7).build());
    FilterProtos.Filter list =
        filter(
            "FilterList",
            FilterProtos.FilterList.newBuilder()
                .setOperator(FilterProtos.FilterList.Operator.MUST_PASS_ONE)
                .addFilters(row)
                .addFilters(page)
                .build());
    Filter f = FilterDecoder.decode(list);
    assertThat(f).isInstanceOf(FilterList.class);
    FilterList fl = (FilterList) f;
    assertThat(fl.getOperator()).isEqualTo(FilterList.Operator.MUST_PASS_ONE);
    assertThat(fl.getFilters()).hasSize(2);
    RowFilter rf = (RowFilter) fl.getFilters().get(0);
    assertThat(rf.getCompareOperator()).isEqualTo(CompareOperator.LESS);
    assertThat(rf.getComparator()).isInstanceOf(BinaryComparator.class);
    // RowFilter(LESS, "m") keeps rows below "m", as in HBase.
    assertThat(rf.filterRowKey(cell("a"))).isFalse();
    assertThat(rf.filterRowKey(cell("z"))).isTrue();
    assertThat(((PageFilter) fl.getFilters().get(1)).getPageSize()).isEqualTo(7);
  }

  @Test
  void anEmptyFilterListIsAccepted() throws Exception {
    Filter f =
        FilterDecoder.decode(
            filter(
                "FilterList",
                FilterProtos.FilterList.newBuilder()
                    .setOperator(FilterProtos.FilterList.Operator.MUST_PASS_ALL)
                    .build()));
    assertThat(((FilterList) f).getFilters()).isEmpty();
  }

  @Test
  void everyFilterOfTheCatalogueDecodes() throws Exception {
    ComparatorProtos.Comparator b = binary("x");
    FilterProtos.CompareFilter cf = compare(HBaseProtos.CompareType.EQUAL, b);
    FilterProtos.SingleColumnValueFilter scvf =
        FilterProtos.SingleColumnValueFilter.newBuilder()
            .setColumnFamily(ByteString.copyFromUtf8("f"))
            .setColumnQualifier(ByteString.copyFromUtf8("q"))
            .setCompareOp(HBaseProtos.CompareType.GREATER)
            .setComparator(b)
            .setFilterIfMissing(true)
            .setLatestVersionOnly(false)
            .build();
    FilterProtos.Filter prefix =
        filter(
            "PrefixFilter",
            FilterProtos.PrefixFilter.newBuilder().setPrefix(ByteString.copyFromUtf8("p")).build());
    Map<String, Message> all =
        Map.ofEntries(
            Map.entry(
                "PrefixFilter", FilterProtos.PrefixFilter.parseFrom(prefix.getSerializedFilter())),
            Map.entry(
                "FamilyFilter",
                FilterProtos.FamilyFilter.newBuilder().setCompareFilter(cf).build()),
            Map.entry(
                "QualifierFilter",
                FilterProtos.QualifierFilter.newBuilder().setCompareFilter(cf).build()),
            Map.entry(
                "ValueFilter", FilterProtos.ValueFilter.newBuilder().setCompareFilter(cf).build()),
            Map.entry("SingleColumnValueFilter", scvf),
            Map.entry(
                "SingleColumnValueExcludeFilter",
                FilterProtos.SingleColumnValueExcludeFilter.newBuilder()
                    .setSingleColumnValueFilter(scvf)
                    .build()),
            Map.entry(
                "ColumnValueFilter",
                FilterProtos.ColumnValueFilter.newBuilder()
                    .setFamily(ByteString.copyFromUtf8("f"))
                    .setQualifier(ByteString.copyFromUtf8("q"))
                    .setCompareOp(HBaseProtos.CompareType.EQUAL)
                    .setComparator(b)
                    .build()),
            Map.entry(
                "DependentColumnFilter",
                FilterProtos.DependentColumnFilter.newBuilder()
                    .setCompareFilter(compare(HBaseProtos.CompareType.NO_OP, b))
                    .setColumnFamily(ByteString.copyFromUtf8("f"))
                    .setColumnQualifier(ByteString.copyFromUtf8("q"))
                    .setDropDependentColumn(true)
                    .build()),
            Map.entry(
                "KeyOnlyFilter", FilterProtos.KeyOnlyFilter.newBuilder().setLenAsVal(true).build()),
            Map.entry("FirstKeyOnlyFilter", FilterProtos.FirstKeyOnlyFilter.getDefaultInstance()),
            Map.entry(
                "ColumnPrefixFilter",
                FilterProtos.ColumnPrefixFilter.newBuilder()
                    .setPrefix(ByteString.copyFromUtf8("c"))
                    .build()),
            Map.entry(
                "MultipleColumnPrefixFilter",
                FilterProtos.MultipleColumnPrefixFilter.newBuilder()
                    .addSortedPrefixes(ByteString.copyFromUtf8("a"))
                    .addSortedPrefixes(ByteString.copyFromUtf8("b"))
                    .build()),
            Map.entry(
                "ColumnRangeFilter",
                FilterProtos.ColumnRangeFilter.newBuilder()
                    .setMinColumn(ByteString.copyFromUtf8("a"))
                    .setMinColumnInclusive(true)
                    .setMaxColumn(ByteString.copyFromUtf8("c"))
                    .setMaxColumnInclusive(false)
                    .build()),
            Map.entry(
                "ColumnCountGetFilter",
                FilterProtos.ColumnCountGetFilter.newBuilder().setLimit(3).build()),
            Map.entry(
                "InclusiveStopFilter",
                FilterProtos.InclusiveStopFilter.newBuilder()
                    .setStopRowKey(ByteString.copyFromUtf8("s"))
                    .build()),
            Map.entry(
                "MultiRowRangeFilter",
                FilterProtos.MultiRowRangeFilter.newBuilder()
                    .addRowRangeList(
                        FilterProtos.RowRange.newBuilder()
                            .setStartRow(ByteString.copyFromUtf8("a"))
                            .setStartRowInclusive(true)
                            .setStopRow(ByteString.copyFromUtf8("b"))
                            .setStopRowInclusive(false))
                    .build()),
            Map.entry(
                "RandomRowFilter",
                FilterProtos.RandomRowFilter.newBuilder().setChance(0.5f).build()),
            Map.entry("SkipFilter", FilterProtos.SkipFilter.newBuilder().setFilter(prefix).build()),
            Map.entry(
                "WhileMatchFilter",
                FilterProtos.WhileMatchFilter.newBuilder().setFilter(prefix).build()));
    for (Map.Entry<String, Message> e : all.entrySet()) {
      Filter f = FilterDecoder.decode(filter(e.getKey(), e.getValue()));
      assertThat(f.getClass().getSimpleName()).as(e.getKey()).isEqualTo(e.getKey());
    }
    SingleColumnValueFilter s =
        (SingleColumnValueFilter) FilterDecoder.decode(filter("SingleColumnValueFilter", scvf));
    assertThat(s.getFilterIfMissing()).isTrue();
    assertThat(s.getLatestVersionOnly()).isFalse();
    assertThat(s.getCompareOperator()).isEqualTo(CompareOperator.GREATER);
    assertThat(((SkipFilter) FilterDecoder.decode(filter("SkipFilter", all.get("SkipFilter")))))
        .isNotNull();
  }

  @Test
  void columnPaginationTakesTheColumnOffsetWhenOneIsSent() throws Exception {
    ColumnPaginationFilter byOffset =
        (ColumnPaginationFilter)
            FilterDecoder.decode(
                filter(
                    "ColumnPaginationFilter",
                    FilterProtos.ColumnPaginationFilter.newBuilder()
                        .setLimit(2)
                        .setOffset(5)
                        .build()));
    assertThat(byOffset.getOffset()).isEqualTo(5);
    assertThat(byOffset.getColumnOffset()).isNull();
    ColumnPaginationFilter byColumn =
        (ColumnPaginationFilter)
            FilterDecoder.decode(
                filter(
                    "ColumnPaginationFilter",
                    FilterProtos.ColumnPaginationFilter.newBuilder()
                        .setLimit(2)
                        .setColumnOffset(ByteString.copyFromUtf8("c5"))
                        .build()));
    assertThat(byColumn.getColumnOffset()).isEqualTo(Bytes.toBytes("c5"));
  }

  @Test
  void timestampsKeepTheirHintFlag() throws Exception {
    TimestampsFilter t =
        (TimestampsFilter)
            FilterDecoder.decode(
                filter(
                    "TimestampsFilter",
                    FilterProtos.TimestampsFilter.newBuilder()
                        .addAllTimestamps(List.of(5L, 3L))
                        .setCanHint(true)
                        .build()));
    assertThat(t.getTimestamps()).containsExactly(3L, 5L);
    assertThat(t.getCanHint()).isTrue();
  }

  @Test
  void fuzzyMasksArriveInHBasesPreprocessedFormsAndInTheUserForm() throws Exception {
    byte[] key = {'a', 0, 'c'};
    for (byte[][] maskAndV2 :
        new byte[][][] {
          {{-1, 2, -1}, {1}}, // v2: -1 fixed, 2 free
          {{-1, 0, -1}, {0}}, // v1: -1 fixed, 0 free
          {{0, 1, 0}, {0}}, // user form: 0 fixed, 1 free
        }) {
      FuzzyRowFilter f =
          (FuzzyRowFilter)
              FilterDecoder.decode(
                  filter(
                      "FuzzyRowFilter",
                      FilterProtos.FuzzyRowFilter.newBuilder()
                          .addFuzzyKeysData(
                              HBaseProtos.BytesBytesPair.newBuilder()
                                  .setFirst(ByteString.copyFrom(key))
                                  .setSecond(ByteString.copyFrom(maskAndV2[0])))
                          .setIsMaskV2(maskAndV2[1][0] == 1)
                          .build()));
      assertThat(f.getFuzzyKeys().get(0).getValue()).containsExactly(0, 1, 0);
      assertThat(f.filterCell(cell("abc"))).isEqualTo(Filter.ReturnCode.INCLUDE);
      assertThat(f.filterCell(cell("abd"))).isEqualTo(Filter.ReturnCode.SEEK_NEXT_USING_HINT);
    }
  }

  @Test
  void comparatorsDecode() throws Exception {
    assertThat(
            ComparatorDecoder.decode(
                comparator(
                    "LongComparator",
                    ComparatorProtos.LongComparator.newBuilder()
                        .setComparable(value(Bytes.toBytes(42L)))
                        .build())))
        .isInstanceOf(LongComparator.class);
    BitComparator bit =
        (BitComparator)
            ComparatorDecoder.decode(
                comparator(
                    "BitComparator",
                    ComparatorProtos.BitComparator.newBuilder()
                        .setComparable(value(new byte[] {1}))
                        .setBitwiseOp(ComparatorProtos.BitComparator.BitwiseOp.XOR)
                        .build()));
    assertThat(bit.getOperator()).isEqualTo(BitComparator.BitwiseOp.XOR);
    assertThat(
            ComparatorDecoder.decode(
                comparator(
                    "SubstringComparator",
                    ComparatorProtos.SubstringComparator.newBuilder().setSubstr("abc").build())))
        .isInstanceOf(SubstringComparator.class);
    RegexStringComparator re =
        (RegexStringComparator)
            ComparatorDecoder.decode(
                comparator(
                    "RegexStringComparator",
                    ComparatorProtos.RegexStringComparator.newBuilder()
                        .setPattern("a.c")
                        .setPatternFlags(0)
                        .setCharset("UTF-8")
                        .setEngine("JAVA")
                        .build()));
    assertThat(re.compareTo(Bytes.toBytes("abc"))).isZero();
  }

  @Test
  void badFiltersAreDoNotRetryErrorsNamingTheProblem() {
    assertThatThrownBy(
            () ->
                FilterDecoder.decode(
                    FilterProtos.Filter.newBuilder().setName("com.example.MyFilter").build()))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY))
        .hasMessageContaining("com.example.MyFilter");
    assertThatThrownBy(
            () ->
                FilterDecoder.decode(
                    FilterProtos.Filter.newBuilder()
                        .setName(P + "PageFilter")
                        .setSerializedFilter(ByteString.copyFrom(new byte[] {(byte) 0xff, 1}))
                        .build()))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("PageFilter");
    assertThatThrownBy(
            () ->
                FilterDecoder.decode(
                    filter(
                        "PageFilter",
                        FilterProtos.PageFilter.newBuilder().setPageSize(-1).build())))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("PageFilter");
    assertThatThrownBy(
            () ->
                ComparatorDecoder.decode(
                    comparator(
                        "RegexStringComparator",
                        ComparatorProtos.RegexStringComparator.newBuilder()
                            .setPattern("a")
                            .setPatternFlags(0)
                            .setCharset("no-such-charset")
                            .build())))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("no-such-charset");
  }

  @Test
  void nestingBeyondTheLimitIsRefused() {
    FilterProtos.Filter f =
        filter(
            "PrefixFilter",
            FilterProtos.PrefixFilter.newBuilder().setPrefix(ByteString.copyFromUtf8("p")).build());
    for (int i = 0; i < FilterDecoder.MAX_DEPTH + 2; i++) {
      f = filter("SkipFilter", FilterProtos.SkipFilter.newBuilder().setFilter(f).build());
    }
    FilterProtos.Filter deep = f;
    assertThatThrownBy(() -> FilterDecoder.decode(deep))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("nested");
  }

  private static final String[] NAMES = {
    "FilterList",
    "PageFilter",
    "PrefixFilter",
    "RowFilter",
    "FamilyFilter",
    "QualifierFilter",
    "ValueFilter",
    "SingleColumnValueFilter",
    "SingleColumnValueExcludeFilter",
    "ColumnValueFilter",
    "DependentColumnFilter",
    "KeyOnlyFilter",
    "FirstKeyOnlyFilter",
    "ColumnPrefixFilter",
    "MultipleColumnPrefixFilter",
    "ColumnRangeFilter",
    "ColumnCountGetFilter",
    "ColumnPaginationFilter",
    "InclusiveStopFilter",
    "MultiRowRangeFilter",
    "FuzzyRowFilter",
    "RandomRowFilter",
    "TimestampsFilter",
    "SkipFilter",
    "WhileMatchFilter",
    "Nope"
  };

  /** Whatever bytes arrive under whatever name, the decoder answers a filter or a named error. */
  @Property(tries = 2000)
  void randomBytesNeverEscapeAsAnythingButANamedError(
      @ForAll @IntRange(min = 0, max = 25) int name, @ForAll byte[] bytes) {
    try {
      FilterDecoder.decode(
          FilterProtos.Filter.newBuilder()
              .setName(P + NAMES[name])
              .setSerializedFilter(ByteString.copyFrom(bytes))
              .build());
    } catch (BasaltIOException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }

  @Test
  void prefixFilterWithoutAPrefixIsAccepted() throws Exception {
    assertThat(
            FilterDecoder.decode(
                filter("PrefixFilter", FilterProtos.PrefixFilter.getDefaultInstance())))
        .isInstanceOf(PrefixFilter.class);
  }
}
