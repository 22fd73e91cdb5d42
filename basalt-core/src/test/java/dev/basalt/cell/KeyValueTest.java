package dev.basalt.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class KeyValueTest {
  private static final CellComparator CMP = CellComparator.INSTANCE;

  private static byte[] s(String v) {
    return Bytes.toBytes(v);
  }

  private static byte[] b(int... v) {
    byte[] out = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) v[i];
    }
    return out;
  }

  /** row "row", family "cf", qualifier "q1", ts 0x0102030405060708, Put, value "v". */
  private static final byte[] HAND_BUILT =
      b(
          0, 0, 0, 19, // key length: 12 + 3 + 2 + 2
          0, 0, 0, 1, // value length
          0, 3, // row length
          'r', 'o', 'w', // row
          2, // family length
          'c', 'f', // family
          'q', '1', // qualifier
          1, 2, 3, 4, 5, 6, 7, 8, // timestamp
          4, // type: Put
          'v'); // value

  private static KeyValue sample() {
    return KeyValue.of(s("row"), s("cf"), s("q1"), 0x0102030405060708L, CellType.PUT, s("v"));
  }

  // ---- layout -------------------------------------------------------------------------------

  @Test
  void layoutMatchesTheClassCommentByteForByte() {
    KeyValue kv = sample();
    assertThat(kv.getOffset()).isZero();
    assertThat(kv.getLength()).isEqualTo(28).isEqualTo(HAND_BUILT.length);
    byte[] actual = Arrays.copyOfRange(kv.getBuffer(), kv.getOffset(), kv.getLength());
    for (int i = 0; i < HAND_BUILT.length; i++) {
      assertThat(actual[i]).as("byte %d", i).isEqualTo(HAND_BUILT[i]);
    }
    assertThat(actual).containsExactly(HAND_BUILT);
  }

  @Test
  void layoutOffsetsFollowTheTable() {
    KeyValue kv = sample();
    int k = kv.keyLength();
    assertThat(k).isEqualTo(KeyValue.KEY_INFRASTRUCTURE_SIZE + 3 + 2 + 2);
    assertThat(kv.keyOffset()).isEqualTo(8);
    assertThat(kv.getRowOffset()).isEqualTo(10);
    assertThat(kv.getFamilyOffset()).isEqualTo(10 + 3 + 1);
    assertThat(kv.getQualifierOffset()).isEqualTo(11 + 3 + 2);
    assertThat(kv.getQualifierLength()).isEqualTo(k - 3 - 2 - 12);
    assertThat(kv.getValueOffset()).isEqualTo(8 + k);
    assertThat(Bytes.readLong(kv.getBuffer(), 8 + k - 9)).isEqualTo(0x0102030405060708L);
    assertThat(kv.getBuffer()[8 + k - 1]).isEqualTo(CellType.PUT.code());
    assertThat(kv.getLength()).isEqualTo(8 + k + kv.getValueLength());
  }

  @Test
  void handBuiltBytesParseToTheSameCell() {
    KeyValue kv = KeyValue.parse(HAND_BUILT, 0, HAND_BUILT.length, 42);
    assertThat(kv).isEqualTo(sample());
    assertThat(kv.getSequenceId()).isEqualTo(42);
    assertThat(CellUtil.cloneRow(kv)).containsExactly(s("row"));
    assertThat(CellUtil.cloneFamily(kv)).containsExactly(s("cf"));
    assertThat(CellUtil.cloneQualifier(kv)).containsExactly(s("q1"));
    assertThat(CellUtil.cloneValue(kv)).containsExactly(s("v"));
    assertThat(kv.getTimestamp()).isEqualTo(0x0102030405060708L);
    assertThat(kv.getType()).isEqualTo(CellType.PUT);
  }

  @Test
  void gettersWorkAtANonZeroOffset() {
    int off = 13;
    byte[] big = new byte[off + HAND_BUILT.length + 7];
    Arrays.fill(big, (byte) 0xEE);
    System.arraycopy(HAND_BUILT, 0, big, off, HAND_BUILT.length);

    for (KeyValue kv :
        List.of(
            new KeyValue(big, off, HAND_BUILT.length, 7),
            KeyValue.parse(big, off, HAND_BUILT.length, 7))) {
      assertThat(kv.getOffset()).isEqualTo(off);
      assertThat(kv.getLength()).isEqualTo(28);
      assertThat(kv.keyLength()).isEqualTo(19);
      assertThat(kv.keyOffset()).isEqualTo(off + 8);
      assertThat(kv.getRowOffset()).isEqualTo(off + 10);
      assertThat(kv.getRowLength()).isEqualTo((short) 3);
      assertThat(kv.getFamilyOffset()).isEqualTo(off + 14);
      assertThat(kv.getFamilyLength()).isEqualTo((byte) 2);
      assertThat(kv.getQualifierOffset()).isEqualTo(off + 16);
      assertThat(kv.getQualifierLength()).isEqualTo(2);
      assertThat(kv.getValueOffset()).isEqualTo(off + 27);
      assertThat(kv.getValueLength()).isEqualTo(1);
      assertThat(kv.getTimestamp()).isEqualTo(0x0102030405060708L);
      assertThat(kv.getTypeByte()).isEqualTo(CellType.PUT.code());
      assertThat(kv.getSequenceId()).isEqualTo(7);
      assertThat(CellUtil.cloneRow(kv)).containsExactly(s("row"));
      assertThat(CellUtil.cloneFamily(kv)).containsExactly(s("cf"));
      assertThat(CellUtil.cloneQualifier(kv)).containsExactly(s("q1"));
      assertThat(CellUtil.cloneValue(kv)).containsExactly(s("v"));
      assertThat(CellUtil.matchingColumn(kv, s("cf"), s("q1"))).isTrue();
      assertThat(kv).isEqualTo(sample()).hasSameHashCodeAs(sample());
      assertThat(CMP.compare(kv, sample().withSequenceId(7))).isZero();
      assertThat(kv.toString()).isEqualTo("row/cf:q1/72623859790382856/PUT/vlen=1/seqid=7");
    }
  }

  @Test
  void emptyQualifierAndValue() {
    KeyValue kv = KeyValue.of(s("r"), s("f"), Bytes.EMPTY, 5, CellType.DELETE_FAMILY, Bytes.EMPTY);
    assertThat(kv.getQualifierLength()).isZero();
    assertThat(kv.getValueLength()).isZero();
    assertThat(kv.getLength()).isEqualTo(8 + 12 + 1 + 1);
    assertThat(kv.getType()).isEqualTo(CellType.DELETE_FAMILY);
    assertThat(kv.isDelete()).isTrue();
  }

  @Test
  void createCopiesFromSubranges() {
    KeyValue kv =
        KeyValue.create(
            s("xxrow"),
            2,
            3,
            s("-cf-"),
            1,
            2,
            s("q1zz"),
            0,
            2,
            9L,
            CellType.PUT.code(),
            s("abv"),
            2,
            1);
    assertThat(kv).isEqualTo(KeyValue.of(s("row"), s("cf"), s("q1"), 9L, CellType.PUT, s("v")));
  }

  @Test
  void maximumRowAndFamilyLengthsAreAccepted() {
    byte[] row = new byte[KeyValue.MAX_ROW_LENGTH];
    byte[] fam = new byte[KeyValue.MAX_FAMILY_LENGTH];
    Arrays.fill(row, (byte) 0xAB);
    Arrays.fill(fam, (byte) 'f');
    KeyValue kv = KeyValue.of(row, fam, s("q"), 1, CellType.PUT, s("v"));
    assertThat(kv.getRowLength()).isEqualTo((short) 32767);
    assertThat(kv.getFamilyLength()).isEqualTo((byte) 127);
    assertThat(CellUtil.cloneRow(kv)).containsExactly(row);
    assertThat(CellUtil.cloneFamily(kv)).containsExactly(fam);
    assertThat(CellUtil.cloneQualifier(kv)).containsExactly(s("q"));
    KeyValue parsed = KeyValue.parse(kv.getBuffer(), kv.getOffset(), kv.getLength(), 0);
    assertThat(parsed).isEqualTo(kv);
  }

  @Test
  void rowLongerThan32767IsRejected() {
    assertThatThrownBy(
            () -> KeyValue.of(new byte[32768], s("f"), s("q"), 1, CellType.PUT, Bytes.EMPTY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row length 32768");
  }

  @Test
  void familyLongerThan127IsRejected() {
    assertThatThrownBy(
            () -> KeyValue.of(s("r"), new byte[128], s("q"), 1, CellType.PUT, Bytes.EMPTY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("family length 128");
  }

  // ---- parse --------------------------------------------------------------------------------

  private static void assertParseFails(byte[] bytes, int off, int len, String messagePart) {
    assertThatThrownBy(() -> KeyValue.parse(bytes, off, len, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(messagePart);
  }

  @Test
  void parseRejectsTruncatedInput() {
    assertParseFails(HAND_BUILT, 0, 0, "too short");
    assertParseFails(HAND_BUILT, 0, 19, "too short");
    assertParseFails(HAND_BUILT, 0, HAND_BUILT.length - 1, "inconsistent");
    byte[] truncated = Arrays.copyOf(HAND_BUILT, HAND_BUILT.length - 1);
    assertParseFails(truncated, 0, truncated.length, "inconsistent");
  }

  @Test
  void parseRejectsARangeOutsideTheArray() {
    // The declared lengths are consistent with `length`, but the array is shorter.
    assertParseFails(HAND_BUILT, 0, HAND_BUILT.length + 10, "outside");
    assertParseFails(HAND_BUILT, 5, HAND_BUILT.length, "outside");
    assertParseFails(HAND_BUILT, -1, HAND_BUILT.length, "outside");
    assertParseFails(HAND_BUILT, 0, -5, "outside");
    byte[] head = Arrays.copyOf(HAND_BUILT, 12); // lengths say 28 bytes
    assertParseFails(head, 0, 28, "outside");
  }

  @Test
  void parseRejectsInconsistentLengths() {
    byte[] b = HAND_BUILT.clone();
    Bytes.putInt(b, 0, 20); // key length too large for the total
    assertParseFails(b, 0, b.length, "inconsistent");

    b = HAND_BUILT.clone();
    Bytes.putInt(b, 0, 11); // key length below the fixed part
    Bytes.putInt(b, 4, 9);
    assertParseFails(b, 0, b.length, "inconsistent");

    b = HAND_BUILT.clone();
    Bytes.putInt(b, 4, -1); // negative value length
    Bytes.putInt(b, 0, 21);
    assertParseFails(b, 0, b.length, "inconsistent");

    b = HAND_BUILT.clone();
    Bytes.putShort(b, 8, (short) 0x8000); // negative row length
    assertParseFails(b, 0, b.length, "row length");

    b = HAND_BUILT.clone();
    Bytes.putShort(b, 8, (short) 8); // row runs into the timestamp
    assertParseFails(b, 0, b.length, "row length 8");

    b = HAND_BUILT.clone();
    b[13] = (byte) 0x80; // negative family length
    assertParseFails(b, 0, b.length, "family length");

    b = HAND_BUILT.clone();
    b[13] = 5; // family runs into the timestamp
    assertParseFails(b, 0, b.length, "family length 5");
  }

  @Test
  void parseRejectsUnknownTypeCodes() {
    byte[] b = HAND_BUILT.clone();
    b[26] = 3;
    assertParseFails(b, 0, b.length, "type");
    b[26] = (byte) 200;
    assertParseFails(b, 0, b.length, "type");
    for (CellType t : CellType.values()) {
      b[26] = t.code();
      assertThat(KeyValue.parse(b, 0, b.length, 0).getType()).isEqualTo(t);
    }
  }

  @Test
  void parseAcceptsQualifierOfAnyLengthAndEmptyFamily() {
    KeyValue seek = KeyValue.firstOnRow(s("r"));
    KeyValue parsed = KeyValue.parse(seek.getBuffer(), seek.getOffset(), seek.getLength(), 1);
    assertThat(parsed.getFamilyLength()).isZero();
    assertThat(parsed.getQualifierLength()).isZero();
  }

  /** Every getter must work on a parsed cell, and the components must stay inside its bytes. */
  private static void assertWellFormed(KeyValue kv, int offset, int length) {
    int end = offset + length;
    assertThat(kv.getRowLength()).isNotNegative();
    assertThat(kv.getFamilyLength()).isNotNegative();
    assertThat(kv.getQualifierLength()).isNotNegative();
    assertThat(kv.getValueLength()).isNotNegative();
    assertThat(kv.getRowOffset()).isEqualTo(offset + 10);
    assertThat(kv.getFamilyOffset()).isEqualTo(kv.getRowOffset() + kv.getRowLength() + 1);
    assertThat(kv.getQualifierOffset()).isEqualTo(kv.getFamilyOffset() + kv.getFamilyLength());
    assertThat(kv.getQualifierOffset() + kv.getQualifierLength() + 9)
        .isEqualTo(kv.getValueOffset());
    assertThat(kv.getValueOffset() + kv.getValueLength()).isEqualTo(end);
    CellUtil.cloneRow(kv);
    CellUtil.cloneFamily(kv);
    CellUtil.cloneQualifier(kv);
    CellUtil.cloneValue(kv);
    kv.getTimestamp();
    assertThat(kv.getType()).isNotNull();
    kv.isDelete();
    assertThat(kv.toString()).isNotEmpty();
    assertThat(CMP.compare(kv, kv)).isZero();
    assertThat(KeyValue.copyOf(new DelegatingCell(kv))).isEqualTo(kv);
    assertThat(kv.withTimestamp(5).getTimestamp()).isEqualTo(5);
  }

  private static void parseOrReject(byte[] bytes, int offset, int length) {
    KeyValue kv;
    try {
      kv = KeyValue.parse(bytes, offset, length, 3);
    } catch (IllegalArgumentException expected) {
      return;
    }
    assertWellFormed(kv, offset, length);
  }

  @Property(tries = 1000)
  void randomBytesParseOrThrowIllegalArgument(
      @ForAll @Size(max = 64) byte[] bytes,
      @ForAll @IntRange(min = -2, max = 70) int offset,
      @ForAll @IntRange(min = -2, max = 70) int length) {
    parseOrReject(bytes, offset, length);
    parseOrReject(bytes, 0, bytes.length);
  }

  @Property(tries = 1000)
  void mutatedKeyValuesParseOrThrowIllegalArgument(
      @ForAll("keyValues") KeyValue kv,
      @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 0, max = 200) Integer> positions,
      @ForAll @Size(min = 4, max = 4) List<Byte> newBytes,
      @ForAll @IntRange(min = -3, max = 3) int lengthDelta,
      @ForAll @IntRange(min = 0, max = 3) int offset) {
    byte[] bytes = new byte[offset + kv.getLength() + 3];
    System.arraycopy(kv.getBuffer(), kv.getOffset(), bytes, offset, kv.getLength());
    for (int i = 0; i < positions.size(); i++) {
      int p = offset + positions.get(i) % kv.getLength();
      bytes[p] = newBytes.get(i);
    }
    parseOrReject(bytes, offset, kv.getLength() + lengthDelta);
    parseOrReject(bytes, offset, kv.getLength());
  }

  @Property(tries = 300)
  void validKeyValuesParseBackEqual(@ForAll("keyValues") KeyValue kv) {
    KeyValue parsed = KeyValue.parse(kv.getBuffer(), kv.getOffset(), kv.getLength(), 9);
    assertThat(parsed).isEqualTo(kv);
    assertWellFormed(parsed, kv.getOffset(), kv.getLength());
  }

  @Provide
  Arbitrary<KeyValue> keyValues() {
    Arbitrary<byte[]> row = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(12);
    Arbitrary<byte[]> fam = Arbitraries.bytes().array(byte[].class).ofMaxSize(6);
    Arbitrary<byte[]> qual = Arbitraries.bytes().array(byte[].class).ofMaxSize(12);
    Arbitrary<byte[]> val = Arbitraries.bytes().array(byte[].class).ofMaxSize(12);
    Arbitrary<Long> ts = Arbitraries.longs().greaterOrEqual(0);
    Arbitrary<CellType> type = Arbitraries.of(CellType.class);
    return Combinators.combine(row, fam, qual, ts, type, val)
        .as((r, f, q, t, ty, v) -> KeyValue.of(r, f, q, t, ty, v));
  }

  // ---- derived copies -----------------------------------------------------------------------

  @Test
  void withTimestampReplacesOnlyTheTimestamp() {
    int off = 4;
    byte[] big = new byte[off + HAND_BUILT.length];
    System.arraycopy(HAND_BUILT, 0, big, off, HAND_BUILT.length);
    KeyValue kv = new KeyValue(big, off, HAND_BUILT.length, 11);

    KeyValue moved = kv.withTimestamp(12345L);
    assertThat(moved.getTimestamp()).isEqualTo(12345L);
    assertThat(moved.getSequenceId()).isEqualTo(11);
    assertThat(moved)
        .isEqualTo(KeyValue.of(s("row"), s("cf"), s("q1"), 12345L, CellType.PUT, s("v")));
    // The original and its backing array are untouched.
    assertThat(kv.getTimestamp()).isEqualTo(0x0102030405060708L);
    assertThat(Arrays.copyOfRange(big, off, big.length)).containsExactly(HAND_BUILT);
  }

  @Test
  void withSequenceIdSharesBytes() {
    KeyValue kv = sample();
    KeyValue seq = kv.withSequenceId(99);
    assertThat(seq.getSequenceId()).isEqualTo(99);
    assertThat(kv.getSequenceId()).isZero();
    assertThat(seq.getBuffer()).isSameAs(kv.getBuffer());
    assertThat(kv.withSequenceId(0)).isSameAs(kv);
  }

  @Test
  void equalsIgnoresSequenceIdButNotValueOrKey() {
    KeyValue a = sample().withSequenceId(1);
    KeyValue b = sample().withSequenceId(2);
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a)
        .isNotEqualTo(
            KeyValue.of(s("row"), s("cf"), s("q1"), 0x0102030405060708L, CellType.PUT, s("w")));
    assertThat(a).isNotEqualTo(sample().withTimestamp(1));
    assertThat(a).isNotEqualTo(new DelegatingCell(a));
    assertThat(a).isNotEqualTo(null);
  }

  @Test
  void copyOfKeepsTheSequenceId() {
    KeyValue kv = sample().withSequenceId(77);
    assertThat(KeyValue.copyOf(kv)).isSameAs(kv);
    KeyValue copy = KeyValue.copyOf(new DelegatingCell(kv));
    assertThat(copy).isEqualTo(kv);
    assertThat(copy.getSequenceId()).isEqualTo(77);
    assertThat(copy.getBuffer()).isNotSameAs(kv.getBuffer());
  }

  @Test
  void heapSizeGrowsWithTheCell() {
    KeyValue small = sample();
    KeyValue large = KeyValue.of(s("row"), s("cf"), s("q1"), 1, CellType.PUT, new byte[1000]);
    assertThat(large.heapSize() - small.heapSize()).isEqualTo(999);
    assertThat(small.heapSize()).isGreaterThan(small.getLength());
  }

  // ---- seek keys ----------------------------------------------------------------------------

  private static KeyValue cell(
      String row, String fam, String qual, long ts, CellType type, long seq) {
    return KeyValue.of(s(row), s(fam), s(qual), ts, type, s("value")).withSequenceId(seq);
  }

  /** Cells of row "r" (and neighbours) in many shapes, including extreme timestamps and types. */
  private static List<KeyValue> cellsAround() {
    long max = Long.MAX_VALUE;
    return List.of(
        cell("q", "zz", "zz", 0, CellType.PUT, 0),
        cell("r", "a", "", max, CellType.DELETE_FAMILY, max),
        cell("r", "a", "", 0, CellType.DELETE_FAMILY, 0),
        cell("r", "a", "q", max, CellType.DELETE_COLUMN, max),
        cell("r", "a", "q", max, CellType.PUT, 5),
        cell("r", "a", "q", 100, CellType.DELETE, 3),
        cell("r", "a", "q", 100, CellType.PUT, 3),
        cell("r", "a", "q", 0, CellType.PUT, 0),
        cell("r", "a", "q\u0000", max, CellType.PUT, max),
        cell("r", "a", "qq", 7, CellType.PUT, 1),
        cell("r", "b", "", max, CellType.DELETE_FAMILY, 4),
        cell("r", "b", "a", 1, CellType.DELETE_FAMILY_VERSION, 2),
        cell("r\u0000", "a", "", max, CellType.DELETE_FAMILY, max));
  }

  @Test
  void firstOnRowSortsBeforeEveryCellOfTheRow() {
    KeyValue first = KeyValue.firstOnRow(s("r"));
    for (KeyValue c : cellsAround()) {
      int expected = Bytes.compareTo(CellUtil.cloneRow(c), s("r")) < 0 ? 1 : -1;
      assertThat(Integer.signum(CMP.compare(first, c)))
          .as("%s vs %s", first, c)
          .isEqualTo(expected);
    }
  }

  @Test
  void firstOnFamilySortsBeforeEveryCellOfTheFamilyIncludingFamilyMarkers() {
    KeyValue first = KeyValue.firstOnFamily(s("r"), s("a"));
    for (KeyValue c : cellsAround()) {
      boolean before =
          Bytes.compareTo(CellUtil.cloneRow(c), s("r")) < 0
              || (CellUtil.matchingRow(c, s("r"))
                  && Bytes.compareTo(CellUtil.cloneFamily(c), s("a")) < 0);
      assertThat(Integer.signum(CMP.compare(first, c)))
          .as("%s vs %s", first, c)
          .isEqualTo(before ? 1 : -1);
    }
  }

  @Test
  void firstOnColumnSortsBeforeEveryCellOfTheColumn() {
    KeyValue first = KeyValue.firstOnColumn(s("r"), s("a"), s("q"));
    for (KeyValue c : cellsAround()) {
      int expected = columnOrder(c, "r", "a", "q") < 0 ? 1 : -1;
      assertThat(Integer.signum(CMP.compare(first, c)))
          .as("%s vs %s", first, c)
          .isEqualTo(expected);
    }
  }

  @Test
  void firstOnColumnAtSortsBeforeVersionsAtOrOlderThanTs() {
    KeyValue first = KeyValue.firstOnColumnAt(s("r"), s("a"), s("q"), 100);
    for (KeyValue c : cellsAround()) {
      int col = columnOrder(c, "r", "a", "q");
      boolean before = col < 0 || (col == 0 && c.getTimestamp() > 100);
      assertThat(Integer.signum(CMP.compare(first, c)))
          .as("%s vs %s", first, c)
          .isEqualTo(before ? 1 : -1);
    }
  }

  @Test
  void lastOnColumnSortsAfterEveryCellOfTheColumnAndBeforeTheNext() {
    KeyValue last = KeyValue.lastOnColumn(cell("r", "a", "q", 100, CellType.PUT, 3));
    for (KeyValue c : cellsAround()) {
      int expected = columnOrder(c, "r", "a", "q") <= 0 ? 1 : -1;
      assertThat(Integer.signum(CMP.compare(last, c))).as("%s vs %s", last, c).isEqualTo(expected);
    }
    assertThat(CMP.compare(last, KeyValue.firstOnColumn(s("r"), s("a"), s("q\u0000"))))
        .isNegative();
    assertThat(CMP.compare(last, KeyValue.firstOnColumn(s("r"), s("a"), s("q")))).isPositive();
  }

  /** Order of c's (row, family, qualifier) relative to the given column. */
  private static int columnOrder(Cell c, String row, String fam, String qual) {
    int r = Bytes.compareTo(CellUtil.cloneRow(c), s(row));
    if (r != 0) {
      return r;
    }
    int f = Bytes.compareTo(CellUtil.cloneFamily(c), s(fam));
    if (f != 0) {
      return f;
    }
    return Bytes.compareTo(CellUtil.cloneQualifier(c), s(qual));
  }

  @Test
  void seekKeysCarryTheirMarkers() {
    KeyValue first = KeyValue.firstOnColumn(s("r"), s("a"), s("q"));
    assertThat(first.getTimestamp()).isEqualTo(KeyValue.LATEST_TIMESTAMP);
    assertThat(first.getType()).isEqualTo(CellType.MAXIMUM);
    assertThat(first.getSequenceId()).isEqualTo(Long.MAX_VALUE);
    KeyValue last = KeyValue.lastOnColumn(first);
    assertThat(last.getTimestamp()).isEqualTo(KeyValue.OLDEST_TIMESTAMP);
    assertThat(last.getType()).isEqualTo(CellType.MINIMUM);
    assertThat(last.getSequenceId()).isZero();
    assertThat(CellUtil.matchingColumn(last, s("a"), s("q"))).isTrue();
  }
}
