package dev.basalt.schema;

/** Block compression of store files, with HBase's names. */
public enum Compression {
  NONE,
  GZ,
  LZ4,
  SNAPPY,
  ZSTD;

  public static Compression parse(String s) {
    String t = s.trim().toUpperCase(java.util.Locale.ROOT);
    if (t.equals("GZIP")) {
      return GZ;
    }
    try {
      return valueOf(t);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "COMPRESSION must be one of NONE, GZ, LZ4, SNAPPY, ZSTD, not '" + s + "'");
    }
  }
}
