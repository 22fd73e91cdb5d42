package dev.basalt.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.util.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompactionPolicyTest {
  private final CompactionPolicy policy = new CompactionPolicy(3, 10, 1.2);

  @Test
  void fewerFilesThanTheMinimumSelectNothing() {
    assertThat(policy.select(List.of(10L, 10L))).isNull();
  }

  @Test
  void similarSizedFilesAreTakenTogether() {
    assertThat(policy.select(List.of(10L, 11L, 9L, 10L)))
        .isEqualTo(new CompactionPolicy.Selection(0, 4));
  }

  @Test
  void aHugeOldFileIsLeftOutAndTheRunStaysConsecutive() {
    // 1000 is far larger than the others together; the best run is the four small newer files.
    CompactionPolicy.Selection s = policy.select(List.of(1000L, 10L, 12L, 9L, 11L));
    assertThat(s).isEqualTo(new CompactionPolicy.Selection(1, 5));
  }

  @Test
  void atMostMaxFilesAreTaken() {
    Long[] sizes = new Long[25];
    java.util.Arrays.fill(sizes, 5L);
    assertThat(policy.select(List.of(sizes)).count()).isEqualTo(10);
  }

  @Test
  void amongEquallyLongRunsTheSmallestIsChosen() {
    // 1000 fits no run; the runs on either side of it have three files each.
    CompactionPolicy.Selection s = policy.select(List.of(50L, 50L, 50L, 1000L, 5L, 5L, 5L));
    assertThat(s).isEqualTo(new CompactionPolicy.Selection(4, 7));
  }

  @Test
  void nonsenseSettingsAreRejected() {
    assertThatThrownBy(() -> new CompactionPolicy(1, 10, 1.2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CompactionPolicy(5, 4, 1.2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CompactionPolicy(3, 10, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void throttleKeepsTheAverageRateAtTheLimit() throws Exception {
    ManualClock clock = new ManualClock(0);
    long[] slept = {0};
    Throttle t =
        new Throttle(
            1_000_000,
            clock,
            nanos -> {
              slept[0] += nanos;
              clock.advance(nanos / 1_000_000);
            });
    for (int i = 0; i < 100; i++) {
      t.wrote(100_000); // 10 MB in all at 1 MB/s: 10 s
    }
    assertThat(slept[0]).isBetween(9_900_000_000L, 10_000_000_000L);
    Throttle unlimited = new Throttle(0, clock, nanos -> slept[0] = -1);
    unlimited.wrote(1L << 40);
    assertThat(slept[0]).isNotEqualTo(-1);
  }
}
