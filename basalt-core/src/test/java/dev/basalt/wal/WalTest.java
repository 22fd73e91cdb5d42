package dev.basalt.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Group commit, durability levels, rolling and archiving. */
class WalTest {
  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  private static WalEntry entry(String region, long seq, String value) {
    return new WalEntry(
        region,
        1,
        List.of(),
        List.of(
            KeyValue.of(
                    Bytes.toBytes("row"),
                    Bytes.toBytes("f"),
                    Bytes.toBytes("q"),
                    1,
                    CellType.PUT,
                    Bytes.toBytes(value))
                .withSequenceId(seq)));
  }

  private Wal open(LocalStorage s, Config c) throws IOException {
    return new Wal(s, "s1", c, Clock.system(), WalReplay.replay(s, "s1", false, e -> {}));
  }

  private static List<String> values(LocalStorage s) throws IOException {
    List<String> out = new ArrayList<>();
    WalReplay.replay(
        s,
        "s1",
        false,
        e -> out.add(Bytes.toString(dev.basalt.cell.CellUtil.cloneValue(e.cells().get(0)))));
    return out;
  }

  @Test
  void syncedEntriesAreOnDiskBeforeSyncReturns() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    Wal wal = open(s, Config.defaults());
    long t1 = wal.append(entry("r1", 1, "a"));
    wal.sync(t1, Durability.SYNC_WAL);
    long t2 = wal.append(entry("r1", 2, "b"));
    wal.sync(t2, Durability.FSYNC_WAL);
    // Read while the log is still open, as a crash would leave it.
    assertThat(values(s)).containsExactly("a", "b");
    wal.close();
    assertThat(values(s)).containsExactly("a", "b");
  }

  @Test
  void everySyncWalEntryIsInTheFileWhenItsSyncReturns() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    Wal wal = open(s, Config.defaults());
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      long t = wal.append(entry("r1", 1 + i, "v" + i));
      wal.sync(t, Durability.SYNC_WAL);
      expected.add("v" + i);
      assertThat(values(s)).containsExactlyElementsOf(expected);
    }
    wal.close();
  }

  @Test
  void asyncWritersWaitForAFlushOnceTheBacklogIsFull() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    // A flush interval far beyond the test: only back-pressure can write these entries.
    long backlog = 1024 * 1024;
    Wal wal =
        open(
            s,
            Config.builder()
                .set(WalSettings.ASYNC_FLUSH_INTERVAL, 3_600_000L)
                .set(WalSettings.ASYNC_BACKLOG, backlog)
                .build());
    String big = "x".repeat(64 * 1024);
    long perEntry = 64 * 1024;
    int entries = (int) (backlog / perEntry) + 2;
    for (int i = 0; i < entries; i++) {
      long t = wal.append(entry("r1", 1 + i, big));
      wal.sync(t, Durability.ASYNC_WAL);
    }
    // The writer that passed the bound flushed the backlog itself; at most a bound's worth (each
    // frame is a little larger than its value) may still wait for the flusher.
    int written = values(s).size();
    assertThat(written)
        .as("entries written without the background flusher")
        .isGreaterThanOrEqualTo(entries - (int) (backlog / perEntry));
    assertThat(written).isGreaterThan(0);
    wal.close();
  }

  @Test
  void asyncEntriesAreWrittenWithinTheFlushInterval() throws Exception {
    LocalStorage s = new LocalStorage(dir);
    Wal wal = open(s, Config.builder().set(WalSettings.ASYNC_FLUSH_INTERVAL, 50L).build());
    long t = wal.append(entry("r1", 1, "async"));
    wal.sync(t, Durability.ASYNC_WAL); // returns at once
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (values(s).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(values(s)).containsExactly("async");
    wal.close();
  }

  @Test
  void oneFlushServesEveryWriterWaitingAtThatMoment() throws Exception {
    LocalStorage s = new LocalStorage(dir);
    Wal wal = open(s, Config.defaults());
    // Hold the syncer inside its first batch so that the other writers pile up behind it.
    CountDownLatch inBatch = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger batches = new AtomicInteger();
    FaultPoints.arm(
        Wal.FAULT_BEFORE_FLUSH,
        p -> {
          if (batches.incrementAndGet() == 1) {
            inBatch.countDown();
            try {
              release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      Future<?> first =
          pool.submit(
              () -> {
                wal.sync(wal.append(entry("r1", 1, "first")), Durability.FSYNC_WAL);
                return null;
              });
      assertThat(inBatch.await(10, TimeUnit.SECONDS)).isTrue();
      List<Future<?>> rest = new ArrayList<>();
      for (int i = 0; i < 15; i++) {
        final int n = i;
        rest.add(
            pool.submit(
                () -> {
                  wal.sync(wal.append(entry("r1", 2 + n, "w" + n)), Durability.FSYNC_WAL);
                  return null;
                }));
      }
      Thread.sleep(200); // let them append and wait
      release.countDown();
      first.get(10, TimeUnit.SECONDS);
      for (Future<?> f : rest) {
        f.get(10, TimeUnit.SECONDS);
      }
      assertThat(batches.get()).as("15 waiting writers shared one more batch").isEqualTo(2);
      assertThat(values(s)).hasSize(16);
    } finally {
      pool.shutdownNow();
      wal.close();
    }
  }

  @Test
  void rollsBySizeAndArchivesSegmentsOnceEveryRegionPersistedPastThem() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    Wal wal = open(s, Config.builder().set(WalSettings.ROLL_SIZE, 100L).build());
    long seq = 0;
    for (int i = 0; i < 10; i++) {
      String region = i % 2 == 0 ? "even" : "odd";
      wal.sync(wal.append(entry(region, ++seq, "v" + i)), Durability.SYNC_WAL);
    }
    List<String> live = wal.liveSegments();
    assertThat(live).as("rolled at 100 bytes").hasSizeGreaterThanOrEqualTo(3);
    wal.markPersisted("even", 9);
    assertThat(wal.liveSegments()).as("odd edits still need them").hasSameSizeAs(live);
    wal.markPersisted("odd", 6);
    assertThat(wal.liveSegments()).hasSizeLessThan(live.size()).isNotEmpty();
    wal.forgetRegion("odd");
    assertThat(wal.liveSegments()).isEmpty();
    assertThat(s.list(Wal.OLD_DIR)).hasSameSizeAs(live);
    wal.close();
    // What remains is only the current segment's edits.
    assertThat(values(s)).doesNotContain("v0", "v1");
  }

  @Test
  void aFailedWriteFailsEveryWaiterAndLaterAppends() throws Exception {
    LocalStorage s = new LocalStorage(dir);
    Wal wal = open(s, Config.defaults());
    FaultPoints.arm(
        Wal.FAULT_BEFORE_FLUSH,
        p -> {
          throw new IllegalStateException("disk on fire");
        });
    long t = wal.append(entry("r1", 1, "x"));
    assertThatThrownBy(() -> wal.sync(t, Durability.SYNC_WAL))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("disk on fire");
    assertThatThrownBy(() -> wal.append(entry("r1", 2, "y"))).isInstanceOf(IOException.class);
    assertThatThrownBy(wal::close).isInstanceOf(IOException.class);
  }

  @Test
  void reopeningContinuesInANewSegmentAfterTheOldOnes() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    Wal wal = open(s, Config.defaults());
    wal.sync(wal.append(entry("r1", 1, "one")), Durability.SYNC_WAL);
    wal.close();
    Wal again = open(s, Config.defaults());
    again.sync(again.append(entry("r1", 2, "two")), Durability.SYNC_WAL);
    again.close();
    assertThat(values(s)).containsExactly("one", "two");
    assertThat(Files.list(dir.resolve("WALs/s1")).count()).isEqualTo(2);
  }
}
