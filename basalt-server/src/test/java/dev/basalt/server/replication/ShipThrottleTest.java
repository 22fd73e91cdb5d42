package dev.basalt.server.replication;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShipThrottleTest {
  @Test
  void shipmentsWaitForTheBytesBeforeThemAtTheLimit() {
    ShipThrottle t = new ShipThrottle();
    assertThat(t.delayBefore(500, 1_000, 0)).isZero();
    assertThat(t.delayBefore(500, 1_000, 0))
        .as("the first 500 bytes take half a second")
        .isEqualTo(500);
    assertThat(t.delayBefore(2_000, 1_000, 600)).isEqualTo(400);
    assertThat(t.delayBefore(10, 1_000, 10_000)).as("idle time is not saved up").isZero();
    assertThat(t.delayBefore(10, 1_000, 10_005)).isEqualTo(5);
  }

  @Test
  void noLimitNeverWaits() {
    ShipThrottle t = new ShipThrottle();
    assertThat(t.delayBefore(1 << 30, 0, 0)).isZero();
    assertThat(t.delayBefore(1 << 30, 0, 0)).isZero();
  }
}
