package dev.basalt.schema;

/** Which keys a store file's bloom filter holds: none, rows, or row+column pairs. */
public enum BloomType {
  NONE,
  ROW,
  ROWCOL;

  public static BloomType parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "BLOOMFILTER must be NONE, ROW or ROWCOL, not '" + s + "'");
    }
  }
}
