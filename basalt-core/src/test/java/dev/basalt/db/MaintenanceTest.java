package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.compaction.CompactionSettings;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.region.Region;
import dev.basalt.region.RegionFlusher;
import dev.basalt.region.RegionSettings;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.ManualClock;
import dev.basalt.util.NoWait;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The database's background work: flush triggers, the global memory limit, major compactions. */
class MaintenanceTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");

  @TempDir Path dir;

  private static Database open(Path dir, Config config, Clock clock) throws IOException {
    Database db = Database.open(dir, config, clock);
    db.createTable(
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
    return db;
  }

  /** Waits (real time) for background threads to make {@code done} true. */
  private static void eventually(String what, BooleanSupplier done) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!done.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  private static void write(Table t, int rows, int valueBytes) throws IOException {
    for (int i = 0; i < rows; i++) {
      t.put(
          new Put(Bytes.toBytes(String.format("row%06d", i)))
              .addColumn(F, Bytes.toBytes("q"), new byte[valueBytes]));
    }
  }

  @Test
  void aRegionPastItsFlushSizeIsFlushedInTheBackground() throws Exception {
    Config c =
        Config.builder()
            .set(RegionSettings.FLUSH_SIZE, 64L * 1024)
            .set(CompactionSettings.MIN_FILES, 100) // keep the files for counting
            .set(CompactionSettings.MAX_FILES, 100)
            .build();
    try (Database db = open(dir, c, Clock.system())) {
      Table t = db.getTable(T);
      Region r = db.region(T);
      int row = 0;
      for (int files = 1; files <= 3; files++) {
        // The write that takes the memstore past the flush size asks for a flush. (Waiting for
        // each flush keeps the count independent of how fast flushes are next to the writes.)
        while (!r.needsFlush()) {
          t.put(
              new Put(Bytes.toBytes(String.format("row%06d", row++)))
                  .addColumn(F, Bytes.toBytes("q"), new byte[100]));
        }
        int expected = files;
        eventually("background flush " + files, () -> r.getStoreFileCount() >= expected);
      }
      assertThat(t.get(new Get(Bytes.toBytes("row000000"))).isEmpty()).isFalse();
    }
  }

  @Test
  void aWriteHeldByTooManyFilesKeepsAskingUntilCompactionsCatchUp() throws Exception {
    Config many =
        Config.builder()
            .set(CompactionSettings.MIN_FILES, 100) // nothing compacts while the files pile up
            .set(CompactionSettings.MAX_FILES, 100)
            .build();
    try (Database db = open(dir, many, Clock.system())) {
      Table t = db.getTable(T);
      for (int i = 0; i < 9; i++) {
        t.put(new Put(Bytes.toBytes("r" + i)).addColumn(F, Bytes.toBytes("q"), new byte[10]));
        db.flush(T);
      }
      assertThat(db.region(T).getStoreFileCount()).isEqualTo(9);
    }
    // Each compaction takes two files, so six of them must run before a store of nine files is
    // down to three: one request is not enough.
    Config few =
        Config.builder()
            .set(CompactionSettings.MIN_FILES, 2)
            .set(CompactionSettings.MAX_FILES, 2)
            .set(CompactionSettings.BLOCKING_FILES, 3)
            .set(CompactionSettings.BLOCKING_WAIT, 20_000L)
            .build();
    try (Database db = Database.open(dir, few, Clock.system())) {
      Table t = db.getTable(T);
      t.put(new Put(Bytes.toBytes("x")).addColumn(F, Bytes.toBytes("q"), new byte[10]));
      assertThat(db.region(T).getStoreFileCount()).isLessThanOrEqualTo(3);
      for (int i = 0; i < 9; i++) {
        assertThat(t.get(new Get(Bytes.toBytes("r" + i))).isEmpty()).isFalse();
      }
    }
  }

  @Test
  void compactionsSwitchedOffNeitherRunNorHoldWrites() throws Exception {
    Config c =
        Config.builder()
            .set(CompactionSettings.MIN_FILES, 2)
            .set(CompactionSettings.BLOCKING_FILES, 3)
            .set(CompactionSettings.BLOCKING_WAIT, 60_000L)
            .build();
    try (Database db = open(dir, c, Clock.system())) {
      Table t = db.getTable(T);
      Region r = db.region(T);
      assertThat(db.switchCompactions(false)).isTrue();
      assertThat(db.compactionsEnabled()).isFalse();
      for (int i = 0; i < 6; i++) {
        long start = System.nanoTime();
        // With compactions on, the fifth and sixth writes would wait for them (up to a minute).
        t.put(new Put(Bytes.toBytes("r" + i)).addColumn(F, Bytes.toBytes("q"), new byte[10]));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        db.flush(T);
      }
      Thread.sleep(200); // room for a background compaction that should not happen
      assertThat(r.getStoreFileCount()).isEqualTo(6);

      assertThat(db.switchCompactions(true)).isFalse();
      eventually("compactions after switching on", () -> r.getStoreFileCount() < 3);
      for (int i = 0; i < 6; i++) {
        assertThat(t.get(new Get(Bytes.toBytes("r" + i))).isEmpty()).isFalse();
      }
    }
  }

  @Test
  void anOldMemstoreIsFlushedPeriodically() throws Exception {
    ManualClock clock = new ManualClock(System.currentTimeMillis());
    Config c =
        Config.builder()
            .set(DatabaseSettings.PERIODIC_FLUSH, 60_000L)
            .set(DatabaseSettings.MAINTENANCE_INTERVAL, 20L)
            .build();
    try (Database db = open(dir, c, clock)) {
      write(db.getTable(T), 10, 10);
      Region r = db.region(T);
      Thread.sleep(200);
      assertThat(r.getStoreFileCount()).as("not old enough yet").isZero();
      clock.advance(61_000);
      eventually(
          "the periodic flush", () -> r.getStoreFileCount() == 1 && r.getMemstoreSize() == 0);
    }
  }

  @Test
  void writesStayWithinTheGlobalMemstoreLimit() throws Exception {
    long heap = Runtime.getRuntime().maxMemory();
    double fraction = (2.0 * 1024 * 1024) / heap; // a 2 MiB limit
    Config c =
        Config.builder()
            .set(DatabaseSettings.GLOBAL_MEMSTORE_FRACTION, fraction)
            .set(CompactionSettings.BLOCKING_FILES, 1_000)
            .build();
    try (Database db = open(dir, c, Clock.system())) {
      Table t = db.getTable(T);
      Region r = db.region(T);
      long peak = 0;
      for (int i = 0; i < 40_000; i++) {
        t.put(new Put(Bytes.toBytes("r" + i)).addColumn(F, Bytes.toBytes("q"), new byte[200]));
        peak = Math.max(peak, r.getMemstoreSize());
      }
      // ~10 MB were written through a 2 MiB limit: flushes ran and writes waited for them.
      assertThat(r.getStoreFileCount()).isGreaterThan(1);
      assertThat(peak).isLessThan(4L * 1024 * 1024);
      assertThat(t.get(new Get(Bytes.toBytes("r0"))).isEmpty()).isFalse();
    }
  }

  @Test
  void aWriterThatMustNotWaitIsRefusedOverTheGlobalLimit() throws Exception {
    long heap = Runtime.getRuntime().maxMemory();
    Config c =
        Config.builder()
            .set(DatabaseSettings.GLOBAL_MEMSTORE_FRACTION, (2.0 * 1024 * 1024) / heap)
            .set(CompactionSettings.BLOCKING_FILES, 1_000)
            .build();
    CountDownLatch release = new CountDownLatch(1);
    FaultPoints.arm(
        RegionFlusher.FAULT_FILES_WRITTEN,
        p -> {
          try {
            release.await(30, TimeUnit.SECONDS); // flushes cannot free memory meanwhile
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    try (Database db = open(dir, c, Clock.system())) {
      Table t = db.getTable(T);
      Region r = db.region(T);
      NoWait.WouldWait refused = null;
      int written = 0;
      while (refused == null && written < 100_000) {
        Put p =
            new Put(Bytes.toBytes("r" + written)).addColumn(F, Bytes.toBytes("q"), new byte[200]);
        long before = r.getMemstoreSize();
        try {
          NoWait.attempt(
              () -> {
                t.put(p);
                return null;
              });
          written++;
        } catch (NoWait.WouldWait e) {
          refused = e;
          assertThat(r.getMemstoreSize()).isEqualTo(before);
          assertThat(t.get(new Get(p.getRow())).isEmpty()).isTrue();
        }
      }
      assertThat(refused).hasMessageContaining("memstores to flush below their global limit");
      release.countDown();
      FaultPoints.disarmAll();
      // Once flushes free memory, the same writer gets through again.
      eventually(
          "a write that need not wait",
          () -> {
            try {
              NoWait.attempt(
                  () -> {
                    t.put(
                        new Put(Bytes.toBytes("late"))
                            .addColumn(F, Bytes.toBytes("q"), new byte[1]));
                    return null;
                  });
              return true;
            } catch (NoWait.WouldWait e) {
              return false;
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
    } finally {
      release.countDown();
      FaultPoints.disarmAll();
    }
  }

  @Test
  void aMajorCompactionRunsWhenTheOldestFileIsOlderThanThePeriod() throws Exception {
    ManualClock clock = new ManualClock(System.currentTimeMillis());
    Config c =
        Config.builder()
            .set(CompactionSettings.MAJOR_PERIOD, 3_600_000L)
            .set(CompactionSettings.MAJOR_JITTER, 0.0)
            .set(CompactionSettings.MIN_FILES, 100)
            .set(CompactionSettings.MAX_FILES, 100)
            .set(DatabaseSettings.MAINTENANCE_INTERVAL, 20L)
            .build();
    try (Database db = open(dir, c, clock)) {
      Table t = db.getTable(T);
      for (int i = 0; i < 3; i++) {
        write(t, 5, 10);
        db.flush(T);
      }
      Region r = db.region(T);
      assertThat(r.majorCompactionDue(clock.currentTimeMillis(), 3_600_000L, 0)).isFalse();
      Thread.sleep(200);
      assertThat(r.getStoreFileCount()).isEqualTo(3);
      clock.advance(3_600_001);
      eventually("the periodic major compaction", () -> r.getStoreFileCount() == 1);
      assertThat(r.majorCompactionDue(clock.currentTimeMillis(), 3_600_000L, 0))
          .as("one major-compacted file is not due again")
          .isFalse();
    }
  }
}
