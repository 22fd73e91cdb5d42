package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A region server that did not run for longer than the threshold serves nothing before ZooKeeper
 * confirms its session; an expired session aborts it. The pause is the manual clock moving.
 */
class PauseGuardTest {
  private static final ServerName SELF = new ServerName("127.0.0.1", 16020, 7);
  private static final String ABORTED =
      "org.apache.hadoop.hbase.regionserver.RegionServerAbortedException";

  private final ManualClock clock = new ManualClock(1_000);
  private final AtomicInteger checks = new AtomicInteger();
  private final AtomicReference<Object> answer = new AtomicReference<>(PauseGuard.Session.ALIVE);
  private final List<String> aborts = new CopyOnWriteArrayList<>();

  private PauseGuard guard() {
    return new PauseGuard(
        clock,
        100,
        1_000,
        () -> {
          checks.incrementAndGet();
          Object a = answer.get();
          if (a instanceof IOException e) {
            throw e;
          }
          if (a instanceof CountDownLatch gate) {
            try {
              gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              throw new IOException(e);
            }
            return PauseGuard.Session.ALIVE;
          }
          return (PauseGuard.Session) a;
        },
        aborts::add,
        () -> SELF);
  }

  @Test
  void noPauseNoQuestion() throws Exception {
    PauseGuard g = guard();
    g.check();
    clock.advance(1_000); // exactly the threshold is not a pause
    g.check();
    assertThat(checks).hasValue(0);
  }

  @Test
  void afterAPauseTheSessionIsConfirmedOnceThenServingGoesOn() throws Exception {
    PauseGuard g = guard();
    clock.advance(5_000);
    g.check();
    g.check();
    assertThat(checks).hasValue(1);
    assertThat(aborts).isEmpty();
    clock.advance(500);
    g.check();
    assertThat(checks).hasValue(1);
  }

  @Test
  void anExpiredSessionAbortsAndEveryRequestIsRefusedAsAborting() throws Exception {
    PauseGuard g = guard();
    answer.set(PauseGuard.Session.EXPIRED);
    clock.advance(12_000);
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(g::check)
          .isInstanceOfSatisfying(
              BasaltIOException.class, e -> assertThat(e.hbaseExceptionClass()).isEqualTo(ABORTED))
          .hasMessageContaining("Server " + SELF + " aborting");
    }
    assertThat(checks).hasValue(1);
    assertThat(aborts)
        .singleElement()
        .asString()
        .contains("session expired during a pause of 12000 ms");
  }

  @Test
  void whenZooKeeperCannotTellTheRequestIsRetriedAndTheNextOneAsksAgain() throws Exception {
    PauseGuard g = guard();
    answer.set(new IOException("ZooKeeper 127.0.0.1:2181 did not say within 3000 ms"));
    clock.advance(2_000);
    assertThatThrownBy(g::check)
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> {
              assertThat(e.hbaseExceptionClass())
                  .isEqualTo("org.apache.hadoop.hbase.ipc.ServerNotRunningYetException");
              assertThat(e.isDoNotRetry()).isFalse();
            })
        .hasMessageContaining("confirming its ZooKeeper session after a pause of 2000 ms");
    answer.set(PauseGuard.Session.ALIVE);
    g.check();
    assertThat(checks).hasValue(2);
    assertThat(aborts).isEmpty();
  }

  @Test
  void requestsArrivingTogetherAfterAPauseWaitForOneQuestion() throws Exception {
    PauseGuard g = guard();
    CountDownLatch gate = new CountDownLatch(1);
    answer.set(gate);
    clock.advance(3_000);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> requests = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        requests.add(
            pool.submit(
                () -> {
                  g.check();
                  return null;
                }));
      }
      Thread.sleep(200);
      assertThat(requests).noneMatch(Future::isDone); // held until the session is confirmed
      gate.countDown();
      for (Future<?> f : requests) {
        f.get(10, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(checks).hasValue(1);
  }

  @Test
  void theClockThreadAbortsAResumedServerThatHasNoTraffic() throws Exception {
    answer.set(PauseGuard.Session.EXPIRED);
    try (PauseGuard g = guard().start()) {
      clock.advance(15_000);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (aborts.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(aborts).hasSize(1);
      assertThatThrownBy(g::check).hasMessageContaining("aborting");
    }
  }

  @Test
  void aThresholdNotAboveTheTickIsRefused() {
    assertThatThrownBy(() -> new PauseGuard(clock, 100, 100, () -> null, aborts::add, () -> SELF))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must exceed the tick");
  }
}
