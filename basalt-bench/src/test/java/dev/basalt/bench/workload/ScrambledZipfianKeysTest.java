package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ScrambledZipfianKeysTest {
  @Test
  void popularRecordsAreScatteredAndSkewed() {
    int items = 10_000;
    int draws = 500_000;
    ScrambledZipfianKeys z = new ScrambledZipfianKeys(0, items - 1, new SplittableRandom(7));
    long[] counts = new long[items];
    for (int i = 0; i < draws; i++) {
      long k = z.next();
      assertThat(k).isBetween(0L, (long) items - 1);
      counts[(int) k]++;
    }
    // The most popular record holds about P(rank 0) = 1/zeta(10^10) of the draws, plus its share
    // of the ranks hashed onto it.
    int top = 0;
    for (int i = 1; i < items; i++) {
      if (counts[i] > counts[top]) {
        top = i;
      }
    }
    double topShare = counts[top] / (double) draws;
    assertThat(topShare).isBetween(0.9 / ScrambledZipfianKeys.RANK_SPACE_ZETA, 0.05);
    // Scrambled: the favourite is where rank 0 hashes to, not record 0.
    assertThat((long) top).isEqualTo(KeyNames.fnv64(0) % items);
    // Skewed: the 1% most popular records get far more than 1% of the draws...
    long[] sorted = counts.clone();
    Arrays.sort(sorted);
    long hottest = 0;
    for (int i = items - items / 100; i < items; i++) {
      hottest += sorted[i];
    }
    assertThat(hottest / (double) draws).isGreaterThan(0.15);
    // ...and still almost every record is chosen now and then.
    long touched = Arrays.stream(counts).filter(c -> c > 0).count();
    assertThat(touched).isGreaterThan(items * 9L / 10);
  }

  @Test
  void aFixedSeedGivesTheSameSequence() {
    ScrambledZipfianKeys a = new ScrambledZipfianKeys(5, 1004, new SplittableRandom(11));
    ScrambledZipfianKeys b = new ScrambledZipfianKeys(5, 1004, new SplittableRandom(11));
    for (int i = 0; i < 1000; i++) {
      long k = a.next();
      assertThat(k).isEqualTo(b.next()).isBetween(5L, 1004L);
    }
  }

  @Test
  void meanIsTheMiddleOfTheRange() {
    // Hashing spreads the ranks evenly, so the mean is that of a uniform distribution.
    ScrambledZipfianKeys z = new ScrambledZipfianKeys(0, 999_999, new SplittableRandom(5));
    double sum = 0;
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      sum += z.next();
    }
    assertThat(sum / n).isCloseTo(500_000, within(25_000.0));
  }
}
