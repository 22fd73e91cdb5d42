package dev.basalt.scan;

/** The query matcher's verdict on one cell: what to return and where to move next. */
public enum MatchCode {
  /** Return the cell; move to the next cell. */
  INCLUDE,
  /** Return the cell; seek to the next column. */
  INCLUDE_AND_SEEK_NEXT_COL,
  /** Return the cell; seek to the next row. */
  INCLUDE_AND_SEEK_NEXT_ROW,
  /** Do not return the cell; move to the next cell. */
  SKIP,
  /** Seek to the next column. */
  SEEK_NEXT_COL,
  /** Seek to the next row. */
  SEEK_NEXT_ROW,
  /** Seek to the filter's hint. */
  SEEK_NEXT_USING_HINT,
  /** The cell belongs to another row: this row is finished. */
  DONE,
  /** Nothing further can match: the scan is finished. */
  DONE_SCAN;

  boolean isInclude() {
    return this == INCLUDE
        || this == INCLUDE_AND_SEEK_NEXT_COL
        || this == INCLUDE_AND_SEEK_NEXT_ROW;
  }
}
