package dev.basalt.cell;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The one cell order of Basalt (../shared/ARCHITECTURE.md section 1): row ascending, family
 * ascending, qualifier ascending (all unsigned lexicographic), timestamp descending, type code
 * descending, sequence id descending. Newer versions therefore come first in a column, and a delete
 * marker comes before the puts of equal timestamp it masks.
 *
 * <p>Two {@link KeyValue}s are compared directly on their backing arrays without allocation or
 * virtual calls; other cells go through the {@link Cell} accessors. Thread-safe and stateless.
 */
public final class CellComparator implements Comparator<Cell> {

  /** Forward order. */
  public static final CellComparator INSTANCE = new CellComparator(false);

  /**
   * Rows descending, everything else as {@link #INSTANCE}: the order of reversed scans, which walk
   * rows backwards but each row's cells forwards.
   */
  public static final CellComparator REVERSED_ROWS = new CellComparator(true);

  private final boolean reverseRows;

  private CellComparator(boolean reverseRows) {
    this.reverseRows = reverseRows;
  }

  public boolean isReversed() {
    return reverseRows;
  }

  @Override
  public int compare(Cell a, Cell b) {
    int c = compareWithoutSequenceId(a, b);
    return c != 0 ? c : Long.compare(b.getSequenceId(), a.getSequenceId());
  }

  /** The order of keys alone: equal row, column, timestamp and type compare as 0. */
  public int compareWithoutSequenceId(Cell a, Cell b) {
    if (a instanceof KeyValue && b instanceof KeyValue) {
      return compareKeyValues((KeyValue) a, (KeyValue) b);
    }
    int c = compareRows(a, b);
    if (c != 0) {
      return c;
    }
    c = compareFamilies(a, b);
    if (c != 0) {
      return c;
    }
    c = compareQualifiers(a, b);
    if (c != 0) {
      return c;
    }
    c = Long.compare(b.getTimestamp(), a.getTimestamp());
    if (c != 0) {
      return c;
    }
    return (b.getTypeByte() & 0xff) - (a.getTypeByte() & 0xff);
  }

  /**
   * Keys with rows of equal length (the usual case: the same row, or keys of one width) are
   * compared with one mismatch search from the row to the end of the qualifier. Up to the first
   * difference both keys have the same layout, so the byte found there decides, except when it is
   * the family length byte (families of different length: compared as families) or when one
   * qualifier is a prefix of the other (the shorter sorts first).
   */
  private int compareKeyValues(KeyValue a, KeyValue b) {
    byte[] ab = a.getBuffer();
    byte[] bb = b.getBuffer();
    int ak = a.keyOffset();
    int bk = b.keyOffset();
    int arl = Bytes.readShort(ab, ak);
    int brl = Bytes.readShort(bb, bk);
    if (arl != brl) {
      int c = Arrays.compareUnsigned(ab, ak + 2, ak + 2 + arl, bb, bk + 2, bk + 2 + brl);
      return reverseRows ? -c : c;
    }
    int aEnd = ak + a.keyLength() - 9; // timestamp position ends the qualifier
    int bEnd = bk + b.keyLength() - 9;
    int aFrom = ak + 2;
    int bFrom = bk + 2;
    int i = Arrays.mismatch(ab, aFrom, aEnd, bb, bFrom, bEnd);
    if (i >= 0) {
      if (i < arl) {
        int c = (ab[aFrom + i] & 0xff) - (bb[bFrom + i] & 0xff);
        return reverseRows ? -c : c;
      }
      if (i == arl) {
        int af = aFrom + arl; // family length byte
        int bf = bFrom + arl;
        return Arrays.compareUnsigned(ab, af + 1, af + 1 + ab[af], bb, bf + 1, bf + 1 + bb[bf]);
      }
      if (i < aEnd - aFrom && i < bEnd - bFrom) {
        return (ab[aFrom + i] & 0xff) - (bb[bFrom + i] & 0xff);
      }
      return (aEnd - aFrom) - (bEnd - bFrom); // one qualifier is a prefix of the other
    }
    int c = Long.compare(Bytes.readLong(bb, bEnd), Bytes.readLong(ab, aEnd));
    if (c != 0) {
      return c;
    }
    return (bb[bEnd + 8] & 0xff) - (ab[aEnd + 8] & 0xff);
  }

  /** Row order, honouring this comparator's direction. */
  public int compareRows(Cell a, Cell b) {
    int c =
        Bytes.compareTo(
            a.getRowArray(),
            a.getRowOffset(),
            a.getRowLength(),
            b.getRowArray(),
            b.getRowOffset(),
            b.getRowLength());
    return reverseRows ? -c : c;
  }

  /** Row order of a cell against a bare row key, honouring this comparator's direction. */
  public int compareRows(Cell a, byte[] row, int off, int len) {
    int c = Bytes.compareTo(a.getRowArray(), a.getRowOffset(), a.getRowLength(), row, off, len);
    return reverseRows ? -c : c;
  }

  /** Row order of two bare row keys, honouring this comparator's direction. */
  public int compareRows(byte[] a, byte[] b) {
    int c = Bytes.compareTo(a, b);
    return reverseRows ? -c : c;
  }

  public int compareFamilies(Cell a, Cell b) {
    return Bytes.compareTo(
        a.getFamilyArray(),
        a.getFamilyOffset(),
        a.getFamilyLength(),
        b.getFamilyArray(),
        b.getFamilyOffset(),
        b.getFamilyLength());
  }

  public int compareQualifiers(Cell a, Cell b) {
    return Bytes.compareTo(
        a.getQualifierArray(),
        a.getQualifierOffset(),
        a.getQualifierLength(),
        b.getQualifierArray(),
        b.getQualifierOffset(),
        b.getQualifierLength());
  }

  public int compareQualifier(Cell a, byte[] qualifier) {
    return Bytes.compareTo(
        a.getQualifierArray(),
        a.getQualifierOffset(),
        a.getQualifierLength(),
        qualifier,
        0,
        qualifier.length);
  }

  /** Family, then qualifier. */
  public int compareColumns(Cell a, Cell b) {
    int c = compareFamilies(a, b);
    return c != 0 ? c : compareQualifiers(a, b);
  }
}
