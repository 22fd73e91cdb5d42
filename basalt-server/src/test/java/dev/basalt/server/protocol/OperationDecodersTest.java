package dev.basalt.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.IsolationLevel;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.util.BasaltIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/** Gets, scans, mutations and conditions as the stock client sends them. */
class OperationDecodersTest {
  private static final ByteString ROW = ByteString.copyFromUtf8("r1");
  private static final byte[] F = Bytes.toBytes("f");

  private static ByteString s(String v) {
    return ByteString.copyFromUtf8(v);
  }

  private static final Iterator<Cell> NO_CELLS = Collections.emptyIterator();

  /** A mutation of one column f:{@code qualifier} in row ROW, without a cell block. */
  private static MutationProto.Builder oneColumn(
      MutationProto.MutationType type, String qualifier, ByteString value) {
    return MutationProto.newBuilder()
        .setRow(ROW)
        .setMutateType(type)
        .addColumnValue(
            MutationProto.ColumnValue.newBuilder()
                .setFamily(s("f"))
                .addQualifierValue(
                    MutationProto.ColumnValue.QualifierValue.newBuilder()
                        .setQualifier(s(qualifier))
                        .setValue(value)));
  }

  /** A Put of f:a = v in row ROW, as the client sends it without a cell block. */
  private static Mutation putOfOneColumn() throws java.io.IOException {
    return MutationDecoder.toMutation(
        oneColumn(MutationProto.MutationType.PUT, "a", s("v")).build(), NO_CELLS);
  }

  @Test
  void aGetKeepsColumnsTimeRangesVersionsAndIsolation() throws Exception {
    ClientProtos.Get p =
        ClientProtos.Get.newBuilder()
            .setRow(ROW)
            .addColumn(ClientProtos.Column.newBuilder().setFamily(s("f")).addQualifier(s("a")))
            .addColumn(ClientProtos.Column.newBuilder().setFamily(s("g")))
            .setTimeRange(HBaseProtos.TimeRange.newBuilder().setFrom(5).setTo(10))
            .setMaxVersions(3)
            .setCacheBlocks(true)
            .setExistenceOnly(true)
            .addAttribute(
                HBaseProtos.NameBytesPair.newBuilder()
                    .setName("_isolationlevel_")
                    .setValue(ByteString.copyFrom(new byte[] {1})))
            .build();
    Get g = QueryDecoder.toGet(p);
    assertThat(g.getRow()).isEqualTo(Bytes.toBytes("r1"));
    assertThat(g.getFamilyMap().get(F)).containsExactly(Bytes.toBytes("a"));
    assertThat(g.getFamilyMap()).containsKey(Bytes.toBytes("g"));
    assertThat(g.getTimeRange().getMin()).isEqualTo(5);
    assertThat(g.getTimeRange().getMax()).isEqualTo(10);
    assertThat(g.getMaxVersions()).isEqualTo(3);
    assertThat(g.isCheckExistenceOnly()).isTrue();
    assertThat(g.getIsolationLevel()).isEqualTo(IsolationLevel.READ_UNCOMMITTED);
  }

  @Test
  void theRemovedClosestRowBeforeGetAndBadAttributesAreRefused() {
    assertThatThrownBy(
            () ->
                QueryDecoder.toGet(
                    ClientProtos.Get.newBuilder().setRow(ROW).setClosestRowBefore(true).build()))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("closest_row_before");
    assertThatThrownBy(
            () ->
                QueryDecoder.toGet(
                    ClientProtos.Get.newBuilder()
                        .setRow(ROW)
                        .addAttribute(
                            HBaseProtos.NameBytesPair.newBuilder()
                                .setName("_isolationlevel_")
                                .setValue(s("xx")))
                        .build()))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("_isolationlevel_");
    assertThatThrownBy(
            () ->
                QueryDecoder.toGet(ClientProtos.Get.newBuilder().setRow(ByteString.EMPTY).build()))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("row");
  }

