package dev.basalt.bench.workload;

import java.util.random.RandomGenerator;

/** Record numbers uniformly distributed over [min, max]. Not thread-safe. */
final class UniformKeys implements KeyChooser {
  private final long min;
  private final long count;
  private final RandomGenerator random;

  UniformKeys(long min, long max, RandomGenerator random) {
    if (max < min) {
      throw new IllegalArgumentException("empty range [" + min + ", " + max + "]");
    }
    this.min = min;
    this.count = max - min + 1;
    this.random = random;
  }

  @Override
  public long next() {
    return min + random.nextLong(count);
  }
}
