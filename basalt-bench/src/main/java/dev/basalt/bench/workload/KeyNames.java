package dev.basalt.bench.workload;

import java.nio.charset.StandardCharsets;

/**
 * Row keys and column names as YCSB's core workload builds them, so that the data (and so the
 * region split points) look the same as under YCSB: record n is stored under "user" followed by the
 * decimal FNV-1a hash of n (YCSB's default "hashed" insert order), fields are "field0", "field1",
 * ...
 */
final class KeyNames {
  private static final long FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325L;
  private static final long FNV_PRIME_64 = 1099511628211L;

  private KeyNames() {}

  /**
   * FNV-1a over the 8 bytes of {@code value}, least significant first, made non-negative the way
   * YCSB does it (Math.abs, so Long.MIN_VALUE stays negative; it never occurs in practice).
   */
  static long fnv64(long value) {
    long hash = FNV_OFFSET_BASIS_64;
    long v = value;
    for (int i = 0; i < 8; i++) {
      hash ^= v & 0xFF;
      hash *= FNV_PRIME_64;
      v >>= 8;
    }
    return Math.abs(hash);
  }

  static String rowKey(long recordNumber) {
    return "user" + fnv64(recordNumber);
  }

  static byte[] rowKeyBytes(long recordNumber) {
    return rowKey(recordNumber).getBytes(StandardCharsets.UTF_8);
  }

  static byte[][] fieldNames(int fieldCount) {
    byte[][] names = new byte[fieldCount][];
    for (int i = 0; i < fieldCount; i++) {
      names[i] = ("field" + i).getBytes(StandardCharsets.UTF_8);
    }
    return names;
  }

  /**
   * Split points for a table of {@code regions} regions over YCSB's keys, as the HBase reference
   * guide suggests for YCSB: "user" + (1000 + i * (9999 - 1000) / regions) for i = 1..regions-1.
   */
  static byte[][] splitPoints(int regions) {
    byte[][] splits = new byte[Math.max(0, regions - 1)][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] =
          ("user" + (1000 + (long) i * (9999 - 1000) / regions)).getBytes(StandardCharsets.UTF_8);
    }
    return splits;
  }
}
