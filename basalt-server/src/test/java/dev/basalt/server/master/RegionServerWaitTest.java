package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A new active master waits for region servers as HBase's waitForRegionServers does. */
class RegionServerWaitTest {
  private final RegionServerWait wait = new RegionServerWait(4500, 1500, 1);

  @Test
  void waitsWhileServersAreStillJoining() {
    assertThat(wait.settled(1000, 0, 0, 0)).as("none yet").isFalse();
    assertThat(wait.settled(1000, 0, 1, 900)).as("one joined 100 ms ago").isFalse();
    assertThat(wait.settled(3000, 0, 3, 1400)).as("quiet for 1.6 s").isTrue();
  }

  @Test
  void theTimeoutEndsTheWaitWhateverJoins() {
    assertThat(wait.settled(4499, 0, 0, 0)).isFalse();
    assertThat(wait.settled(4500, 0, 0, 0)).isTrue();
    assertThat(wait.settled(4600, 0, 5, 4590)).isTrue();
  }

  @Test
  void fewerThanTheMinimumKeepsWaitingUntilTheTimeout() {
    RegionServerWait three = new RegionServerWait(4500, 1500, 3);
    assertThat(three.settled(4000, 0, 2, 100)).isFalse();
    assertThat(three.settled(4000, 0, 3, 100)).isTrue();
    assertThat(RegionServerWait.NONE.settled(0, 0, 0, 0)).isTrue();
  }
}
