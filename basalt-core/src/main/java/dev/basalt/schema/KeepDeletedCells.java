package dev.basalt.schema;

/**
 * Whether deleted cells stay readable by time-range reads that end before the delete (HBase's
 * KEEP_DELETED_CELLS). TTL keeps them only until they expire.
 */
public enum KeepDeletedCells {
  FALSE,
  TRUE,
  TTL;

  /** Parses HBase's spellings (any case; also booleans). */
  public static KeepDeletedCells parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "KEEP_DELETED_CELLS must be FALSE, TRUE or TTL, not '" + s + "'");
    }
  }
}
