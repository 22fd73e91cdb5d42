package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZipfianKeysTest {
  private static final int DRAWS = 400_000;

  @Test
  void rankFrequenciesFollowZipfsLaw() {
    int items = 1000;
    double theta = ZipfianKeys.YCSB_THETA;
    ZipfianKeys z = new ZipfianKeys(0, items, theta, new SplittableRandom(1));
    long[] counts = new long[items];
    for (int i = 0; i < DRAWS; i++) {
      long k = z.next();
      assertThat(k).isBetween(0L, (long) items - 1);
      counts[(int) k]++;
    }
    double zeta = ZipfianKeys.zeta(0, items, theta, 0);
    // Gray's method is exact for the two most popular ranks and an approximation beyond: check
    // the head closely and the rest of the head loosely.
    for (int k = 0; k < 2; k++) {
      double expected = DRAWS / Math.pow(k + 1, theta) / zeta;
      assertThat((double) counts[k]).isCloseTo(expected, within(expected * 0.03));
    }
    for (int k = 2; k < 10; k++) {
      double expected = DRAWS / Math.pow(k + 1, theta) / zeta;
      assertThat((double) counts[k]).isCloseTo(expected, within(expected * 0.25));
    }
    // Popularity falls with rank: the first 10 ranks hold far more than the last 10.
    long head = 0;
    long tail = 0;
    for (int k = 0; k < 10; k++) {
      head += counts[k];
      tail += counts[items - 1 - k];
    }
    assertThat(head).isGreaterThan(50 * tail);
  }

  @Test
  void itemsBeyondTheFirstRangeAppearOnlyAfterGrowing() {
    ZipfianKeys z = new ZipfianKeys(100, 50, ZipfianKeys.YCSB_THETA, new SplittableRandom(2));
    for (int i = 0; i < 10_000; i++) {
      assertThat(z.next(50)).isBetween(100L, 149L);
    }
    boolean sawNew = false;
    for (int i = 0; i < 50_000; i++) {
      long k = z.next(500);
      assertThat(k).isBetween(100L, 599L);
      sawNew |= k >= 150;
    }
    assertThat(sawNew).isTrue();
    assertThat(z.items()).isEqualTo(500);
  }

  @Test
  void incrementalZetaEqualsZetaFromScratch() {
    double theta = 0.99;
    double part = ZipfianKeys.zeta(0, 1234, theta, 0);
    assertThat(ZipfianKeys.zeta(1234, 5000, theta, part))
        .isCloseTo(ZipfianKeys.zeta(0, 5000, theta, 0), within(1e-9));
  }

  @Test
  void theConstantZetaOfTheScrambledRankSpaceIsConsistent() {
    // zeta(n) ~ n^(1-theta)/(1-theta) + zeta(theta) - 1/(1-theta) (Euler-Maclaurin); check the
    // constant used for 10^10 ranks against that estimate, calibrated at 10^6 where it is summed.
    double theta = 0.99;
    double exactAtMillion = ZipfianKeys.zeta(0, 1_000_000, theta, 0);
    double estimateAtMillion = Math.pow(1e6, 1 - theta) / (1 - theta);
    double c = exactAtMillion - estimateAtMillion;
    double estimate = Math.pow(1e10, 1 - theta) / (1 - theta) + c;
    assertThat(ScrambledZipfianKeys.RANK_SPACE_ZETA).isCloseTo(estimate, within(0.01));
  }

  @Test
  void badParametersAreRejected() {
    SplittableRandom r = new SplittableRandom(3);
    assertThatThrownBy(() -> new ZipfianKeys(0, 0, 0.99, r))
        .hasMessageContaining("at least one item");
    assertThatThrownBy(() -> new ZipfianKeys(0, 10, 1.0, r)).hasMessageContaining("theta");
  }
}
