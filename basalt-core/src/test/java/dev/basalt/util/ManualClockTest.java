package dev.basalt.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManualClockTest {

  @Test
  void startsWhereToldAndMovesOnlyWhenTold() {
    ManualClock clock = new ManualClock(1_000L);
    assertThat(clock.currentTimeMillis()).isEqualTo(1_000L);
    assertThat(clock.currentTimeMillis()).isEqualTo(1_000L);
    assertThat(clock.nanoTime()).isEqualTo(1_000L * 1_000_000L);
  }

  @Test
  void advanceReturnsTheNewReadingAndMovesBothReadings() {
    ManualClock clock = new ManualClock(0);
    assertThat(clock.advance(250)).isEqualTo(250);
    assertThat(clock.advance(50)).isEqualTo(300);
    assertThat(clock.currentTimeMillis()).isEqualTo(300);
    assertThat(clock.nanoTime()).isEqualTo(300_000_000L);
    assertThat(clock.advance(0)).isEqualTo(300);
  }

  @Test
  void setJumpsEitherWay() {
    ManualClock clock = new ManualClock(500);
    clock.set(10_000);
    assertThat(clock.currentTimeMillis()).isEqualTo(10_000);
    clock.set(7);
    assertThat(clock.currentTimeMillis()).isEqualTo(7);
    assertThat(clock.nanoTime()).isEqualTo(7_000_000L);
  }

  @Test
  void concurrentAdvancesAreNotLost() throws InterruptedException {
    ManualClock clock = new ManualClock(0);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread th =
          new Thread(
              () -> {
                for (int i = 0; i < 10_000; i++) {
                  clock.advance(1);
                }
              });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join();
    }
    assertThat(clock.currentTimeMillis()).isEqualTo(40_000);
  }

  @Test
  void isAClock() {
    Clock clock = new ManualClock(42);
    assertThat(clock.currentTimeMillis()).isEqualTo(42);
    // The system clock is a different, real clock.
    assertThat(Clock.system()).isNotNull().isSameAs(Clock.system());
    long before = System.currentTimeMillis();
    assertThat(Clock.system().currentTimeMillis()).isGreaterThanOrEqualTo(before);
  }
}
