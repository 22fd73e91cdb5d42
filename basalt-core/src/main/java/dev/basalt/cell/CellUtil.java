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
}
