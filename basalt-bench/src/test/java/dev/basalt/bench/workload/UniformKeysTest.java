package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UniformKeysTest {
  @Test
  void everyBucketIsEquallyLikely() {
    UniformKeys u = new UniformKeys(1000, 1999, new SplittableRandom(3));
    int buckets = 10;
    int draws = 100_000;
    long[] counts = new long[buckets];
    for (int i = 0; i < draws; i++) {
      long k = u.next();
      assertThat(k).isBetween(1000L, 1999L);
      counts[(int) ((k - 1000) / 100)]++;
    }
    double expected = draws / (double) buckets;
    double chiSquare = 0;
    for (long c : counts) {
      chiSquare += (c - expected) * (c - expected) / expected;
    }
    // 21.67 is the 99th percentile of chi-square with 9 degrees of freedom.
    assertThat(chiSquare).isLessThan(21.67);
  }

  @Test
  void bothEndsAreReachable() {
    UniformKeys u = new UniformKeys(0, 2, new SplittableRandom(4));
    boolean[] seen = new boolean[3];
    for (int i = 0; i < 1000; i++) {
      seen[(int) u.next()] = true;
    }
    assertThat(seen).containsOnly(true);
  }

  @Test
  void anEmptyRangeIsRejected() {
    assertThatThrownBy(() -> new UniformKeys(5, 4, new SplittableRandom(1)))
        .hasMessageContaining("empty range");
  }
}
