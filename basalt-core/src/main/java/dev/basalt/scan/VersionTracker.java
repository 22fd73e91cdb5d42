package dev.basalt.scan;

import dev.basalt.cell.Cell;

/**
 * Applies delete markers and version limits to the cells of one row of one family, seen in cell
 * order. Implementations decide each put exactly; seeks they ask for only skip cells that would be
 * rejected anyway, so a caller may ignore a seek and keep feeding cells. Not thread-safe.
 */
interface VersionTracker {

  /** Forgets the previous row. */
  void startRow();

  /**
   * A delete marker: a family marker, or a marker of a requested column.
   *
   * @param newColumn true when this is the first cell of its column seen in this row
   */
  void addMarker(Cell marker, boolean newColumn);

  /**
   * The verdict on a put of a requested column: INCLUDE, INCLUDE_AND_SEEK_NEXT_COL, SKIP or
   * SEEK_NEXT_COL.
   */
  MatchCode checkPut(Cell put, boolean newColumn);
}
