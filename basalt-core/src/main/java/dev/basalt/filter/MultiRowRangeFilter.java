package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Returns the rows inside any of several row ranges. The ranges are sorted and overlapping or
 * touching ones merged when the filter is built; invalid ranges are rejected. From a row between
 * ranges it seeks to the next range (the range's start row forwards, its stop row in a reversed
 * scan), and it ends the scan after the last range.
 */
public class MultiRowRangeFilter extends Filter implements HintingFilter {
  private final List<RowRange> rangeList;
  private boolean done;
  private byte[] decidedRow;
  private ReturnCode rowCode;
  private RowRange next;

  /**
   * @param list ranges in any order; overlapping ones are merged
   * @throws IllegalArgumentException for an empty list or any invalid range, listing them
   */
  public MultiRowRangeFilter(List<RowRange> list) {
    this.rangeList = Collections.unmodifiableList(sortAndMerge(list));
  }

  /** One range per prefix: the rows that start with it. */
  public MultiRowRangeFilter(byte[][] rowKeyPrefixes) {
    this(rangesOf(rowKeyPrefixes));
  }

  private static List<RowRange> rangesOf(byte[][] prefixes) {
    if (prefixes == null) {
      throw new IllegalArgumentException("MultiRowRangeFilter: row key prefixes must not be null");
    }
    List<RowRange> out = new ArrayList<>();
    for (byte[] p : prefixes) {
      if (p == null) {
        throw new IllegalArgumentException("MultiRowRangeFilter: a row key prefix is null");
      }
      out.add(new RowRange(p, true, Bytes.prefixEnd(p), false));
    }
    return out;
  }

  /** The merged ranges, ascending. */
  public List<RowRange> getRowRanges() {
    return rangeList;
  }

  @Override
  public boolean filterAllRemaining() {
    return done;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (done) {
      return true;
    }
    decide(firstRowCell);
    // Rows between ranges are left with a seek from their cells; past the last range, the end.
    return done;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (!Cells.sameRow(c, decidedRow)) {
      decide(c);
    }
    return rowCode;
  }

  private void decide(Cell c) {
    decidedRow = CellUtil.cloneRow(c);
    next = isReversed() ? lastNotStartingAfter(decidedRow) : firstNotEndingBefore(decidedRow);
    if (next == null) {
      done = true;
      rowCode = ReturnCode.NEXT_ROW;
    } else if (next.contains(decidedRow)) {
      rowCode = ReturnCode.INCLUDE;
    } else {
      rowCode = ReturnCode.SEEK_NEXT_USING_HINT;
    }
  }

