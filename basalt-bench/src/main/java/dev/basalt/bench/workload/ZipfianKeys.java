package dev.basalt.bench.workload;

import java.util.random.RandomGenerator;

/**
 * Record numbers with a Zipfian distribution over [min, min + items): min is the most popular, min
 * + 1 the next, and so on, P(rank k) proportional to 1 / (k + 1)^theta.
 *
 * <p>The method is the one YCSB uses, from Gray et al., "Quickly Generating Billion-Record
 * Synthetic Databases" (SIGMOD 1994): one uniform draw u per value, turned into a rank through
 * zeta(n, theta) = sum of 1 / i^theta for i = 1..n. Computing zeta is O(n), so it is done once, and
 * incrementally when the item count grows ({@link #next(long)}, used by the "latest" distribution
 * whose range grows with every insert). YCSB's constant theta is 0.99.
 *
 * <p>Not thread-safe: one instance per worker thread.
 */
final class ZipfianKeys implements KeyChooser {
  /** YCSB's Zipfian constant. */
  static final double YCSB_THETA = 0.99;

  private final long min;
  private final double theta;
  private final double alpha;
  private final double zeta2;
  private final RandomGenerator random;
  private long items;
  private double zetaN;
  private double eta;

  ZipfianKeys(long min, long items, double theta, RandomGenerator random) {
    this(min, items, theta, zeta(0, items, theta, 0), random);
  }

  /** With zeta(items, theta) already known (it is too slow to compute for huge item counts). */
  ZipfianKeys(long min, long items, double theta, double zetaN, RandomGenerator random) {
    if (items < 1) {
      throw new IllegalArgumentException("a Zipfian distribution needs at least one item");
    }
    if (!(theta > 0 && theta < 1)) {
      throw new IllegalArgumentException("theta must be in (0, 1), got " + theta);
    }
    this.min = min;
    this.theta = theta;
    this.alpha = 1.0 / (1.0 - theta);
    this.zeta2 = zeta(0, 2, theta, 0);
    this.random = random;
    this.items = items;
    this.zetaN = zetaN;
    this.eta = eta(items);
  }

  /** zeta(to) computed from zeta(from) = {@code partial}: adds 1 / i^theta for i in (from, to]. */
  static double zeta(long from, long to, double theta, double partial) {
    double sum = partial;
    for (long i = from + 1; i <= to; i++) {
      sum += 1.0 / Math.pow(i, theta);
    }
    return sum;
  }

  private double eta(long n) {
    return (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetaN);
  }

  @Override
  public long next() {
    return min + rank(random.nextDouble());
  }

  /**
   * A value drawn over a range grown to {@code itemCount} items (never shrunk: a smaller count than
   * before is served from the larger range's distribution clipped to the smaller one).
   */
  long next(long itemCount) {
    if (itemCount > items) {
      zetaN = zeta(items, itemCount, theta, zetaN);
      items = itemCount;
      eta = eta(itemCount);
    }
    long r = rank(random.nextDouble());
    return min + Math.min(r, itemCount - 1);
  }

  /** The rank (0 = most popular) that the uniform draw u in [0, 1) maps to. */
  long rank(double u) {
    double uz = u * zetaN;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < 1.0 + Math.pow(0.5, theta)) {
      return 1;
    }
    long r = (long) (items * Math.pow(eta * u - eta + 1, alpha));
    return Math.min(r, items - 1);
  }

  long items() {
    return items;
  }
}
