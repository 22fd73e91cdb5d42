package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The cells of one row returned by a read or a read-modify-write, in cell order (family, qualifier,
 * newest version first). Immutable. A scan with a batch limit returns a wide row as several
 * results, all but the last marked {@link #mayHaveMoreCellsInRow()}.
 */
public final class Result {
  public static final Result EMPTY = new Result(new Cell[0], null, false);

  private final Cell[] cells;
  private final Boolean exists;
  private final boolean partial;

  private Result(Cell[] cells, Boolean exists, boolean partial) {
    this.cells = cells;
    this.exists = exists;
    this.partial = partial;
  }

  /** A result over cells already in cell order. */
  public static Result create(List<? extends Cell> cells) {
    return create(cells, false);
  }

  public static Result create(List<? extends Cell> cells, boolean mayHaveMoreCellsInRow) {
    if (cells.isEmpty() && !mayHaveMoreCellsInRow) {
      return EMPTY;
    }
    return new Result(cells.toArray(new Cell[0]), null, mayHaveMoreCellsInRow);
  }

  /**
   * A result that takes {@code cells} (already in cell order) as its own, without the copy {@link
   * #create} makes: the caller hands the array over and must not touch it again. For readers that
   * build a fresh array per row anyway (a cached row parsed on every hit).
   */
  public static Result adopt(Cell[] cells) {
    return cells.length == 0 ? EMPTY : new Result(cells, null, false);
  }

  /** The answer to an existence-only Get. */
  public static Result ofExists(boolean exists) {
    return new Result(new Cell[0], exists, false);
  }

  /** The row key, or null for an empty result. */
  public byte[] getRow() {
    return cells.length == 0 ? null : CellUtil.cloneRow(cells[0]);
  }

  public Cell[] rawCells() {
    return cells.clone();
  }

  public List<Cell> listCells() {
    return cells.length == 0 ? null : Collections.unmodifiableList(Arrays.asList(cells));
  }

  /** The cells as a list, never null. */
  public List<Cell> cells() {
    return Collections.unmodifiableList(Arrays.asList(cells));
  }

  /** Cell {@code i} in cell order, {@code 0 <= i < size()} (no view or copy of the array). */
  public Cell cellAt(int i) {
    return cells[i];
  }

  /** Appends the cells to {@code out} (no view or copy of the array on the way). */
  public void addCellsTo(Collection<? super Cell> out) {
    for (Cell c : cells) {
      out.add(c);
    }
  }

  public boolean isEmpty() {
    return cells.length == 0;
  }

  public int size() {
    return cells.length;
  }

  /** For existence-only reads: whether the row exists; null for other results. */
  public Boolean getExists() {
    return exists;
  }

  public boolean mayHaveMoreCellsInRow() {
    return partial;
  }

  /** The value of the first cell, or null. */
  public byte[] value() {
    return cells.length == 0 ? null : CellUtil.cloneValue(cells[0]);
  }

  /** The newest version of the column in this result, or null. */
  public Cell getColumnLatestCell(byte[] family, byte[] qualifier) {
    int i = firstIndexOf(family, qualifier);
    return i < 0 ? null : cells[i];
  }

  /** The newest value of the column in this result, or null. */
  public byte[] getValue(byte[] family, byte[] qualifier) {
    Cell c = getColumnLatestCell(family, qualifier);
    return c == null ? null : CellUtil.cloneValue(c);
  }

  public boolean containsColumn(byte[] family, byte[] qualifier) {
    return firstIndexOf(family, qualifier) >= 0;
  }

  /** Every version of the column in this result, newest first. */
  public List<Cell> getColumnCells(byte[] family, byte[] qualifier) {
    List<Cell> out = new ArrayList<>();
    int i = firstIndexOf(family, qualifier);
    while (i >= 0 && i < cells.length && CellUtil.matchingColumn(cells[i], family, qualifier)) {
      out.add(cells[i++]);
    }
    return out;
  }

  /**
   * Qualifier to newest value for one family; as in HBase, null for an empty result and an empty
   * map when only the family is absent.
   */
  public NavigableMap<byte[], byte[]> getFamilyMap(byte[] family) {
    if (cells.length == 0) {
      return null;
    }
    NavigableMap<byte[], byte[]> m = new TreeMap<>(Bytes.COMPARATOR);
    for (Cell c : cells) {
      if (CellUtil.matchingFamily(c, family)) {
        m.putIfAbsent(CellUtil.cloneQualifier(c), CellUtil.cloneValue(c));
      }
    }
    return m;
  }

  /** Family to qualifier to newest value; null for an empty result (as in HBase). */
  public NavigableMap<byte[], NavigableMap<byte[], byte[]>> getNoVersionMap() {
    if (cells.length == 0) {
      return null;
    }
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> m = new TreeMap<>(Bytes.COMPARATOR);
    for (Cell c : cells) {
      m.computeIfAbsent(CellUtil.cloneFamily(c), f -> new TreeMap<>(Bytes.COMPARATOR))
          .putIfAbsent(CellUtil.cloneQualifier(c), CellUtil.cloneValue(c));
    }
    return m;
  }

  /**
   * Family to qualifier to timestamp to value (timestamps newest first); null for an empty result
   * (as in HBase).
   */
  public NavigableMap<byte[], NavigableMap<byte[], NavigableMap<Long, byte[]>>> getMap() {
    if (cells.length == 0) {
      return null;
    }
    NavigableMap<byte[], NavigableMap<byte[], NavigableMap<Long, byte[]>>> m =
        new TreeMap<>(Bytes.COMPARATOR);
    for (Cell c : cells) {
      m.computeIfAbsent(CellUtil.cloneFamily(c), f -> new TreeMap<>(Bytes.COMPARATOR))
          .computeIfAbsent(
              CellUtil.cloneQualifier(c), q -> new TreeMap<>(Collections.reverseOrder()))
          .putIfAbsent(c.getTimestamp(), CellUtil.cloneValue(c));
    }
    return m;
  }

  private int firstIndexOf(byte[] family, byte[] qualifier) {
    if (cells.length == 0) {
      return -1;
    }
    KeyValue key =
        KeyValue.firstOnColumn(
            CellUtil.cloneRow(cells[0]), family, qualifier == null ? Bytes.EMPTY : qualifier);
    int lo = 0;
    int hi = cells.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (CellComparator.INSTANCE.compare(cells[mid], key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < cells.length
            && CellUtil.matchingColumn(
                cells[lo], family, qualifier == null ? Bytes.EMPTY : qualifier)
        ? lo
        : -1;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Result)) {
      return false;
    }
    Result r = (Result) o;
    return Arrays.equals(cells, r.cells)
        && java.util.Objects.equals(exists, r.exists)
        && partial == r.partial;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(cells);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Result{");
    if (exists != null) {
      sb.append("exists=").append(exists);
    }
    for (int i = 0; i < cells.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(cells[i]);
    }
    if (partial) {
      sb.append(", partial");
    }
    return sb.append('}').toString();
  }
}
