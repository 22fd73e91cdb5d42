package dev.basalt.schema;

/**
 * HBase's data block encodings. Basalt's store files always prefix-compress keys inside a block, so
 * every encoding is accepted and recorded (clients send and expect it), and all read the same.
 */
public enum DataBlockEncoding {
  NONE,
  PREFIX,
  DIFF,
  FAST_DIFF,
  ROW_INDEX_V1;

  public static DataBlockEncoding parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "DATA_BLOCK_ENCODING must be one of NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1, not '"
              + s
              + "'");
    }
  }
}
