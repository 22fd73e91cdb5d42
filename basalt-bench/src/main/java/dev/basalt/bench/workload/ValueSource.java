package dev.basalt.bench.workload;

import java.util.random.RandomGenerator;

/**
 * Field values: random printable ASCII of a fixed length, as YCSB's random byte iterator makes them
 * (so compression, where a store applies it, sees text-like data, not zeros). Not thread-safe.
 */
final class ValueSource {
  private final RandomGenerator random;
  private final int length;

  ValueSource(RandomGenerator random, int length) {
    this.random = random;
    this.length = length;
  }

  byte[] next() {
    byte[] v = new byte[length];
    int i = 0;
    while (i < length) {
      long bits = random.nextLong();
      // 8 characters per draw: each byte of the long mapped onto ' '..'~' (95 characters).
      for (int k = 0; k < 8 && i < length; k++, bits >>>= 8) {
        v[i++] = (byte) (' ' + (int) ((bits & 0xFF) % 95));
      }
    }
    return v;
  }

  byte[][] record(int fields) {
    byte[][] values = new byte[fields][];
    for (int i = 0; i < fields; i++) {
      values[i] = next();
    }
    return values;
  }
}
