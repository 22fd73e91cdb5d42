package dev.basalt.memstore;

import dev.basalt.cell.KeyValue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@link dev.basalt.cell.CellComparator#INSTANCE}'s order on two cells in KeyValue layout given as
 * (array, offset of the cell, sequence id): row, family, qualifier ascending (unsigned), timestamp
 * descending, type code descending, sequence id descending. The skip list compares its nodes with
 * this so that a comparison reads nothing but the node's own bytes; a property test checks that it
 * agrees with the comparator.
 *
 * <p>Rows, families and qualifiers are compared eight bytes at a time as big-endian longs, which
 * orders them exactly as unsigned bytes do. Thread-safe (stateless).
 */
final class KeyOrder {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  private KeyOrder() {}

  static int compare(byte[] a, int ao, long aSeq, byte[] b, int bo, long bSeq) {
    int ak = ao + KeyValue.ROW_OFFSET;
    int bk = bo + KeyValue.ROW_OFFSET;
    int arl = (short) SHORT.get(a, ak);
    int brl = (short) SHORT.get(b, bk);
    int c = compareBytes(a, ak + 2, arl, b, bk + 2, brl);
    if (c != 0) {
      return c;
    }
    int af = ak + 2 + arl; // family length byte
    int bf = bk + 2 + brl;
    int afl = a[af];
    int bfl = b[bf];
    c = compareBytes(a, af + 1, afl, b, bf + 1, bfl);
    if (c != 0) {
      return c;
    }
    int aTs = ak + (int) INT.get(a, ao) - 9; // the timestamp ends the qualifier
    int bTs = bk + (int) INT.get(b, bo) - 9;
    int aq = af + 1 + afl;
    int bq = bf + 1 + bfl;
    c = compareBytes(a, aq, aTs - aq, b, bq, bTs - bq);
    if (c != 0) {
      return c;
    }
    c = Long.compare((long) LONG.get(b, bTs), (long) LONG.get(a, aTs));
    if (c != 0) {
      return c;
    }
    c = (b[bTs + 8] & 0xff) - (a[aTs + 8] & 0xff);
    return c != 0 ? c : Long.compare(bSeq, aSeq);
  }

  /** Unsigned lexicographic order of two ranges; a proper prefix sorts first. */
  static int compareBytes(byte[] a, int ao, int al, byte[] b, int bo, int bl) {
    int n = Math.min(al, bl);
    int i = 0;
    for (; i <= n - 8; i += 8) {
      long x = (long) LONG.get(a, ao + i);
      long y = (long) LONG.get(b, bo + i);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    for (; i < n; i++) {
      int c = (a[ao + i] & 0xff) - (b[bo + i] & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return al - bl;
  }

  /**
   * Bytes of a cell's key (KeyValue layout) that name its column: row length, row, family length,
   * family and qualifier, i.e. the key without timestamp and type. Two cells are in the same column
   * exactly when these bytes are equal.
   */
  static int columnLength(byte[] cell, int offset) {
    return (int) INT.get(cell, offset) - 9;
  }

  /** The timestamp position of a cell in KeyValue layout. */
  static int timestampOffset(byte[] cell, int offset) {
    return offset + KeyValue.ROW_OFFSET + columnLength(cell, offset);
  }

  static void putTimestamp(byte[] cell, int offset, long ts) {
    LONG.set(cell, timestampOffset(cell, offset), ts);
  }

  /** Total length of a cell in KeyValue layout: 8 + key length + value length. */
  static int cellLength(byte[] cell, int offset) {
    return KeyValue.ROW_OFFSET + (int) INT.get(cell, offset) + (int) INT.get(cell, offset + 4);
  }
}
