package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThrottleTest {
  private static final long MS = 1_000_000;

  @Test
  void operationsAreSpacedByTheRate() {
    Throttle t = new Throttle(100, 0); // one every 10 ms
    assertThat(t.limited()).isTrue();
    assertThat(t.delayBeforeNext(0)).isZero(); // op 0 due at 0
    assertThat(t.delayBeforeNext(1 * MS)).isEqualTo(9 * MS); // op 1 due at 10 ms
    assertThat(t.delayBeforeNext(10 * MS)).isEqualTo(10 * MS); // op 2 due at 20 ms
    assertThat(t.delayBeforeNext(25 * MS)).isEqualTo(5 * MS); // op 3 due at 30 ms
  }

  @Test
  void aWorkerThatFellBehindCatchesUpWithoutWaiting() {
    Throttle t = new Throttle(1000, 0); // one every 1 ms
    t.delayBeforeNext(0);
    // The store stalled for 5 ms: ops 1..5 are overdue and go at once.
    for (int i = 1; i <= 5; i++) {
      assertThat(t.delayBeforeNext(5 * MS)).isZero();
    }
    assertThat(t.delayBeforeNext(5 * MS)).isEqualTo(1 * MS); // op 6 due at 6 ms
  }

  @Test
  void averageRateOverManyOperationsMeetsTheTarget() {
    Throttle t = new Throttle(3, 0); // non-integral nanoseconds per op
    long now = 0;
    for (int i = 0; i < 3000; i++) {
      now += t.delayBeforeNext(now);
    }
    // The 3000th operation (index 2999) starts at 2999/3 s.
    assertThat(now).isBetween(999_666_666_000L, 999_666_667_000L);
  }

  @Test
  void startTimeIsHonoured() {
    Throttle t = new Throttle(10, 500 * MS);
    assertThat(t.delayBeforeNext(100 * MS)).isEqualTo(400 * MS);
  }

  @Test
  void unlimitedNeverWaits() {
    Throttle t = Throttle.unlimited();
    assertThat(t.limited()).isFalse();
    for (int i = 0; i < 100; i++) {
      assertThat(t.delayBeforeNext(i)).isZero();
    }
  }
}
