package dev.basalt.cell;

import java.util.Arrays;

/** Copies and comparisons of cell components (HBase's {@code CellUtil}, same names). */
public final class CellUtil {
  private CellUtil() {}

  public static byte[] cloneRow(Cell c) {
    return Arrays.copyOfRange(
        c.getRowArray(), c.getRowOffset(), c.getRowOffset() + c.getRowLength());
  }

  public static byte[] cloneFamily(Cell c) {
    return Arrays.copyOfRange(
        c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyOffset() + c.getFamilyLength());
  }

  public static byte[] cloneQualifier(Cell c) {
    return Arrays.copyOfRange(
        c.getQualifierArray(),
        c.getQualifierOffset(),
        c.getQualifierOffset() + c.getQualifierLength());
  }

  public static byte[] cloneValue(Cell c) {
    return Arrays.copyOfRange(
        c.getValueArray(), c.getValueOffset(), c.getValueOffset() + c.getValueLength());
  }

  /**
   * The cell's size in KeyValue layout without tags (8 length bytes, the key: row, family,
   * qualifier and 12 bytes of length, timestamp and type, then the value): what a scan counts
   * against its result size limit.
   */
  public static long serializedSize(Cell c) {
    if (c instanceof KeyValue kv) {
      return kv.getLength();
    }
    return 20L
        + c.getRowLength()
        + c.getFamilyLength()
        + c.getQualifierLength()
        + c.getValueLength();
  }

  public static boolean matchingRow(Cell c, byte[] row) {
    return Bytes.equals(
        c.getRowArray(), c.getRowOffset(), c.getRowLength(), row, 0, row == null ? 0 : row.length);
  }

  public static boolean matchingRows(Cell a, Cell b) {
    return Bytes.equals(
        a.getRowArray(),
        a.getRowOffset(),
        a.getRowLength(),
        b.getRowArray(),
        b.getRowOffset(),
        b.getRowLength());
  }

  /** {@link #keyRelation}: the rows differ. */
  public static final int DIFFERENT_ROW = 0;

  /** {@link #keyRelation}: same row, different column (family or qualifier). */
  public static final int SAME_ROW = 1;

  /** {@link #keyRelation}: same row, family and qualifier (timestamp and type not compared). */
  public static final int SAME_COLUMN = 2;

  /**
   * How much of their keys two cells share: {@link #DIFFERENT_ROW}, {@link #SAME_ROW} or {@link
   * #SAME_COLUMN}. Scanners ask this for every cell they step over; for two {@link KeyValue}s it is
   * one mismatch search over the key from the row length to the end of the qualifier (a first
   * difference past the row means the rows are equal), instead of one comparison per component.
   */
  public static int keyRelation(Cell a, Cell b) {
    if (a instanceof KeyValue x && b instanceof KeyValue y) {
      return keyRelation(
          x.getBuffer(), x.keyOffset(), x.keyLength(), y.getBuffer(), y.keyOffset(), y.keyLength());
    }
    if (!matchingRows(a, b)) {
      return DIFFERENT_ROW;
    }
    return matchingFamilies(a, b) && matchingQualifiers(a, b) ? SAME_COLUMN : SAME_ROW;
  }

  /**
   * {@link #keyRelation(Cell, Cell)} for two keys in KeyValue key layout ({@code ak}, {@code bk}:
   * where each key starts, at its row length; {@code akl}, {@code bkl}: key lengths).
   */
  public static int keyRelation(byte[] ab, int ak, int akl, byte[] bb, int bk, int bkl) {
    int i = Arrays.mismatch(ab, ak, ak + akl - 9, bb, bk, bk + bkl - 9); // to the timestamp
    if (i < 0) {
      return SAME_COLUMN;
    }
    // Both ranges hold their row length, row and family length: a first difference (or the end of
    // the shorter range) past the row means the row length and the row bytes were equal.
    return i >= 2 + Bytes.readShort(ab, ak) ? SAME_ROW : DIFFERENT_ROW;
  }

  public static boolean matchingFamily(Cell c, byte[] family) {
    return Bytes.equals(
        c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength(), family, 0, family.length);
  }

  public static boolean matchingQualifier(Cell c, byte[] qualifier) {
    return Bytes.equals(
        c.getQualifierArray(),
        c.getQualifierOffset(),
        c.getQualifierLength(),
        qualifier,
        0,
        qualifier.length);
  }

  public static boolean matchingFamilies(Cell a, Cell b) {
    return Bytes.equals(
        a.getFamilyArray(),
        a.getFamilyOffset(),
        a.getFamilyLength(),
        b.getFamilyArray(),
        b.getFamilyOffset(),
        b.getFamilyLength());
  }

  public static boolean matchingQualifiers(Cell a, Cell b) {
    return Bytes.equals(
        a.getQualifierArray(),
        a.getQualifierOffset(),
        a.getQualifierLength(),
        b.getQualifierArray(),
        b.getQualifierOffset(),
        b.getQualifierLength());
  }

  public static boolean matchingColumn(Cell c, byte[] family, byte[] qualifier) {
    return matchingFamily(c, family) && matchingQualifier(c, qualifier);
  }

  public static boolean matchingValue(Cell c, byte[] value) {
    return Bytes.equals(
        c.getValueArray(), c.getValueOffset(), c.getValueLength(), value, 0, value.length);
  }

  /** HBase's cell rendering: {@code row/family:qualifier/timestamp/Type/vlen=N/seqid=S}. */
  public static String toString(Cell c) {
    String type;
    try {
      type = c.getType().name();
    } catch (IllegalArgumentException e) {
      type = "Unknown(" + (c.getTypeByte() & 0xff) + ")";
    }
    return Bytes.toStringBinary(c.getRowArray(), c.getRowOffset(), c.getRowLength())
        + "/"
        + Bytes.toStringBinary(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength())
        + ":"
        + Bytes.toStringBinary(
            c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())
        + "/"
        + c.getTimestamp()
        + "/"
        + type
        + "/vlen="
        + c.getValueLength()
        + "/seqid="
        + c.getSequenceId();
  }

  /**
   * Whether the cell's per-cell TTL has run out at {@code now} (HBase's {@code isCellTTLExpired}:
   * timestamp + TTL before now). False for cells without one. The sum saturates (HBase's overflows,
   * so a TTL near {@code Long.MAX_VALUE} expires a cell at once there).
   */
  public static boolean isTtlExpired(Cell c, long now) {
    long ttl = c.getTtl();
    if (ttl == KeyValue.NO_TTL) {
      return false;
    }
    long ts = c.getTimestamp();
    long end = ts + ttl;
    if (((ts ^ end) & (ttl ^ end)) < 0) {
      end = ttl > 0 ? Long.MAX_VALUE : Long.MIN_VALUE; // overflowed
    }
    return end < now;
  }
}
