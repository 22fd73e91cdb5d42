package dev.basalt.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class MutationTest {
  private static final byte[] ROW = Bytes.toBytes("row");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] Q2 = Bytes.toBytes("q2");
  private static final byte[] V = Bytes.toBytes("v");

  private static byte[] s(String v) {
    return Bytes.toBytes(v);
  }

  // ---- rows ---------------------------------------------------------------------------------

  private static final List<Function<byte[], Object>> CONSTRUCTORS =
      List.of(
          Put::new,
          r -> new Put(r, 5),
          Delete::new,
          r -> new Delete(r, 5),
          Increment::new,
          Append::new,
          RowMutations::new,
          Get::new,
          CheckAndMutate::newBuilder);

  @Test
  void everyOperationRejectsANullRow() {
    for (Function<byte[], Object> c : CONSTRUCTORS) {
      assertThatThrownBy(() -> c.apply(null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("row key is null");
    }
  }

  @Test
  void everyOperationRejectsAnEmptyRow() {
    for (Function<byte[], Object> c : CONSTRUCTORS) {
      assertThatThrownBy(() -> c.apply(Bytes.EMPTY))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("row key is empty");
    }
  }

  @Test
  void everyOperationRejectsAnOversizedRow() {
    byte[] longest = new byte[KeyValue.MAX_ROW_LENGTH];
    byte[] tooLong = new byte[KeyValue.MAX_ROW_LENGTH + 1];
    for (Function<byte[], Object> c : CONSTRUCTORS) {
      assertThat(c.apply(longest)).isNotNull();
      assertThatThrownBy(() -> c.apply(tooLong))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("32768 bytes")
          .hasMessageContaining("32767");
    }
  }

  // ---- timestamps ---------------------------------------------------------------------------

  @Test
  void negativeTimestampsAreRejected() {
    assertThatThrownBy(() -> new Put(ROW, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timestamp cannot be negative: -1");
    assertThatThrownBy(() -> new Delete(ROW, -7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-7");
    assertThatThrownBy(() -> new Put(ROW).addColumn(F, Q, -2, V))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timestamp cannot be negative: -2");
    assertThatThrownBy(() -> new Delete(ROW).addColumn(F, Q, -3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-3");
    assertThatThrownBy(() -> new Delete(ROW).addColumns(F, Q, -4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-4");
    assertThatThrownBy(() -> new Delete(ROW).addFamily(F, -5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-5");
    assertThatThrownBy(() -> new Delete(ROW).addFamilyVersion(F, -6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-6");
    KeyValue negative = KeyValue.of(ROW, F, Q, -9, CellType.PUT, V);
    assertThatThrownBy(() -> new Put(ROW).add(negative))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-9");
  }

  @Test
  void defaultTimestampIsLatest() {
    assertThat(new Put(ROW).getTimestamp()).isEqualTo(KeyValue.LATEST_TIMESTAMP);
    assertThat(new Delete(ROW).getTimestamp()).isEqualTo(KeyValue.LATEST_TIMESTAMP);
    assertThat(new Increment(ROW).getTimestamp()).isEqualTo(KeyValue.LATEST_TIMESTAMP);
    assertThat(new Append(ROW).getTimestamp()).isEqualTo(KeyValue.LATEST_TIMESTAMP);
    assertThat(new Put(ROW, 0).getTimestamp()).isZero();
  }

  // ---- families -----------------------------------------------------------------------------

  @Test
  void nullFamiliesAreRejected() {
    List<Runnable> calls =
        List.of(
            () -> new Put(ROW).addColumn(null, Q, V),
            () -> new Put(ROW).addColumn(null, Q, 1, V),
            () -> new Delete(ROW).addFamily(null),
            () -> new Delete(ROW).addFamily(null, 1),
            () -> new Delete(ROW).addFamilyVersion(null, 1),
            () -> new Delete(ROW).addColumns(null, Q),
            () -> new Delete(ROW).addColumn(null, Q),
            () -> new Increment(ROW).addColumn(null, Q, 1),
            () -> new Append(ROW).addColumn(null, Q, V),
            () -> new Get(ROW).addFamily(null),
            () -> new Get(ROW).addColumn(null, Q),
            () -> new Scan().addFamily(null),
            () -> new Scan().addColumn(null, Q),
            () -> new Scan().setColumnFamilyTimeRange(null, 0, 1));
    for (Runnable call : calls) {
      assertThatThrownBy(call::run)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("column family is null");
    }
  }

  @Test
  void oversizedFamilyIsRejected() {
    assertThatThrownBy(() -> new Put(ROW).addColumn(new byte[128], Q, V))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("family length 128");
  }

  // ---- Put ----------------------------------------------------------------------------------

  @Test
  void putBuildsPutCellsGroupedByFamily() {
    Put p =
        new Put(ROW, 10)
            .addColumn(G, Q, V)
            .addColumn(F, Q2, 20, s("b"))
            .addColumn(F, Q, s("a"))
            .addColumn(F, null, null);
    assertThat(p.getRow()).isSameAs(ROW);
    assertThat(p.size()).isEqualTo(4);
    assertThat(p.isEmpty()).isFalse();
    assertThat(p.getFamilyCellMap().keySet()).containsExactly(F, G);
    List<Cell> fCells = p.getFamilyCellMap().get(F);
    assertThat(fCells).hasSize(3);
    // Cells keep the order they were added in.
    assertThat(fCells.get(0))
        .isEqualTo(KeyValue.of(ROW, F, Q2, 20, CellType.PUT, s("b")))
        .isInstanceOf(KeyValue.class);
    assertThat(fCells.get(1)).isEqualTo(KeyValue.of(ROW, F, Q, 10, CellType.PUT, s("a")));
    // Null qualifier and value mean empty ones.
    assertThat(fCells.get(2))
        .isEqualTo(KeyValue.of(ROW, F, Bytes.EMPTY, 10, CellType.PUT, Bytes.EMPTY));
    assertThat(p.has(F, Q)).isTrue();
    assertThat(p.has(F, s("zz"))).isFalse();
    assertThat(p.has(s("nope"), Q)).isFalse();
    assertThat(p.get(F, Q2)).hasSize(1);
    assertThat(new Put(ROW).isEmpty()).isTrue();
    assertThat(new Put(ROW).size()).isZero();
  }

  @Test
  void familyCellMapIsReadOnly() {
    Put p = new Put(ROW).addColumn(F, Q, V);
    assertThatThrownBy(() -> p.getFamilyCellMap().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void putAddChecksTypeAndRow() {
    Put p = new Put(ROW);
    KeyValue ok = KeyValue.of(ROW, F, Q, 3, CellType.PUT, V);
    p.add(ok);
    assertThat(p.get(F, Q)).containsExactly(ok);
    assertThatThrownBy(() -> p.add(KeyValue.of(ROW, F, Q, 3, CellType.DELETE, V)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Put cells")
        .hasMessageContaining("DELETE");
    assertThatThrownBy(() -> p.add(KeyValue.of(s("other"), F, Q, 3, CellType.PUT, V)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other")
        .hasMessageContaining("does not match");
  }

  @Test
  void durabilityAndAttributes() {
    Put p = new Put(ROW).setDurability(Durability.SKIP_WAL);
    assertThat(p.getDurability()).isEqualTo(Durability.SKIP_WAL);
    assertThat(new Delete(ROW).getDurability()).isEqualTo(Durability.USE_DEFAULT);
    p.setAttribute("a", V);
    assertThat(p.getAttribute("a")).isEqualTo(V);
    assertThat(p.getAttributesMap()).containsOnlyKeys("a");
    p.setAttribute("a", null);
    assertThat(p.getAttribute("a")).isNull();
    assertThat(new Put(ROW).getAttributesMap()).isEmpty();
  }

  // ---- Delete -------------------------------------------------------------------------------

  @Test
  void deleteBuildsTheFiveMarkerShapes() {
    Delete d =
        new Delete(ROW, 50)
            .addFamilyVersion(F, 7)
            .addColumns(F, Q)
            .addColumns(F, Q2, 8)
            .addColumn(G, Q)
            .addColumn(G, Q2, 9);
    assertThat(d.getFamilyCellMap().get(F))
        .containsExactly(
            KeyValue.of(ROW, F, Bytes.EMPTY, 7, CellType.DELETE_FAMILY_VERSION, Bytes.EMPTY),
            KeyValue.of(ROW, F, Q, 50, CellType.DELETE_COLUMN, Bytes.EMPTY),
            KeyValue.of(ROW, F, Q2, 8, CellType.DELETE_COLUMN, Bytes.EMPTY));
    assertThat(d.getFamilyCellMap().get(G))
        .containsExactly(
            KeyValue.of(ROW, G, Q, 50, CellType.DELETE, Bytes.EMPTY),
            KeyValue.of(ROW, G, Q2, 9, CellType.DELETE, Bytes.EMPTY));
    assertThat(new Delete(ROW).isEmpty()).isTrue(); // a whole-row delete
  }

  @Test
  void addFamilyReplacesEarlierMarkersOfThatFamily() {
    Delete d =
        new Delete(ROW)
            .addColumn(F, Q, 5)
            .addColumns(F, Q2, 6)
            .addFamilyVersion(F, 7)
            .addColumn(G, Q, 8)
            .addFamily(F, 100);
    assertThat(d.getFamilyCellMap().get(F))
        .containsExactly(
            KeyValue.of(ROW, F, Bytes.EMPTY, 100, CellType.DELETE_FAMILY, Bytes.EMPTY));
    // Other families keep theirs.
    assertThat(d.getFamilyCellMap().get(G)).hasSize(1);
    // Markers added after the family marker stay.
    d.addColumn(F, Q, 9);
    assertThat(d.getFamilyCellMap().get(F)).hasSize(2);
    // A second addFamily replaces the first.
    d.addFamily(F);
    assertThat(d.getFamilyCellMap().get(F))
        .containsExactly(
            KeyValue.of(
                ROW,
                F,
                Bytes.EMPTY,
                KeyValue.LATEST_TIMESTAMP,
                CellType.DELETE_FAMILY,
                Bytes.EMPTY));
  }

  @Test
  void deleteAddAcceptsOnlyMarkersOfItsRow() {
    Delete d = new Delete(ROW);
    KeyValue marker = KeyValue.of(ROW, F, Q, 3, CellType.DELETE_COLUMN, Bytes.EMPTY);
    d.add(marker);
    assertThat(d.get(F, Q)).containsExactly(marker);
    assertThatThrownBy(() -> d.add(KeyValue.of(ROW, F, Q, 3, CellType.PUT, V)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delete markers")
        .hasMessageContaining("PUT");
    assertThatThrownBy(() -> d.add(KeyValue.of(s("x"), F, Q, 3, CellType.DELETE, Bytes.EMPTY)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not match");
  }

  // ---- Increment / Append -------------------------------------------------------------------

  @Test
  void incrementKeepsTheLastAmountPerColumn() {
    Increment inc = new Increment(ROW).addColumn(F, Q, 1).addColumn(F, Q2, 10).addColumn(F, Q, -5);
    assertThat(inc.size()).isEqualTo(2);
    List<Cell> q = inc.get(F, Q);
    assertThat(q).hasSize(1);
    assertThat(Bytes.toLong(CellUtil.cloneValue(q.get(0)))).isEqualTo(-5);
    assertThat(Bytes.toLong(CellUtil.cloneValue(inc.get(F, Q2).get(0)))).isEqualTo(10);
    // Same qualifier in another family is another column.
    inc.addColumn(G, Q, 3);
    assertThat(inc.size()).isEqualTo(3);
    // A null qualifier is the empty qualifier, and also deduplicated.
    inc.addColumn(F, null, 1).addColumn(F, Bytes.EMPTY, 2);
    assertThat(inc.get(F, Bytes.EMPTY)).hasSize(1);
    assertThat(Bytes.toLong(CellUtil.cloneValue(inc.get(F, Bytes.EMPTY).get(0)))).isEqualTo(2);
  }

  @Test
  void incrementAmountsAreEightByteBigEndian() {
    Cell c = new Increment(ROW).addColumn(F, Q, Long.MIN_VALUE).get(F, Q).get(0);
    assertThat(c.getValueLength()).isEqualTo(8);
    assertThat(CellUtil.cloneValue(c)).containsExactly(Bytes.toBytes(Long.MIN_VALUE));
    assertThat(c.getType()).isEqualTo(CellType.PUT);
  }

  @Test
  void incrementAndAppendOptions() {
    Increment inc = new Increment(ROW);
    assertThat(inc.getTimeRange().isAllTime()).isTrue();
    assertThat(inc.isReturnResults()).isTrue();
    inc.setTimeRange(5, 10).setReturnResults(false).setDurability(Durability.ASYNC_WAL);
    assertThat(inc.getTimeRange()).isEqualTo(TimeRange.between(5, 10));
    assertThat(inc.isReturnResults()).isFalse();
    assertThat(inc.getDurability()).isEqualTo(Durability.ASYNC_WAL);
    assertThatThrownBy(() -> inc.setTimeRange(10, 5)).isInstanceOf(IllegalArgumentException.class);

    Append app = new Append(ROW);
    assertThat(app.getTimeRange().isAllTime()).isTrue();
    assertThat(app.isReturnResults()).isTrue();
    app.setTimeRange(1, 2).setReturnResults(false).setDurability(Durability.FSYNC_WAL);
    assertThat(app.getTimeRange()).isEqualTo(TimeRange.between(1, 2));
    assertThat(app.isReturnResults()).isFalse();
    assertThat(app.getDurability()).isEqualTo(Durability.FSYNC_WAL);
  }

  @Test
  void appendCarriesTheBytesToAppend() {
    Append app = new Append(ROW).addColumn(F, Q, s("ab")).addColumn(F, null, null);
    assertThat(app.size()).isEqualTo(2);
    assertThat(CellUtil.cloneValue(app.get(F, Q).get(0))).containsExactly(s("ab"));
    assertThat(app.get(F, Bytes.EMPTY).get(0).getValueLength()).isZero();
  }

  @Test
  void toStringShowsRowAndCells() {
    assertThat(new Put(s("r\u0001")).addColumn(F, Q, 1, V).toString())
        .startsWith("Put{row=r\\x01")
        .contains("f:q/1/PUT");
  }
}