  @Test
  void aScanKeepsBoundsDirectionLimitsRawAndItsFilter() throws Exception {
    ClientProtos.Scan p =
        ClientProtos.Scan.newBuilder()
            .setStartRow(s("m"))
            .setIncludeStartRow(false)
            .setStopRow(s("a"))
            .setIncludeStopRow(true)
            .setReversed(true)
            .setMaxVersions(2)
            .setBatchSize(5)
            .setMaxResultSize(2097152)
            .setCaching(100)
            .setMvccReadPoint(77)
            .setFilter(
                FilterDecoderTest.filter(
                    "PageFilter", FilterProtos.PageFilter.newBuilder().setPageSize(3).build()))
            .addAttribute(
                HBaseProtos.NameBytesPair.newBuilder()
                    .setName("_raw_")
                    .setValue(ByteString.copyFrom(new byte[] {1})))
            .build();
    Scan scan = QueryDecoder.toScan(p);
    assertThat(scan.getStartRow()).isEqualTo(Bytes.toBytes("m"));
    assertThat(scan.includeStartRow()).isFalse();
    assertThat(scan.getStopRow()).isEqualTo(Bytes.toBytes("a"));
    assertThat(scan.includeStopRow()).isTrue();
    assertThat(scan.isReversed()).isTrue();
    assertThat(scan.getMaxVersions()).isEqualTo(2);
    assertThat(scan.getBatch()).isEqualTo(5);
    assertThat(scan.isRaw()).isTrue();
    assertThat(scan.getMvccReadPoint()).isEqualTo(77);
    assertThat(scan.getFilter()).isNotNull();
    // The stock client's defaults: an empty scan is the whole table.
    Scan all = QueryDecoder.toScan(ClientProtos.Scan.getDefaultInstance());
    assertThat(all.getStartRow()).isEmpty();
    assertThat(all.getStopRow()).isEmpty();
    assertThat(all.includeStartRow()).isTrue();
  }

  @Test
  void aPutFromColumnValuesAndOneFromTheCellBlock() throws Exception {
    MutationProto p =
        MutationProto.newBuilder()
            .setRow(ROW)
            .setMutateType(MutationProto.MutationType.PUT)
            .setTimestamp(Long.MAX_VALUE)
            .setDurability(MutationProto.Durability.FSYNC_WAL)
            .addColumnValue(
                MutationProto.ColumnValue.newBuilder()
                    .setFamily(s("f"))
                    .addQualifierValue(
                        MutationProto.ColumnValue.QualifierValue.newBuilder()
                            .setQualifier(s("a"))
                            .setValue(s("v1"))
                            .setTimestamp(42)))
            .build();
    Put put = (Put) MutationDecoder.toMutation(p, NO_CELLS);
    assertThat(put.getDurability()).isEqualTo(Durability.FSYNC_WAL);
    Cell c = put.get(F, Bytes.toBytes("a")).get(0);
    assertThat(c.getTimestamp()).isEqualTo(42);
    assertThat(Bytes.toString(c.getValueArray(), c.getValueOffset(), c.getValueLength()))
        .isEqualTo("v1");

    List<Cell> block =
        List.of(
            KeyValue.of(
                Bytes.toBytes("r1"), F, Bytes.toBytes("a"), 7, CellType.PUT, Bytes.toBytes("x")),
            KeyValue.of(
                Bytes.toBytes("r2"), F, Bytes.toBytes("a"), 7, CellType.PUT, Bytes.toBytes("y")));
    Iterator<Cell> it = block.iterator();
    Put fromBlock =
        (Put)
            MutationDecoder.toMutation(
                MutationProto.newBuilder()
                    .setRow(ROW)
                    .setMutateType(MutationProto.MutationType.PUT)
                    .setAssociatedCellCount(1)
                    .build(),
                it);
    assertThat(fromBlock.size()).isEqualTo(1);
    assertThat(it.next()).as("exactly one cell taken").isSameAs(block.get(1));
  }

