package dev.basalt.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ResultTest {
  private static final byte[] ROW = Bytes.toBytes("r");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");

  private static byte[] s(String v) {
    return Bytes.toBytes(v);
  }

  private static KeyValue kv(byte[] fam, String qual, long ts, String value) {
    return KeyValue.of(ROW, fam, s(qual), ts, CellType.PUT, s(value));
  }

  /** A row in cell order, with qualifiers that share prefixes. */
  private static final List<KeyValue> CELLS =
      List.of(
          kv(F, "", 1, "empty"),
          kv(F, "a", 5, "a5"),
          kv(F, "a", 3, "a3"),
          kv(F, "ab", 7, "ab7"),
          kv(F, "abc", 2, "abc2"),
          kv(F, "b", 9, "b9"),
          kv(F, "b", 8, "b8"),
          kv(F, "b", 1, "b1"),
          kv(G, "a", 4, "ga4"));

  private static Result result() {
    return Result.create(CELLS);
  }

  @Test
  void cellsByIndexAndAppendedInCellOrder() {
    Result r = result();
    List<Cell> out = new ArrayList<>(List.of(kv(F, "before", 1, "x")));
    r.addCellsTo(out);
    assertThat(out.subList(1, out.size())).containsExactlyElementsOf(CELLS);
    for (int i = 0; i < r.size(); i++) {
      assertThat(r.cellAt(i)).isSameAs(CELLS.get(i));
    }
    assertThatThrownBy(() -> r.cellAt(r.size())).isInstanceOf(ArrayIndexOutOfBoundsException.class);
  }

  @Test
  void basicAccessors() {
    Result r = result();
    assertThat(r.isEmpty()).isFalse();
    assertThat(r.size()).isEqualTo(9);
    assertThat(r.getRow()).isEqualTo(ROW);
    assertThat(r.value()).isEqualTo(s("empty"));
    assertThat(r.getExists()).isNull();
    assertThat(r.mayHaveMoreCellsInRow()).isFalse();
    assertThat(r.listCells()).containsExactlyElementsOf(CELLS);
    assertThat(r.cells()).containsExactlyElementsOf(CELLS);
    assertThat(r.rawCells()).containsExactlyElementsOf(CELLS);
    // rawCells is a copy.
    r.rawCells()[0] = null;
    assertThat(r.rawCells()[0]).isNotNull();
    assertThatThrownBy(() -> r.cells().clear()).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void anAdoptedArrayIsTheResultsCells() {
    Cell[] cells = CELLS.toArray(new Cell[0]);
    Result r = Result.adopt(cells);
    assertThat(r).isEqualTo(Result.create(CELLS));
    assertThat(r.size()).isEqualTo(CELLS.size());
    assertThat(r.mayHaveMoreCellsInRow()).isFalse();
    assertThat(Result.adopt(new Cell[0])).isSameAs(Result.EMPTY);
  }

  @Test
  void emptyResult() {
    Result r = Result.create(List.of());
    assertThat(r).isSameAs(Result.EMPTY);
    assertThat(r.isEmpty()).isTrue();
    assertThat(r.size()).isZero();
    assertThat(r.getRow()).isNull();
    assertThat(r.value()).isNull();
    assertThat(r.listCells()).isNull();
    assertThat(r.cells()).isEmpty();
    assertThat(r.getValue(F, s("a"))).isNull();
    assertThat(r.getColumnLatestCell(F, s("a"))).isNull();
    assertThat(r.getColumnCells(F, s("a"))).isEmpty();
    assertThat(r.containsColumn(F, s("a"))).isFalse();
    assertThat(r.getFamilyMap(F)).as("HBase: null for an empty result").isNull();
    assertThat(r.getNoVersionMap()).isNull();
    assertThat(r.getMap()).isNull();
  }

  @Test
  void partialResults() {
    Result partial = Result.create(List.of(CELLS.get(0)), true);
    assertThat(partial.mayHaveMoreCellsInRow()).isTrue();
    Result emptyPartial = Result.create(List.of(), true);
    assertThat(emptyPartial).isNotSameAs(Result.EMPTY);
    assertThat(emptyPartial.mayHaveMoreCellsInRow()).isTrue();
    assertThat(emptyPartial.isEmpty()).isTrue();
    assertThat(partial.toString()).endsWith(", partial}");
  }

  @Test
  void ofExists() {
    Result yes = Result.ofExists(true);
    Result no = Result.ofExists(false);
    assertThat(yes.getExists()).isTrue();
    assertThat(no.getExists()).isFalse();
    assertThat(yes.isEmpty()).isTrue();
    assertThat(yes.size()).isZero();
    assertThat(yes).isNotEqualTo(no).isNotEqualTo(Result.EMPTY);
    assertThat(yes).isEqualTo(Result.ofExists(true));
    assertThat(yes.toString()).contains("exists=true");
  }

  @Test
  void getValueReturnsTheNewestVersion() {
    Result r = result();
    assertThat(r.getValue(F, s("a"))).isEqualTo(s("a5"));
    assertThat(r.getValue(F, s("ab"))).isEqualTo(s("ab7"));
    assertThat(r.getValue(F, s("abc"))).isEqualTo(s("abc2"));
    assertThat(r.getValue(F, s("b"))).isEqualTo(s("b9"));
    assertThat(r.getValue(G, s("a"))).isEqualTo(s("ga4"));
    assertThat(r.getValue(F, Bytes.EMPTY)).isEqualTo(s("empty"));
    assertThat(r.getValue(F, null)).isEqualTo(s("empty"));
  }

  @Test
  void lookupsDoNotConfuseQualifiersThatSharePrefixes() {
    Result r = result();
    for (String missing : new String[] {"aa", "abd", "abcd", "a\u0000", "c", "B"}) {
      assertThat(r.getValue(F, s(missing))).as(missing).isNull();
      assertThat(r.getColumnLatestCell(F, s(missing))).as(missing).isNull();
      assertThat(r.containsColumn(F, s(missing))).as(missing).isFalse();
      assertThat(r.getColumnCells(F, s(missing))).as(missing).isEmpty();
    }
    assertThat(r.getValue(s("e"), s("a"))).isNull();
    assertThat(r.getValue(s("ff"), s("a"))).isNull();
    assertThat(r.getValue(G, s("b"))).isNull();
  }

  @Test
  void columnCells() {
    Result r = result();
    assertThat(r.getColumnLatestCell(F, s("b"))).isSameAs(CELLS.get(5));
    assertThat(r.getColumnCells(F, s("b")))
        .containsExactly(CELLS.get(5), CELLS.get(6), CELLS.get(7));
    assertThat(r.getColumnCells(F, s("a"))).containsExactly(CELLS.get(1), CELLS.get(2));
    assertThat(r.getColumnCells(F, s("ab"))).containsExactly(CELLS.get(3));
    assertThat(r.getColumnCells(G, s("a"))).containsExactly(CELLS.get(8));
    assertThat(r.containsColumn(F, s("abc"))).isTrue();
  }

  @Test
  void familyMapHasNewestValuePerQualifier() {
    NavigableMap<byte[], byte[]> f = result().getFamilyMap(F);
    assertThat(f.keySet()).containsExactly(s(""), s("a"), s("ab"), s("abc"), s("b"));
    assertThat(f.get(s("a"))).isEqualTo(s("a5"));
    assertThat(f.get(s("b"))).isEqualTo(s("b9"));
    assertThat(result().getFamilyMap(G).keySet()).containsExactly(s("a"));
    assertThat(result().getFamilyMap(s("zz"))).as("HBase: empty for an absent family").isEmpty();
  }

  @Test
  void noVersionMap() {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> m = result().getNoVersionMap();
    assertThat(m.keySet()).containsExactly(F, G);
    assertThat(m.get(F).get(s("a"))).isEqualTo(s("a5"));
    assertThat(m.get(F).get(s("abc"))).isEqualTo(s("abc2"));
    assertThat(m.get(G).get(s("a"))).isEqualTo(s("ga4"));
    assertThat(m.get(F)).hasSize(5);
  }

  @Test
  void fullMapHasEveryVersionNewestFirst() {
    NavigableMap<byte[], NavigableMap<byte[], NavigableMap<Long, byte[]>>> m = result().getMap();
    assertThat(m.keySet()).containsExactly(F, G);
    NavigableMap<Long, byte[]> b = m.get(F).get(s("b"));
    assertThat(b.keySet()).containsExactly(9L, 8L, 1L);
    assertThat(b.firstEntry().getValue()).isEqualTo(s("b9"));
    assertThat(b.get(1L)).isEqualTo(s("b1"));
    assertThat(m.get(F).get(s("a")).keySet()).containsExactly(5L, 3L);
    assertThat(m.get(G).get(s("a")).keySet()).containsExactly(4L);
  }

  @Test
  void equalsComparesCells() {
    assertThat(result()).isEqualTo(Result.create(new ArrayList<>(CELLS)));
    assertThat(result()).hasSameHashCodeAs(Result.create(new ArrayList<>(CELLS)));
    assertThat(result()).isNotEqualTo(Result.create(CELLS.subList(0, 3)));
    assertThat(result()).isNotEqualTo(Result.create(CELLS, true));
  }

  // ---- binary search against a linear scan --------------------------------------------------

  private static final List<byte[]> FAMILIES = List.of(s("a"), s("b"), new byte[] {(byte) 0x90});
  private static final List<byte[]> QUALIFIERS =
      List.of(
          s(""),
          s("a"),
          s("aa"),
          s("aab"),
          s("ab"),
          new byte[] {'a', (byte) 0xFF},
          new byte[] {(byte) 0x80},
          new byte[] {(byte) 0x80, 0});

  @Provide
  Arbitrary<List<KeyValue>> rows() {
    Arbitrary<KeyValue> cell =
        Combinators.combine(
                Arbitraries.of(FAMILIES),
                Arbitraries.of(QUALIFIERS),
                Arbitraries.longs().between(0, 5),
                Arbitraries.integers().between(0, 99))
            .as((f, q, ts, v) -> KeyValue.of(ROW, f, q, ts, CellType.PUT, Bytes.toBytes(v)));
    return cell.list().ofMaxSize(30);
  }

  @Property(tries = 500)
  void lookupsAgreeWithALinearScan(@ForAll("rows") List<KeyValue> raw) {
    // One cell per (family, qualifier, timestamp), in cell order.
    TreeSet<Cell> sorted = new TreeSet<>(CellComparator.INSTANCE);
    sorted.addAll(raw);
    List<Cell> cells = new ArrayList<>(sorted);
    Result r = Result.create(cells);
    for (byte[] f : FAMILIES) {
      for (byte[] q : QUALIFIERS) {
        List<Cell> expected = new ArrayList<>();
        for (Cell c : cells) {
          if (CellUtil.matchingColumn(c, f, q)) {
            expected.add(c);
          }
        }
        assertThat(r.getColumnCells(f, q)).containsExactlyElementsOf(expected);
        assertThat(r.containsColumn(f, q)).isEqualTo(!expected.isEmpty());
        if (expected.isEmpty()) {
          assertThat(r.getValue(f, q)).isNull();
          assertThat(r.getColumnLatestCell(f, q)).isNull();
        } else {
          assertThat(r.getColumnLatestCell(f, q)).isSameAs(expected.get(0));
          assertThat(r.getValue(f, q)).isEqualTo(CellUtil.cloneValue(expected.get(0)));
        }
      }
    }
    Set<String> families = new TreeSet<>();
    cells.forEach(c -> families.add(Bytes.toStringBinary(CellUtil.cloneFamily(c))));
    if (cells.isEmpty()) {
      assertThat(r.getNoVersionMap()).isNull();
    } else {
      assertThat(r.getNoVersionMap()).hasSize(families.size());
    }
  }
}
