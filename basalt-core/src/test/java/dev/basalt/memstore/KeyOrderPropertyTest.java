package dev.basalt.memstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The memstore's byte-level order is exactly the cell comparator's. */
class KeyOrderPropertyTest {

  /** Bytes drawn from values that stress unsigned order: 0, 1, 0x7F, 0x80, 0xFF. */
  private static Arbitrary<byte[]> bytes(int min, int max) {
    return Arbitraries.of((byte) 0, (byte) 1, (byte) 0x7F, (byte) 0x80, (byte) 0xFF)
        .array(byte[].class)
        .ofMinSize(min)
        .ofMaxSize(max);
  }

  @Provide
  Arbitrary<KeyValue> cells() {
    // Rows up to 20 bytes cross both 8-byte words of the skip list's row prefix and the tail loop.
    Arbitrary<byte[]> row = bytes(1, 20);
    Arbitrary<byte[]> fam = bytes(0, 10);
    Arbitrary<byte[]> qual = bytes(0, 18);
    Arbitrary<Long> ts = Arbitraries.of(0L, 1L, 2L, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, -1L);
    Arbitrary<CellType> type = Arbitraries.of(CellType.class);
    Arbitrary<Long> seq = Arbitraries.of(0L, 1L, 2L, Long.MAX_VALUE);
    Arbitrary<Integer> offset = Arbitraries.integers().between(0, 9);
    return Combinators.combine(row, fam, qual, ts, type, seq, offset)
        .as(
            (r, f, q, t, ty, sq, off) -> {
              KeyValue kv = KeyValue.of(r, f, q, t, ty, new byte[] {1}).withSequenceId(sq);
              byte[] big = new byte[off + kv.getLength() + 3];
              System.arraycopy(kv.getBuffer(), kv.getOffset(), big, off, kv.getLength());
              return new KeyValue(big, off, kv.getLength(), sq);
            });
  }

  private static int keyOrder(KeyValue a, KeyValue b) {
    return KeyOrder.compare(
        a.getBuffer(),
        a.getOffset(),
        a.getSequenceId(),
        b.getBuffer(),
        b.getOffset(),
        b.getSequenceId());
  }

  @Property(tries = 3000)
  void agreesWithTheCellComparator(@ForAll("cells") KeyValue a, @ForAll("cells") KeyValue b) {
    assertThat(Integer.signum(keyOrder(a, b)))
        .isEqualTo(Integer.signum(CellComparator.INSTANCE.compare(a, b)));
  }

  @Property(tries = 500)
  void agreesWhenOnlyTheTailDiffers(@ForAll("cells") KeyValue a, @ForAll("cells") KeyValue b) {
    // The same row for both, so that family, qualifier, timestamp, type and sequence id decide.
    KeyValue b2 =
        KeyValue.create(
                a.getRowArray(),
                a.getRowOffset(),
                a.getRowLength(),
                b.getFamilyArray(),
                b.getFamilyOffset(),
                b.getFamilyLength(),
                b.getQualifierArray(),
                b.getQualifierOffset(),
                b.getQualifierLength(),
                b.getTimestamp(),
                b.getTypeByte(),
                b.getValueArray(),
                b.getValueOffset(),
                b.getValueLength())
            .withSequenceId(b.getSequenceId());
    assertThat(Integer.signum(keyOrder(a, b2)))
        .isEqualTo(Integer.signum(CellComparator.INSTANCE.compare(a, b2)));
  }
}
