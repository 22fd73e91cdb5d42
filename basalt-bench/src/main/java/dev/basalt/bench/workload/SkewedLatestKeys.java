package dev.basalt.bench.workload;

import java.util.random.RandomGenerator;

/**
 * YCSB's "latest" distribution (workload D): Zipfian over recency. The newest acknowledged record
 * is the most popular, the one inserted before it the next, and so on, so the popular set moves as
 * inserts arrive. Not thread-safe; the insert sequence it reads is.
 */
final class SkewedLatestKeys implements KeyChooser {
  private final InsertSequence inserts;
  private final ZipfianKeys age;

  SkewedLatestKeys(InsertSequence inserts, RandomGenerator random) {
    this.inserts = inserts;
    long newest = inserts.lastAcknowledged();
    if (newest < 0) {
      throw new IllegalStateException("the latest distribution needs loaded records");
    }
    this.age = new ZipfianKeys(0, newest + 1, ZipfianKeys.YCSB_THETA, random);
  }

  @Override
  public long next() {
    long newest = inserts.lastAcknowledged();
    return newest - age.next(newest + 1);
  }
}
