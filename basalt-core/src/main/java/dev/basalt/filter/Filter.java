package dev.basalt.filter;

import dev.basalt.cell.Cell;
import java.io.IOException;
import java.util.List;

/**
 * HBase's filter contract, evaluated inside the scanner stack. For each row the scanner calls, in
 * order: {@link #filterAllRemaining()} (stop the whole scan), {@link #filterRowKey(Cell)} (drop the
 * row), {@link #filterCell(Cell)} for every cell that the version, time-range and delete rules have
 * already accepted, {@link #transformCell(Cell)} on included cells, then {@link
 * #filterRowCells(List)} and {@link #filterRow()} when {@link #hasFilterRow()}, and finally {@link
 * #reset()} before the next row.
 *
 * <p>A filter that knows where the next interesting cell is returns {@link
 * ReturnCode#SEEK_NEXT_USING_HINT} and gives the position in {@link #getNextCellHint(Cell)}; the
 * scanner seeks there instead of reading every cell in between. The defaults here include
 * everything.
 *
 * <p>A filter instance holds the state of one read (a {@code PrefixFilter} remembers that the scan
 * has passed its prefix, a {@code PageFilter} counts rows), and nothing resets it between reads:
 * give every {@code Get} and {@code Scan} its own instance. (HBase's client serialises the filter
 * into each request, so reusing one there is harmless; in the embedded API it is not, and the
 * second read would start where the first one stopped.)
 */
public abstract class Filter {
  private boolean reversed;

  /** What to do with a cell. */
  public enum ReturnCode {
    /** Include the cell. */
    INCLUDE,
    /** Include the cell and skip to the next column. */
    INCLUDE_AND_NEXT_COL,
    /** Skip the cell. */
    SKIP,
    /** Skip to the next column. */
    NEXT_COL,
    /** Skip the rest of the row. */
    NEXT_ROW,
    /** Seek to {@link Filter#getNextCellHint(Cell)}. */
    SEEK_NEXT_USING_HINT,
    /** Include the cell and skip the rest of the row. */
    INCLUDE_AND_SEEK_NEXT_ROW
  }

  /** Clears per-row state; called before each row. */
  public void reset() throws IOException {}

  /** True to drop the whole row; {@code firstRowCell} is the row's first cell. */
  public boolean filterRowKey(Cell firstRowCell) throws IOException {
    return false;
  }

  /** True when no further row can pass: the scan ends. */
  public boolean filterAllRemaining() throws IOException {
    return false;
  }

  public ReturnCode filterCell(Cell c) throws IOException {
    return ReturnCode.INCLUDE;
  }

  /** The cell to return in place of an included one. */
  public Cell transformCell(Cell c) throws IOException {
    return c;
  }

  /** May edit the row's included cells before it is returned. */
  public void filterRowCells(List<Cell> cells) throws IOException {}

  /** True when {@link #filterRowCells} or {@link #filterRow} must see whole rows. */
  public boolean hasFilterRow() {
    return false;
  }

  /** True to drop the row after its cells were seen. */
  public boolean filterRow() throws IOException {
    return false;
  }

  /** Where to seek after {@link ReturnCode#SEEK_NEXT_USING_HINT}; must sort after {@code c}. */
  public Cell getNextCellHint(Cell c) throws IOException {
    return null;
  }

  /** Whether the family must be read to evaluate this filter. */
  public boolean isFamilyEssential(byte[] family) throws IOException {
    return true;
  }

  public void setReversed(boolean reversed) {
    this.reversed = reversed;
  }

  public boolean isReversed() {
    return reversed;
  }
}