  /** The first range that does not end before the row (ranges are disjoint and ascending). */
  private RowRange firstNotEndingBefore(byte[] row) {
    int lo = 0;
    int hi = rangeList.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (rangeList.get(mid).endsBefore(row)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < rangeList.size() ? rangeList.get(lo) : null;
  }

  /** The last range that does not start after the row. */
  private RowRange lastNotStartingAfter(byte[] row) {
    int lo = 0;
    int hi = rangeList.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (rangeList.get(mid).startsAfter(row)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo > 0 ? rangeList.get(lo - 1) : null;
  }

  /**
   * Forwards: the first row of the next range (the start row, or the row just after it when the
   * start is exclusive). Reversed: the next range's stop row; the reversed seek lands there or,
   * when that row is absent, on the row below it.
   */
  @Override
  public Cell getNextCellHint(Cell c) {
    if (!Cells.sameRow(c, decidedRow)) {
      decide(c);
    }
    if (rowCode != ReturnCode.SEEK_NEXT_USING_HINT) {
      return null;
    }
    if (isReversed()) {
      return Cells.firstOnRow(next.stopRow);
    }
    return Cells.firstOnRow(next.startRowInclusive ? next.startRow : Bytes.nextRow(next.startRow));
  }

  /**
   * Sorts the ranges by start row and merges those that overlap or touch.
   *
   * @throws IllegalArgumentException for a null or empty list, a null range, or invalid ranges
   */
  public static List<RowRange> sortAndMerge(List<RowRange> ranges) {
    if (ranges == null || ranges.isEmpty()) {
      throw new IllegalArgumentException("MultiRowRangeFilter: no ranges found");
    }
    List<RowRange> sorted = new ArrayList<>(ranges.size());
    List<RowRange> invalid = new ArrayList<>();
    for (RowRange r : ranges) {
      if (r == null) {
        throw new IllegalArgumentException("MultiRowRangeFilter: a range is null");
      }
      if (!r.isValid()) {
        invalid.add(r);
      }
      sorted.add(r);
    }
    if (!invalid.isEmpty()) {
      throw new IllegalArgumentException(
          "MultiRowRangeFilter: " + invalid.size() + " invalid range(s): " + invalid);
    }
    Collections.sort(sorted);
    List<RowRange> merged = new ArrayList<>();
    RowRange cur = sorted.get(0);
    for (int i = 1; i < sorted.size(); i++) {
      RowRange r = sorted.get(i);
      if (cur.overlapsOrTouches(r)) {
        cur = cur.union(r);
      } else {
        merged.add(cur);
        cur = r;
      }
    }
    merged.add(cur);
    return merged;
  }

  @Override
  public String toString() {
    return "MultiRowRangeFilter " + rangeList;
  }

  /**
   * A range of rows between a start and a stop row, each inclusive or not. An empty (or null) start
   * is the table's beginning, an empty stop its end.
   */
  public static class RowRange implements Comparable<RowRange> {
    private final byte[] startRow;
    private final boolean startRowInclusive;
    private final byte[] stopRow;
    private final boolean stopRowInclusive;

    public RowRange(
        String startRow, boolean startRowInclusive, String stopRow, boolean stopRowInclusive) {
      this(
          startRow == null ? null : Bytes.toBytes(startRow),
          startRowInclusive,
          stopRow == null ? null : Bytes.toBytes(stopRow),
          stopRowInclusive);
    }

    public RowRange(
        byte[] startRow, boolean startRowInclusive, byte[] stopRow, boolean stopRowInclusive) {
      this.startRow = startRow == null ? Bytes.EMPTY : startRow;
      this.startRowInclusive = startRowInclusive;
      this.stopRow = stopRow == null ? Bytes.EMPTY : stopRow;
      this.stopRowInclusive = stopRowInclusive;
    }

    public byte[] getStartRow() {
      return startRow;
    }

    public boolean isStartRowInclusive() {
      return startRowInclusive;
    }

    public byte[] getStopRow() {
      return stopRow;
    }

    public boolean isStopRowInclusive() {
      return stopRowInclusive;
    }

    /**
     * HBase's rule: the start must not sort after the stop; equal ones are valid when the stop is
     * inclusive (even with an exclusive start, which then contains nothing).
     */
    public boolean isValid() {
      if (startRow.length == 0 || stopRow.length == 0) {
        return true;
      }
      int c = Bytes.compareTo(startRow, stopRow);
      return c < 0 || (c == 0 && stopRowInclusive);
    }

    public boolean contains(byte[] row) {
      return !startsAfter(row) && !endsBefore(row);
    }

    /** Whether the whole range lies after the row. */
    boolean startsAfter(byte[] row) {
      if (startRow.length == 0) {
        return false;
      }
      int c = Bytes.compareTo(row, startRow);
      return c < 0 || (c == 0 && !startRowInclusive);
    }

    /** Whether the whole range lies before the row. */
    boolean endsBefore(byte[] row) {
      if (stopRow.length == 0) {
        return false;
      }
      int c = Bytes.compareTo(row, stopRow);
      return c > 0 || (c == 0 && !stopRowInclusive);
    }

    /** For ranges sorted by start: whether {@code later} continues this range without a gap. */
    boolean overlapsOrTouches(RowRange later) {
      if (stopRow.length == 0) {
        return true;
      }
      int c = Bytes.compareTo(stopRow, later.startRow);
      if (later.startRow.length == 0) {
        c = 1;
      }
      return c > 0 || (c == 0 && (stopRowInclusive || later.startRowInclusive));
    }

    /** This range extended to cover {@code later} (which starts inside or right after it). */
    RowRange union(RowRange later) {
      if (stopRow.length == 0 || later.stopRow.length == 0) {
        return new RowRange(startRow, startRowInclusive, Bytes.EMPTY, false);
      }
      int c = Bytes.compareTo(stopRow, later.stopRow);
      if (c > 0) {
        return this;
      }
      if (c < 0) {
        return new RowRange(startRow, startRowInclusive, later.stopRow, later.stopRowInclusive);
      }
      return new RowRange(
          startRow, startRowInclusive, stopRow, stopRowInclusive || later.stopRowInclusive);
    }

    /** By start row; for equal starts an inclusive start first. */
    @Override
    public int compareTo(RowRange o) {
      int c = Bytes.compareTo(startRow, o.startRow);
      if (c != 0) {
        return c;
      }
      return Boolean.compare(o.startRowInclusive, startRowInclusive);
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof RowRange)) {
        return false;
      }
      RowRange r = (RowRange) o;
      return Bytes.equals(startRow, r.startRow)
          && startRowInclusive == r.startRowInclusive
          && Bytes.equals(stopRow, r.stopRow)
          && stopRowInclusive == r.stopRowInclusive;
    }

    @Override
    public int hashCode() {
      return Objects.hash(
          Bytes.hashCode(startRow, 0, startRow.length),
          startRowInclusive,
          Bytes.hashCode(stopRow, 0, stopRow.length),
          stopRowInclusive);
    }

    @Override
    public String toString() {
      return (startRowInclusive ? "[" : "(")
          + Bytes.toStringBinary(startRow)
          + ", "
          + Bytes.toStringBinary(stopRow)
          + (stopRowInclusive ? "]" : ")");
    }
  }
}
