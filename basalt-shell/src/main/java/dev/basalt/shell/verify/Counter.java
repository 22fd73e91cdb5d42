package dev.basalt.shell.verify;

/**
 * HBase VerifyReplication's row counters, by the same names (scripts that read its job counters
 * read these). Every row is counted once as GOODROWS or BADROWS; a bad row is also counted under
 * the reason it was found bad in the scan (a re-check that still fails keeps that reason, as in
 * HBase), so the three reasons add up to BADROWS.
 */
enum Counter {
  GOODROWS,
  BADROWS,
  ONLY_IN_SOURCE_TABLE_ROWS,
  ONLY_IN_PEER_TABLE_ROWS,
  CONTENT_DIFFERENT_ROWS;

  /** The reason counters, in the order they are printed after GOODROWS and BADROWS. */
  static final Counter[] REASONS = {
    ONLY_IN_SOURCE_TABLE_ROWS, ONLY_IN_PEER_TABLE_ROWS, CONTENT_DIFFERENT_ROWS
  };
}
