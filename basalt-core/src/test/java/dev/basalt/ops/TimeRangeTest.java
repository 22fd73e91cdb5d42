package dev.basalt.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TimeRangeTest {

  @Test
  void allTimeIsZeroToMax() {
    TimeRange all = TimeRange.allTime();
    assertThat(all.getMin()).isZero();
    assertThat(all.getMax()).isEqualTo(Long.MAX_VALUE);
    assertThat(all.isAllTime()).isTrue();
    assertThat(TimeRange.between(0, Long.MAX_VALUE)).isSameAs(all);
    assertThat(all.withinTimeRange(0)).isTrue();
    assertThat(all.withinTimeRange(Long.MAX_VALUE - 1)).isTrue();
  }

  @Test
  void betweenIsHalfOpen() {
    TimeRange tr = TimeRange.between(10, 20);
    assertThat(tr.isAllTime()).isFalse();
    assertThat(tr.withinTimeRange(9)).isFalse();
    assertThat(tr.withinTimeRange(10)).isTrue();
    assertThat(tr.withinTimeRange(19)).isTrue();
    assertThat(tr.withinTimeRange(20)).isFalse();
    assertThat(tr.withinOrAfterTimeRange(9)).isFalse();
    assertThat(tr.withinOrAfterTimeRange(10)).isTrue();
    assertThat(tr.withinOrAfterTimeRange(1000)).isTrue();
    assertThat(tr).hasToString("[10, 20)");
  }

  @Test
  void emptyRangeIsAllowedAndContainsNothing() {
    TimeRange tr = TimeRange.between(5, 5);
    assertThat(tr.withinTimeRange(5)).isFalse();
    assertThat(tr.compare(5)).isEqualTo(1);
    assertThat(tr.compare(4)).isEqualTo(-1);
  }

  @Test
  void atIsOneTimestamp() {
    TimeRange tr = TimeRange.at(7);
    assertThat(tr.getMin()).isEqualTo(7);
    assertThat(tr.getMax()).isEqualTo(8);
    assertThat(tr.withinTimeRange(7)).isTrue();
    assertThat(tr.withinTimeRange(6)).isFalse();
    assertThat(tr.withinTimeRange(8)).isFalse();
    assertThat(TimeRange.at(0).withinTimeRange(0)).isTrue();
    assertThat(TimeRange.at(Long.MAX_VALUE - 1).getMax()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void validation() {
    assertThatThrownBy(() -> TimeRange.between(-1, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative")
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> TimeRange.between(0, -5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
    assertThatThrownBy(() -> TimeRange.between(20, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max 10 is smaller than min 20");
    assertThatThrownBy(() -> TimeRange.at(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> TimeRange.at(Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(String.valueOf(Long.MAX_VALUE));
  }

  @Test
  void compareSaysOlderInsideOrNewer() {
    TimeRange tr = TimeRange.between(10, 20);
    assertThat(tr.compare(0)).isEqualTo(-1);
    assertThat(tr.compare(9)).isEqualTo(-1);
    assertThat(tr.compare(10)).isZero();
    assertThat(tr.compare(19)).isZero();
    assertThat(tr.compare(20)).isEqualTo(1);
    assertThat(tr.compare(Long.MAX_VALUE)).isEqualTo(1);
  }

  @Test
  void equalsAndHashCode() {
    assertThat(TimeRange.between(1, 2)).isEqualTo(TimeRange.at(1));
    assertThat(TimeRange.between(1, 2)).hasSameHashCodeAs(TimeRange.at(1));
    assertThat(TimeRange.between(1, 3)).isNotEqualTo(TimeRange.between(1, 2));
    assertThat(TimeRange.between(0, 3)).isNotEqualTo(TimeRange.between(1, 3));
    assertThat(TimeRange.between(1, 2)).isNotEqualTo("[1, 2)");
  }
}
