package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.NoWait;
import dev.basalt.util.config.Config;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A region operation tried inside {@link NoWait#attempt} throws instead of waiting, and when it
 * does, it has changed nothing: the same operation then succeeds where waiting is allowed.
 */
class RegionNoWaitTest {
  private Thread holder;
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() throws InterruptedException {
    release.countDown();
    if (holder != null) {
      holder.join(10_000);
    }
    FaultPoints.disarmAll();
  }

  private static Region newRegion() {
    return Region.inMemory(
        TestRegions.table(f -> f),
        RegionServices.of(Clock.system(), Config.defaults(), EditLog.NONE));
  }

  /** Starts a thread that runs {@code work} and returns once it holds what {@code work} takes. */
  private void holdOnAnotherThread(Runnable work, CountDownLatch holding)
      throws InterruptedException {
    holder = new Thread(work, "holder");
    holder.start();
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aWriteToALockedRowThrowsAndChangesNothing() throws Exception {
    Region r = newRegion();
    r.put(new Put(b("row")).addColumn(F, b("n"), dev.basalt.cell.Bytes.toBytes(10L)));
    CountDownLatch holding = new CountDownLatch(1);
    TestRegions.pauseAt(Region.FAULT_ROWS_LOCKED, "holder", holding, release);
    holdOnAnotherThread(
        () -> {
          try {
            r.put(new Put(b("row")).addColumn(F, b("q"), b("first")));
          } catch (Exception e) {
            throw new RuntimeException(e);
          }
        },
        holding);

    Increment inc = new Increment(b("row")).addColumn(F, b("n"), 5);
    assertThatThrownBy(() -> NoWait.attempt(() -> r.increment(inc)))
        .isInstanceOf(NoWait.WouldWait.class)
        .hasMessageContaining("the lock of row row");
    // Other rows are free, and a read does not wait for row locks.
    NoWait.attempt(
        () -> {
          r.put(new Put(b("other")).addColumn(F, b("q"), b("x")));
          return null;
        });
    assertThat(NoWait.attempt(() -> r.get(new Get(b("other")))).getValue(F, b("q")))
        .isEqualTo(b("x"));

    release.countDown();
    holder.join(10_000);
    // The refused increment was not applied, and the lock it tried is not left behind.
    assertThat(dev.basalt.cell.Bytes.toLong(r.get(new Get(b("row"))).getValue(F, b("n"))))
        .isEqualTo(10L);
    NoWait.attempt(() -> r.increment(inc));
    assertThat(dev.basalt.cell.Bytes.toLong(r.get(new Get(b("row"))).getValue(F, b("n"))))
        .isEqualTo(15L);
  }

  @Test
  void aReadOfARegionTakingAFlushSnapshotThrows() throws Exception {
    Region r = newRegion();
    r.put(new Put(b("row")).addColumn(F, b("q"), b("v")));
    CountDownLatch holding = new CountDownLatch(1);
    holdOnAnotherThread(
        () -> {
          r.lockForFlush();
          try {
            holding.countDown();
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            r.unlockForFlush();
          }
        },
        holding);

    assertThatThrownBy(() -> NoWait.attempt(() -> r.get(new Get(b("row")))))
        .isInstanceOf(NoWait.WouldWait.class)
        .hasMessageContaining("to finish a flush or close");
    assertThatThrownBy(
            () ->
                NoWait.attempt(
                    () -> {
                      r.put(new Put(b("row")).addColumn(F, b("q"), b("w")));
                      return null;
                    }))
        .isInstanceOf(NoWait.WouldWait.class);
    release.countDown();
    holder.join(10_000);
    assertThat(NoWait.attempt(() -> r.get(new Get(b("row")))).getValue(F, b("q")))
        .isEqualTo(b("v"));
  }
}