  @Test
  void cellBlockProblemsAreNamedAndSkippingKeepsBatchesAligned() {
    List<Cell> block =
        List.of(
            KeyValue.of(
                Bytes.toBytes("other"),
                F,
                Bytes.toBytes("a"),
                7,
                CellType.PUT,
                Bytes.toBytes("x")));
    MutationProto twoCells =
        MutationProto.newBuilder()
            .setRow(ROW)
            .setMutateType(MutationProto.MutationType.PUT)
            .setAssociatedCellCount(2)
            .build();
    assertThatThrownBy(
            () -> MutationDecoder.toMutation(twoCells, new ArrayList<>(block).iterator()))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("row");
    MutationProto oneCell = twoCells.toBuilder().setAssociatedCellCount(1).build();
    List<Cell> rowMatches =
        List.of(
            KeyValue.of(Bytes.toBytes("r1"), F, Bytes.toBytes("a"), 7, CellType.PUT, Bytes.EMPTY));
    assertThatThrownBy(() -> MutationDecoder.toMutation(twoCells, rowMatches.iterator()))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("announces 2 cells");
    Iterator<Cell> it = List.<Cell>of(block.get(0), rowMatches.get(0)).iterator();
    MutationDecoder.skipCells(oneCell, it);
    assertThat(it.next()).isSameAs(rowMatches.get(0));
  }

  @Test
  void deletesOfEveryKindAndAWholeRowDelete() throws Exception {
    MutationProto.ColumnValue.Builder cv = MutationProto.ColumnValue.newBuilder().setFamily(s("f"));
    cv.addQualifierValue(
        MutationProto.ColumnValue.QualifierValue.newBuilder()
            .setQualifier(s("a"))
            .setTimestamp(Long.MAX_VALUE)
            .setDeleteType(MutationProto.DeleteType.DELETE_ONE_VERSION));
    cv.addQualifierValue(
        MutationProto.ColumnValue.QualifierValue.newBuilder()
            .setQualifier(s("b"))
            .setTimestamp(9)
            .setDeleteType(MutationProto.DeleteType.DELETE_MULTIPLE_VERSIONS));
    cv.addQualifierValue(
        MutationProto.ColumnValue.QualifierValue.newBuilder()
            .setTimestamp(8)
            .setDeleteType(MutationProto.DeleteType.DELETE_FAMILY_VERSION));
    Delete d =
        (Delete)
            MutationDecoder.toMutation(
                MutationProto.newBuilder()
                    .setRow(ROW)
                    .setMutateType(MutationProto.MutationType.DELETE)
                    .addColumnValue(cv)
                    .build(),
                NO_CELLS);
    assertThat(d.get(F, Bytes.toBytes("a")).get(0).getTypeByte()).isEqualTo(CellType.DELETE.code());
    Cell b = d.get(F, Bytes.toBytes("b")).get(0);
    assertThat(b.getTypeByte()).isEqualTo(CellType.DELETE_COLUMN.code());
    assertThat(b.getTimestamp()).isEqualTo(9);
    assertThat(d.get(F, Bytes.EMPTY).get(0).getTypeByte())
        .isEqualTo(CellType.DELETE_FAMILY_VERSION.code());

    Delete row =
        (Delete)
            MutationDecoder.toMutation(
                MutationProto.newBuilder()
                    .setRow(ROW)
                    .setMutateType(MutationProto.MutationType.DELETE)
                    .setTimestamp(Long.MAX_VALUE)
                    .build(),
                NO_CELLS);
    assertThat(row.isEmpty()).as("no cells: the whole row").isTrue();
  }

