package dev.basalt.bench.workload;

import java.util.Locale;

/** How a workload chooses which existing record an operation touches. */
enum Distribution {
  /** Scrambled Zipfian: a few records are very popular, scattered over the key space. */
  ZIPFIAN,
  /** Every record equally likely. */
  UNIFORM,
  /** Zipfian over recency: the newest records are the most popular (workload D). */
  LATEST;

  static Distribution parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown distribution '" + text + "' (expected zipfian, uniform or latest)");
    }
  }

  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
