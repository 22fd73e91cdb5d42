package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The byte-level key order agrees with CellComparator, and separators sit between their keys. */
class KeyBytesTest {
  private static final String[] FAMILIES = {"", "f", "fa", "g"};
  private static final String[] QUALIFIERS = {"", "a", "ab", "b", "\u00ff"};
  private static final long[] TIMESTAMPS = {Long.MIN_VALUE, 0, 1, 2, Long.MAX_VALUE};

  static KeyValue randomKey(Random rnd) {
    CellType t = CellType.values()[rnd.nextInt(CellType.values().length)];
    return KeyValue.of(
            rnd.nextInt(8) == 0 ? Bytes.EMPTY : TestCells.randomRow(rnd),
            Bytes.toBytes(FAMILIES[rnd.nextInt(FAMILIES.length)]),
            Bytes.toBytes(QUALIFIERS[rnd.nextInt(QUALIFIERS.length)]),
            TIMESTAMPS[rnd.nextInt(TIMESTAMPS.length)],
            t,
            Bytes.EMPTY)
        .withSequenceId(rnd.nextInt(3) == 0 ? Long.MAX_VALUE : rnd.nextInt(3));
  }

  private static int compare(KeyValue a, KeyValue b) {
    return KeyBytes.compare(
        a.getBuffer(),
        a.keyOffset(),
        a.keyLength(),
        a.getSequenceId(),
        b.getBuffer(),
        b.keyOffset(),
        b.keyLength(),
        b.getSequenceId());
  }

  @Property(tries = 200)
  void orderAgreesWithCellComparator(@ForAll long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 50; i++) {
      KeyValue a = randomKey(rnd);
      KeyValue b = rnd.nextInt(5) == 0 ? a.withSequenceId(rnd.nextInt(3)) : randomKey(rnd);
      assertThat(Integer.signum(compare(a, b)))
          .as("%s vs %s", a, b)
          .isEqualTo(Integer.signum(CellComparator.INSTANCE.compare(a, b)));
      assertThat(
              Integer.signum(
                  KeyBytes.compare(
                      a.getBuffer(),
                      a.keyOffset(),
                      a.keyLength(),
                      b.getBuffer(),
                      b.keyOffset(),
                      b.keyLength())))
          .isEqualTo(Integer.signum(CellComparator.INSTANCE.compareWithoutSequenceId(a, b)));
    }
  }

  @Property(tries = 200)
  void separatorSortsAfterLeftAndAtOrBeforeRight(@ForAll long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 50; i++) {
      KeyValue a = randomKey(rnd);
      KeyValue b = randomKey(rnd);
      if (CellComparator.INSTANCE.compareWithoutSequenceId(a, b) > 0) {
        KeyValue t = a;
        a = b;
        b = t;
      }
      byte[] s =
          KeyBytes.separator(
              a.getBuffer(),
              a.keyOffset(),
              a.keyLength(),
              b.getBuffer(),
              b.keyOffset(),
              b.keyLength());
      if (CellComparator.INSTANCE.compareRows(a, b) == 0) {
        assertThat(s).isNull();
        continue;
      }
      if (s == null) {
        continue; // nothing shorter than the right key
      }
      assertThat(s.length).isLessThan(b.keyLength());
      assertThat(KeyBytes.validate(s, 0, s.length)).isNull();
      assertThat(
              KeyBytes.compare(
                  s,
                  0,
                  s.length,
                  Long.MAX_VALUE,
                  a.getBuffer(),
                  a.keyOffset(),
                  a.keyLength(),
                  a.getSequenceId()))
          .as("separator after %s", a)
          .isPositive();
      assertThat(
              KeyBytes.compare(
                  s,
                  0,
                  s.length,
                  Long.MAX_VALUE,
                  b.getBuffer(),
                  b.keyOffset(),
                  b.keyLength(),
                  b.getSequenceId()))
          .as("separator at or before %s", b)
          .isLessThanOrEqualTo(0);
    }
  }

  @Test
  void separatorIsTheShortestRowBetween() {
    KeyValue a =
        KeyValue.of(
            Bytes.toBytes("abc123"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            1,
            CellType.PUT,
            Bytes.EMPTY);
    KeyValue b =
        KeyValue.of(
            Bytes.toBytes("abx"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            1,
            CellType.PUT,
            Bytes.EMPTY);
    byte[] s =
        KeyBytes.separator(
            a.getBuffer(),
            a.keyOffset(),
            a.keyLength(),
            b.getBuffer(),
            b.keyOffset(),
            b.keyLength());
    // "abd": one past the left row's first differing byte.
    assertThat(Bytes.toString(s, 2, Bytes.readShort(s, 0))).isEqualTo("abd");
    KeyValue c =
        KeyValue.of(
            Bytes.toBytes("ab"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            1,
            CellType.PUT,
            Bytes.EMPTY);
    KeyValue d =
        KeyValue.of(
            Bytes.toBytes("abcdef"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            1,
            CellType.PUT,
            Bytes.EMPTY);
    s =
        KeyBytes.separator(
            c.getBuffer(),
            c.keyOffset(),
            c.keyLength(),
            d.getBuffer(),
            d.keyOffset(),
            d.keyLength());
    // The left row is a prefix of the right one: the right row cut one byte after it.
    assertThat(Bytes.toString(s, 2, Bytes.readShort(s, 0))).isEqualTo("abc");
  }

  @Test
  void validateRejectsKeysThatDoNotHoldTogether() {
    KeyValue a =
        KeyValue.of(
            Bytes.toBytes("row"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            1,
            CellType.PUT,
            Bytes.EMPTY);
    byte[] k =
        java.util.Arrays.copyOfRange(a.getBuffer(), a.keyOffset(), a.keyOffset() + a.keyLength());
    assertThat(KeyBytes.validate(k, 0, k.length)).isNull();
    assertThat(KeyBytes.validate(k, 0, 11)).contains("key length");
    byte[] bad = k.clone();
    bad[1] = 100; // row length past the key
    assertThat(KeyBytes.validate(bad, 0, bad.length)).contains("row length");
    bad = k.clone();
    bad[5] = 50; // family length past the key
    assertThat(KeyBytes.validate(bad, 0, bad.length)).contains("family length");
    bad = k.clone();
    bad[bad.length - 1] = 3; // no such type
    assertThat(KeyBytes.validate(bad, 0, bad.length)).contains("type");
  }
}
