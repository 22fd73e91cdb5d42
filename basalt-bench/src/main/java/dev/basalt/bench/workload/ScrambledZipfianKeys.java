package dev.basalt.bench.workload;

import java.util.random.RandomGenerator;

/**
 * Zipfian popularity with the popular records scattered over [min, max] instead of clustered at
 * min, as YCSB's "zipfian" request distribution does: a rank is drawn from a Zipfian distribution
 * over 10^10 items and hashed (FNV-1a, {@link KeyNames#fnv64}) into the range. Because the rank
 * space is fixed and far larger than the range, the popularity of each record does not depend on
 * how big the range is.
 *
 * <p>zeta(10^10, 0.99) is a constant (YCSB's 26.46902820178302): summing ten billion terms at start
 * would take minutes. Not thread-safe.
 */
final class ScrambledZipfianKeys implements KeyChooser {
  static final long RANK_SPACE = 10_000_000_000L;
  static final double RANK_SPACE_ZETA = 26.46902820178302;

  private final long min;
  private final long count;
  private final ZipfianKeys ranks;

  ScrambledZipfianKeys(long min, long max, RandomGenerator random) {
    if (max < min) {
      throw new IllegalArgumentException("empty range [" + min + ", " + max + "]");
    }
    this.min = min;
    this.count = max - min + 1;
    this.ranks = new ZipfianKeys(0, RANK_SPACE, ZipfianKeys.YCSB_THETA, RANK_SPACE_ZETA, random);
  }

  @Override
  public long next() {
    return min + KeyNames.fnv64(ranks.next()) % count;
  }
}
