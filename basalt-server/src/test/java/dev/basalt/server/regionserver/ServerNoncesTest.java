package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.util.ManualClock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rules of HBase's ServerNonceManager: once after success, again after failure, then forgotten.
 */
class ServerNoncesTest {
  private final ManualClock clock = new ManualClock(1_000);
  private final ServerNonces nonces = new ServerNonces(clock, 60_000);

  @Test
  void aSucceededOperationDoesNotRunAgainUntilItsGracePeriodEnds() throws Exception {
    assertThat(nonces.start(7, 42)).isTrue();
    nonces.end(7, 42, true);
    assertThat(nonces.start(7, 42)).as("retry").isFalse();
    assertThat(nonces.start(8, 42)).as("another client's nonce group").isTrue();
    nonces.end(8, 42, true);
    clock.advance(60_001);
    assertThat(nonces.expire()).isEqualTo(2);
    assertThat(nonces.start(7, 42)).as("forgotten").isTrue();
  }

  @Test
  void aFailedOperationRunsAgainOnRetry() throws Exception {
    assertThat(nonces.start(1, 5)).isTrue();
    nonces.end(1, 5, false);
    assertThat(nonces.start(1, 5)).isTrue();
    nonces.end(1, 5, true);
    assertThat(nonces.start(1, 5)).isFalse();
  }

  @Test
  void withoutANonceEveryCallRuns() throws Exception {
    assertThat(nonces.start(1, ServerNonces.NO_NONCE)).isTrue();
    assertThat(nonces.start(1, ServerNonces.NO_NONCE)).isTrue();
    assertThat(nonces.size()).isZero();
  }

  @Test
  void aRetryWaitsWhileTheFirstCallRuns() throws Exception {
    assertThat(nonces.start(3, 9)).isTrue();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      CountDownLatch asking = new CountDownLatch(1);
      Future<Boolean> retry =
          pool.submit(
              () -> {
                asking.countDown();
                return nonces.start(3, 9);
              });
      asking.await();
      Thread.sleep(50); // the retry is now waiting (if it were not, it would have answered)
      assertThat(retry.isDone()).isFalse();
      nonces.end(3, 9, true);
      assertThat(retry.get(10, TimeUnit.SECONDS)).isFalse();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aNonceRecoveredFromTheLogCountsAsSucceededWithinItsGracePeriod() throws Exception {
    nonces.recovered(7, 42, clock.currentTimeMillis() - 1_000);
    assertThat(nonces.start(7, 42)).as("a retry after the restart").isFalse();
    nonces.recovered(7, 43, clock.currentTimeMillis() - 60_001);
    assertThat(nonces.start(7, 43)).as("logged before the grace period").isTrue();
    nonces.recovered(7, ServerNonces.NO_NONCE, clock.currentTimeMillis());
    assertThat(nonces.size()).isEqualTo(2);
    clock.advance(59_001);
    assertThat(nonces.expire()).as("the recovered one ages from its write time").isEqualTo(1);
  }
}