  @Test
  void incrementsNeedEightByteAmountsAndMayTurnOffResults() throws Exception {
    MutationProto.Builder inc =
        oneColumn(MutationProto.MutationType.INCREMENT, "n", ByteString.copyFrom(Bytes.toBytes(5L)))
            .setTimeRange(HBaseProtos.TimeRange.newBuilder().setFrom(0).setTo(Long.MAX_VALUE));
    Increment i =
        (Increment)
            MutationDecoder.toMutation(
                inc.clone()
                    .addAttribute(
                        HBaseProtos.NameBytesPair.newBuilder()
                            .setName("_rr_")
                            .setValue(ByteString.copyFrom(new byte[] {0})))
                    .build(),
                NO_CELLS);
    Cell amount = i.get(F, Bytes.toBytes("n")).get(0);
    assertThat(
            Bytes.toLong(amount.getValueArray(), amount.getValueOffset(), amount.getValueLength()))
        .isEqualTo(5L);
    assertThat(i.isReturnResults()).isFalse();

    MutationProto bad =
        inc.clearColumnValue()
            .addColumnValue(
                MutationProto.ColumnValue.newBuilder()
                    .setFamily(s("f"))
                    .addQualifierValue(
                        MutationProto.ColumnValue.QualifierValue.newBuilder()
                            .setQualifier(s("n"))
                            .setValue(s("abc"))))
            .build();
    assertThatThrownBy(() -> MutationDecoder.toMutation(bad, NO_CELLS))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY))
        .hasMessageContaining("Field is not a long");
  }

  private static HBaseProtos.NameBytesPair ttlAttribute(byte[] value) {
    return HBaseProtos.NameBytesPair.newBuilder()
        .setName("_ttl")
        .setValue(ByteString.copyFrom(value))
        .build();
  }

  @Test
  void appendsAndPerCellTtls() throws Exception {
    MutationProto.Builder app = oneColumn(MutationProto.MutationType.APPEND, "a", s("tail"));
    Mutation plain = MutationDecoder.toMutation(app.build(), NO_CELLS);
    assertThat(plain).isInstanceOf(Append.class);
    assertThat(plain.getTTL()).isEqualTo(KeyValue.NO_TTL);
    // Mutation.setTTL(1000) as the stock client sends it: an 8-byte big-endian long.
    Mutation withTtl =
        MutationDecoder.toMutation(
            app.clone().addAttribute(ttlAttribute(Bytes.toBytes(1000L))).build(), NO_CELLS);
    assertThat(withTtl.getTTL()).isEqualTo(1000L);
    MutationProto.Builder put = oneColumn(MutationProto.MutationType.PUT, "a", s("v"));
    assertThat(
            MutationDecoder.toMutation(
                    put.addAttribute(ttlAttribute(Bytes.toBytes(-7L))).build(), NO_CELLS)
                .getTTL())
        .isEqualTo(-7L);
    assertThatThrownBy(
            () ->
                MutationDecoder.toMutation(
                    app.clone().addAttribute(ttlAttribute(new byte[] {1, 2})).build(), NO_CELLS))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY))
        .hasMessageContaining("_ttl")
        .hasMessageContaining("8-byte long, got 2 bytes");
    // HBase's server ignores the attribute on a Delete (its client refuses Delete.setTTL).
    MutationProto del =
        MutationProto.newBuilder()
            .setRow(ROW)
            .setMutateType(MutationProto.MutationType.DELETE)
            .addAttribute(ttlAttribute(Bytes.toBytes(1000L)))
            .build();
    assertThat(MutationDecoder.toMutation(del, NO_CELLS).getTTL()).isEqualTo(KeyValue.NO_TTL);
  }

  @Test
  void conditionsInBothFormsAndOtherComparatorsRefused() throws Exception {
    Mutation put = putOfOneColumn();
    ClientProtos.Condition.Builder c =
        ClientProtos.Condition.newBuilder()
            .setRow(ROW)
            .setFamily(s("f"))
            .setQualifier(s("a"))
            .setCompareType(HBaseProtos.CompareType.LESS)
            .setComparator(FilterDecoderTest.binary("x"))
            .setTimeRange(HBaseProtos.TimeRange.newBuilder().setFrom(0).setTo(Long.MAX_VALUE));
    CheckAndMutate cam = ConditionDecoder.toCheckAndMutate(c.build(), put);
    assertThat(cam.getCompareOp()).isEqualTo(dev.basalt.filter.CompareOperator.LESS);
    assertThat(cam.getAction()).isSameAs(put);

    ClientProtos.Condition filterForm =
        ClientProtos.Condition.newBuilder()
            .setRow(ROW)
            .setFilter(
                FilterDecoderTest.filter(
                    "PrefixFilter",
                    FilterProtos.PrefixFilter.newBuilder().setPrefix(s("r")).build()))
            .build();
    assertThat(ConditionDecoder.toCheckAndMutate(filterForm, put).hasFilter()).isTrue();

    ClientProtos.Condition substring =
        c.setComparator(
                FilterDecoderTest.comparator(
                    "SubstringComparator",
                    ComparatorProtos.SubstringComparator.newBuilder().setSubstr("x").build()))
            .build();
    assertThatThrownBy(() -> ConditionDecoder.toCheckAndMutate(substring, put))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("SubstringComparator");
    ClientProtos.Condition otherRow =
        c.setRow(s("zz")).setComparator(FilterDecoderTest.binary("x")).build();
    assertThatThrownBy(() -> ConditionDecoder.toCheckAndMutate(otherRow, put))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("row");
  }

  @Test
  void aComparatorWithoutValueIsAnEmptyOperandAsIfNotExistsSendsIt() throws Exception {
    // CheckAndMutate.ifNotExists (and ifEquals(null)) reach the server as EQUAL with a
    // BinaryComparator whose ByteArrayComparable has no value; HBase reads that as empty.
    Mutation put = putOfOneColumn();
    ClientProtos.Condition ifNotExists =
        ClientProtos.Condition.newBuilder()
            .setRow(ROW)
            .setFamily(s("f"))
            .setQualifier(s("a"))
            .setCompareType(HBaseProtos.CompareType.EQUAL)
            .setComparator(
                FilterDecoderTest.comparator(
                    "BinaryComparator",
                    ComparatorProtos.BinaryComparator.newBuilder()
                        .setComparable(ComparatorProtos.ByteArrayComparable.newBuilder())
                        .build()))
            .build();
    CheckAndMutate cam = ConditionDecoder.toCheckAndMutate(ifNotExists, put);
    assertThat(cam.getValue()).isNullOrEmpty();
    assertThat(cam.getCompareOp()).isEqualTo(dev.basalt.filter.CompareOperator.EQUAL);
  }

  @Test
  void resultsGoToTheCellBlockOrIntoTheMessage() {
    Cell a =
        KeyValue.of(
            Bytes.toBytes("r1"), F, Bytes.toBytes("a"), 7, CellType.PUT, Bytes.toBytes("x"));
    Cell b =
        KeyValue.of(
            Bytes.toBytes("r1"), F, Bytes.toBytes("b"), 7, CellType.PUT, Bytes.toBytes("y"));
    Result r = Result.create(List.of(a, b), true);
    List<Cell> block = new ArrayList<>();
    ClientProtos.Result withCodec = CellEncoder.toResult(r, block);
    assertThat(withCodec.getAssociatedCellCount()).isEqualTo(2);
    assertThat(withCodec.getCellCount()).isZero();
    assertThat(withCodec.getPartial()).isTrue();
    assertThat(block).containsExactly(a, b);

    ClientProtos.Result noCodec = CellEncoder.toResult(r, null);
    assertThat(noCodec.getCellCount()).isEqualTo(2);
    assertThat(noCodec.getCell(1).getQualifier().toStringUtf8()).isEqualTo("b");
    assertThat(noCodec.getCell(1).getCellType().getNumber()).isEqualTo(CellType.PUT.code());

    assertThat(CellEncoder.toResult(Result.ofExists(true), block).getExists()).isTrue();
    assertThat(CellEncoder.toResult(null, block).getAssociatedCellCount()).isZero();
  }
}
