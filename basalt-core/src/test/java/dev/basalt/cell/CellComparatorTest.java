package dev.basalt.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class CellComparatorTest {
  private static final CellComparator FWD = CellComparator.INSTANCE;
  private static final CellComparator REV = CellComparator.REVERSED_ROWS;

  private static byte[] s(String v) {
    return Bytes.toBytes(v);
  }

  private static KeyValue kv(byte[] row, byte[] fam, byte[] qual, long ts, CellType t, long seq) {
    return KeyValue.of(row, fam, qual, ts, t, s("v")).withSequenceId(seq);
  }

  private static KeyValue kv(String row, String fam, String qual, long ts, CellType t, long seq) {
    return kv(s(row), s(fam), s(qual), ts, t, seq);
  }

  /** Asserts a &lt; b through the fast path, the generic path and a mix of both. */
  private static void assertBefore(CellComparator cmp, KeyValue a, KeyValue b) {
    Cell ga = new DelegatingCell(a);
    Cell gb = new DelegatingCell(b);
    assertThat(cmp.compare(a, b)).as("fast %s < %s", a, b).isNegative();
    assertThat(cmp.compare(b, a)).as("fast %s > %s", b, a).isPositive();
    assertThat(cmp.compare(ga, gb)).as("generic %s < %s", a, b).isNegative();
    assertThat(cmp.compare(gb, ga)).as("generic %s > %s", b, a).isPositive();
    assertThat(cmp.compare(a, gb)).as("mixed %s < %s", a, b).isNegative();
    assertThat(cmp.compare(gb, a)).as("mixed %s > %s", b, a).isPositive();
  }

  @Test
  void rowsAscendingUnsigned() {
    assertBefore(FWD, kv("a", "f", "q", 1, CellType.PUT, 1), kv("b", "f", "q", 1, CellType.PUT, 1));
    assertBefore(
        FWD,
        kv(new byte[] {0x7F}, s("f"), s("q"), 1, CellType.PUT, 1),
        kv(new byte[] {(byte) 0x80}, s("f"), s("q"), 1, CellType.PUT, 1));
    // A shorter row that is a prefix sorts first, whatever the rest of the key.
    assertBefore(
        FWD, kv("ab", "z", "z", 0, CellType.PUT, 0), kv("ab\u0000", "a", "", 9, CellType.PUT, 9));
    // The row decides before everything else.
    assertBefore(FWD, kv("a", "z", "z", 0, CellType.PUT, 0), kv("b", "a", "a", 9, CellType.PUT, 9));
  }

  @Test
  void familiesAscendingThenQualifiersAscending() {
    assertBefore(FWD, kv("r", "a", "z", 1, CellType.PUT, 1), kv("r", "b", "a", 1, CellType.PUT, 1));
    assertBefore(FWD, kv("r", "f", "a", 1, CellType.PUT, 1), kv("r", "f", "b", 1, CellType.PUT, 1));
    assertBefore(FWD, kv("r", "f", "", 1, CellType.PUT, 1), kv("r", "f", "a", 9, CellType.PUT, 9));
    assertBefore(
        FWD,
        kv(s("r"), s("f"), new byte[] {0x7F}, 1, CellType.PUT, 1),
        kv(s("r"), s("f"), new byte[] {(byte) 0xFF}, 1, CellType.PUT, 1));
  }

  @Test
  void familyIsComparedSeparatelyFromQualifier() {
    // Concatenated, both keys read "abc"; by family, "a" < "ab".
    KeyValue aBc = kv("r", "a", "bc", 1, CellType.PUT, 1);
    KeyValue abC = kv("r", "ab", "c", 1, CellType.PUT, 1);
    assertBefore(FWD, aBc, abC);
    assertBefore(REV, aBc, abC);
    // And "a"+"z" still sorts before "ab"+"" although "az" > "ab".
    assertBefore(FWD, kv("r", "a", "z", 1, CellType.PUT, 1), kv("r", "ab", "", 1, CellType.PUT, 1));
  }

  @Test
  void timestampsDescending() {
    assertBefore(FWD, kv("r", "f", "q", 2, CellType.PUT, 1), kv("r", "f", "q", 1, CellType.PUT, 1));
    assertBefore(
        FWD,
        kv("r", "f", "q", Long.MAX_VALUE, CellType.PUT, 1),
        kv("r", "f", "q", 0, CellType.PUT, 1));
    assertBefore(
        FWD,
        kv("r", "f", "q", 0, CellType.PUT, 1),
        kv("r", "f", "q", Long.MIN_VALUE, CellType.PUT, 1));
  }

  @Test
  void typesDescendingSoMarkersComeBeforePutsOfEqualTimestamp() {
    CellType[] expectedOrder = {
      CellType.MAXIMUM,
      CellType.DELETE_FAMILY,
      CellType.DELETE_COLUMN,
      CellType.DELETE_FAMILY_VERSION,
      CellType.DELETE,
      CellType.PUT,
      CellType.MINIMUM
    };
    for (int i = 0; i + 1 < expectedOrder.length; i++) {
      assertBefore(
          FWD,
          kv("r", "f", "q", 5, expectedOrder[i], 1),
          kv("r", "f", "q", 5, expectedOrder[i + 1], 1));
    }
    // The type only breaks timestamp ties.
    assertBefore(
        FWD, kv("r", "f", "q", 6, CellType.PUT, 1), kv("r", "f", "q", 5, CellType.DELETE, 1));
  }

  @Test
  void sequenceIdsDescending() {
    assertBefore(FWD, kv("r", "f", "q", 5, CellType.PUT, 9), kv("r", "f", "q", 5, CellType.PUT, 8));
    assertBefore(
        FWD,
        kv("r", "f", "q", 5, CellType.PUT, Long.MAX_VALUE),
        kv("r", "f", "q", 5, CellType.PUT, 0));
    // The sequence id only breaks ties of the whole key.
    assertBefore(
        FWD, kv("r", "f", "q", 5, CellType.DELETE, 1), kv("r", "f", "q", 5, CellType.PUT, 9));
  }

  @Test
  void compareWithoutSequenceIdIgnoresItAndTheValue() {
    KeyValue a = kv("r", "f", "q", 5, CellType.PUT, 9);
    KeyValue b = KeyValue.of(s("r"), s("f"), s("q"), 5, CellType.PUT, s("other")).withSequenceId(1);
    assertThat(FWD.compareWithoutSequenceId(a, b)).isZero();
    assertThat(FWD.compareWithoutSequenceId(new DelegatingCell(a), new DelegatingCell(b))).isZero();
    assertThat(FWD.compare(a, b)).isNegative();
    assertThat(FWD.compare(a, a.withSequenceId(9))).isZero();
  }

  @Test
  void reversedRowsReversesOnlyTheRows() {
    assertThat(REV.isReversed()).isTrue();
    assertThat(FWD.isReversed()).isFalse();
    assertBefore(REV, kv("b", "f", "q", 1, CellType.PUT, 1), kv("a", "f", "q", 1, CellType.PUT, 1));
    assertBefore(
        REV,
        kv(new byte[] {(byte) 0x80}, s("f"), s("q"), 1, CellType.PUT, 1),
        kv(new byte[] {0x7F}, s("f"), s("q"), 1, CellType.PUT, 1));
    assertBefore(
        REV, kv("ab\u0000", "a", "", 1, CellType.PUT, 1), kv("ab", "z", "z", 1, CellType.PUT, 1));
    // Inside a row: the forward order.
    assertBefore(REV, kv("r", "a", "q", 1, CellType.PUT, 1), kv("r", "b", "q", 1, CellType.PUT, 1));
    assertBefore(REV, kv("r", "f", "a", 1, CellType.PUT, 1), kv("r", "f", "b", 1, CellType.PUT, 1));
    assertBefore(REV, kv("r", "f", "q", 2, CellType.PUT, 1), kv("r", "f", "q", 1, CellType.PUT, 1));
    assertBefore(
        REV, kv("r", "f", "q", 1, CellType.DELETE, 1), kv("r", "f", "q", 1, CellType.PUT, 1));
    assertBefore(REV, kv("r", "f", "q", 1, CellType.PUT, 2), kv("r", "f", "q", 1, CellType.PUT, 1));
    // A reversed scan seeks to the first cell of a row with firstOnRow.
    assertBefore(REV, KeyValue.firstOnRow(s("r")), kv("r", "a", "", 9, CellType.PUT, 9));
  }

  @Test
  void rowAndColumnHelpers() {
    KeyValue a = kv("a", "f", "q1", 1, CellType.PUT, 1);
    KeyValue b = kv("b", "g", "q2", 1, CellType.PUT, 1);
    assertThat(FWD.compareRows(a, b)).isNegative();
    assertThat(REV.compareRows(a, b)).isPositive();
    assertThat(FWD.compareRows(a, s("xa"), 1, 1)).isZero();
    assertThat(FWD.compareRows(a, s("b"), 0, 1)).isNegative();
    assertThat(REV.compareRows(a, s("b"), 0, 1)).isPositive();
    assertThat(FWD.compareRows(s("a"), s("b"))).isNegative();
    assertThat(REV.compareRows(s("a"), s("b"))).isPositive();
    assertThat(FWD.compareFamilies(a, b)).isNegative();
    assertThat(REV.compareFamilies(a, b)).isNegative();
    assertThat(FWD.compareQualifiers(a, b)).isNegative();
    assertThat(FWD.compareQualifier(a, s("q1"))).isZero();
    assertThat(FWD.compareQualifier(a, s("q"))).isPositive();
    assertThat(FWD.compareColumns(a, b)).isNegative();
    assertThat(FWD.compareColumns(a, kv("z", "f", "q1", 7, CellType.DELETE, 3))).isZero();
  }

  @Test
  void sortsAListIntoTheDocumentedOrder() {
    List<KeyValue> expected =
        List.of(
            kv("r1", "a", "", 10, CellType.DELETE_FAMILY, 3),
            kv("r1", "a", "q", 10, CellType.DELETE_COLUMN, 3),
            kv("r1", "a", "q", 10, CellType.PUT, 5),
            kv("r1", "a", "q", 10, CellType.PUT, 2),
            kv("r1", "a", "q", 9, CellType.PUT, 7),
            kv("r1", "a", "qq", 20, CellType.PUT, 1),
            kv("r1", "b", "a", 1, CellType.PUT, 1),
            kv("r2", "a", "a", 1, CellType.PUT, 1));
    List<Cell> shuffled = new ArrayList<>(expected);
    Collections.reverse(shuffled);
    shuffled.sort(FWD);
    assertThat(shuffled).containsExactlyElementsOf(expected);
  }

  // ---- properties ---------------------------------------------------------------------------

  @Provide
  Arbitrary<KeyValue> cells() {
    // Small alphabets so that equal rows, columns and timestamps are common.
    Arbitrary<byte[]> row =
        Arbitraries.of(
            new byte[] {1},
            new byte[] {1, 0},
            new byte[] {1, (byte) 0x80},
            new byte[] {(byte) 0x80},
            new byte[] {(byte) 0xFF},
            new byte[] {0x7F, (byte) 0xFF});
    Arbitrary<byte[]> fam = Arbitraries.of(new byte[0], s("a"), s("ab"), new byte[] {(byte) 0x90});
    Arbitrary<byte[]> qual =
        Arbitraries.of(new byte[0], s("b"), s("bc"), s("c"), new byte[] {(byte) 0xC0, 1});
    Arbitrary<Long> ts = Arbitraries.of(0L, 1L, 2L, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, -1L);
    Arbitrary<CellType> type = Arbitraries.of(CellType.class);
    Arbitrary<Long> seq = Arbitraries.of(0L, 1L, 2L, Long.MAX_VALUE);
    Arbitrary<Integer> offset = Arbitraries.integers().between(0, 5);
    return Combinators.combine(row, fam, qual, ts, type, seq, offset)
        .as(
            (r, f, q, t, ty, sq, off) -> {
              KeyValue kv = KeyValue.of(r, f, q, t, ty, s("v")).withSequenceId(sq);
              // Move the cell into a bigger array so that offsets are exercised too.
              byte[] big = new byte[off + kv.getLength() + 2];
              System.arraycopy(kv.getBuffer(), kv.getOffset(), big, off, kv.getLength());
              return new KeyValue(big, off, kv.getLength(), sq);
            });
  }

  @Property(tries = 1000)
  void fastPathAgreesWithGenericPath(@ForAll("cells") KeyValue a, @ForAll("cells") KeyValue b) {
    for (CellComparator cmp : List.of(FWD, REV)) {
      int fast = Integer.signum(cmp.compare(a, b));
      assertThat(Integer.signum(cmp.compare(new DelegatingCell(a), new DelegatingCell(b))))
          .isEqualTo(fast);
      assertThat(Integer.signum(cmp.compare(a, new DelegatingCell(b)))).isEqualTo(fast);
      assertThat(Integer.signum(cmp.compare(new DelegatingCell(a), b))).isEqualTo(fast);
      assertThat(Integer.signum(cmp.compareWithoutSequenceId(a, b)))
          .isEqualTo(
              Integer.signum(
                  cmp.compareWithoutSequenceId(new DelegatingCell(a), new DelegatingCell(b))));
    }
  }

  @Property(tries = 1000)
  void fastPathFollowsTheSpelledOutRules(@ForAll("cells") KeyValue a, @ForAll("cells") KeyValue b) {
    int expected = Bytes.compareTo(CellUtil.cloneRow(a), CellUtil.cloneRow(b));
    if (expected == 0) {
      expected = Bytes.compareTo(CellUtil.cloneFamily(a), CellUtil.cloneFamily(b));
    }
    if (expected == 0) {
      expected = Bytes.compareTo(CellUtil.cloneQualifier(a), CellUtil.cloneQualifier(b));
    }
    if (expected == 0) {
      expected = Long.compare(b.getTimestamp(), a.getTimestamp());
    }
    if (expected == 0) {
      expected = Integer.compare(b.getTypeByte() & 0xFF, a.getTypeByte() & 0xFF);
    }
    if (expected == 0) {
      expected = Long.compare(b.getSequenceId(), a.getSequenceId());
    }
    assertThat(Integer.signum(FWD.compare(a, b))).isEqualTo(Integer.signum(expected));
    int rows = Bytes.compareTo(CellUtil.cloneRow(a), CellUtil.cloneRow(b));
    assertThat(Integer.signum(REV.compare(a, b)))
        .isEqualTo(rows != 0 ? -Integer.signum(rows) : Integer.signum(expected));
  }

  @Property(tries = 1000)
  void keyRelationFollowsTheComponents(@ForAll("cells") KeyValue a, @ForAll("cells") KeyValue b) {
    int expected;
    if (!Arrays.equals(CellUtil.cloneRow(a), CellUtil.cloneRow(b))) {
      expected = CellUtil.DIFFERENT_ROW;
    } else if (Arrays.equals(CellUtil.cloneFamily(a), CellUtil.cloneFamily(b))
        && Arrays.equals(CellUtil.cloneQualifier(a), CellUtil.cloneQualifier(b))) {
      expected = CellUtil.SAME_COLUMN;
    } else {
      expected = CellUtil.SAME_ROW;
    }
    assertThat(CellUtil.keyRelation(a, b)).isEqualTo(expected);
    assertThat(CellUtil.keyRelation(b, a)).isEqualTo(expected);
    assertThat(CellUtil.keyRelation(new DelegatingCell(a), b)).isEqualTo(expected);
    assertThat(CellUtil.keyRelation(a, new DelegatingCell(b))).isEqualTo(expected);
  }

  @Property(tries = 1000)
  void isATotalOrder(
      @ForAll("cells") KeyValue a, @ForAll("cells") KeyValue b, @ForAll("cells") KeyValue c) {
    for (CellComparator cmp : List.of(FWD, REV)) {
      int ab = Integer.signum(cmp.compare(a, b));
      int ba = Integer.signum(cmp.compare(b, a));
      int bc = Integer.signum(cmp.compare(b, c));
      int ac = Integer.signum(cmp.compare(a, c));
      // Antisymmetric.
      assertThat(ba).isEqualTo(-ab);
      // Reflexive.
      assertThat(cmp.compare(a, a)).isZero();
      // Transitive.
      if (ab <= 0 && bc <= 0) {
        assertThat(ac).isLessThanOrEqualTo(0);
      }
      if (ab <= 0 && bc <= 0) {
        assertThat(ac).isEqualTo(ab == 0 && bc == 0 ? 0 : -1);
      }
      // Equal only when the keys are byte-identical and the sequence ids equal.
      if (ab == 0) {
        assertThat(a.getSequenceId()).isEqualTo(b.getSequenceId());
        assertThat(
                Bytes.equals(
                    a.getBuffer(),
                    a.keyOffset(),
                    a.keyLength(),
                    b.getBuffer(),
                    b.keyOffset(),
                    b.keyLength()))
            .isTrue();
      }
    }
  }
}
