package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SkewedLatestKeysTest {
  @Test
  void theNewestRecordsAreTheMostPopular() {
    int records = 10_000;
    InsertSequence inserts = new InsertSequence(records);
    SkewedLatestKeys keys = new SkewedLatestKeys(inserts, new SplittableRandom(9));
    int draws = 200_000;
    long[] counts = new long[records];
    for (int i = 0; i < draws; i++) {
      long k = keys.next();
      assertThat(k).isBetween(0L, (long) records - 1);
      counts[(int) k]++;
    }
    double zeta = ZipfianKeys.zeta(0, records, ZipfianKeys.YCSB_THETA, 0);
    assertThat((double) counts[records - 1]).isCloseTo(draws / zeta, within(draws / zeta * 0.05));
    assertThat(counts[records - 1]).isGreaterThan(counts[records - 2]);
    long newestTenth = 0;
    for (int i = records - records / 10; i < records; i++) {
      newestTenth += counts[i];
    }
    assertThat(newestTenth / (double) draws).isGreaterThan(0.6);
  }

  @Test
  void followsAcknowledgedInsertsOnly() {
    InsertSequence inserts = new InsertSequence(100);
    SkewedLatestKeys keys = new SkewedLatestKeys(inserts, new SplittableRandom(10));
    long a = inserts.next(); // 100
    long b = inserts.next(); // 101
    inserts.acknowledge(b); // 101 done before 100: not visible yet
    for (int i = 0; i < 10_000; i++) {
      assertThat(keys.next()).isBetween(0L, 99L);
    }
    inserts.acknowledge(a);
    long newest = 0;
    for (int i = 0; i < 10_000; i++) {
      long k = keys.next();
      assertThat(k).isBetween(0L, 101L);
      newest = Math.max(newest, k);
    }
    assertThat(newest).isEqualTo(101);
  }
}
