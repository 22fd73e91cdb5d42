package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.compaction.CompactionSettings;
import dev.basalt.ops.Put;
import dev.basalt.region.Region;
import dev.basalt.region.RegionFlusher;
import dev.basalt.region.RegionSettings;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A size-triggered flush is requested once per memstore: a write that completes after the flush
 * task started but before it set the memstore aside (it waits for writes in flight) must not queue
 * a second flush, which would write the few writes that come after the snapshot as a tiny file.
 *
 * <p>The interleaving is forced, not timed: writer B holds the region's operation lock (parked in a
 * fault point once it holds its row lock, before it takes a sequence id, so that it holds up no
 * other write) until the flush thread waits for that lock; B then completes while the first flush
 * is pending, and further writes land after the snapshot, while the first flush is held after
 * writing its file.
 */
@Timeout(120) // the interleaving is forced with spins: a broken one must fail, not hang
class FlushRequestTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  private static Config config() {
    return Config.builder()
        .set(RegionSettings.FLUSH_SIZE, 64L * 1024)
        .set(CompactionSettings.MIN_FILES, 100) // keep the files for counting
        .set(CompactionSettings.MAX_FILES, 100)
        .set(DatabaseSettings.FLUSH_ON_CLOSE, false)
        .build();
  }

  private static void put(Table t, String row) throws IOException {
    t.put(new Put(Bytes.toBytes(row)).addColumn(F, Q, new byte[100]));
  }

  /** Whether the background flush thread waits for the region's exclusive lock. */
  private static boolean flushWaitsForWrites() {
    for (var e : Thread.getAllStackTraces().entrySet()) {
      Thread t = e.getKey();
      if (t.getName().startsWith("basalt-flush")
          && t.getState() == Thread.State.WAITING
          && Arrays.stream(e.getValue()).anyMatch(f -> f.getMethodName().equals("lockForFlush"))) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aWriteWhileTheFlushWaitsForTheLockDoesNotQueueASecondFlush() throws Exception {
    Database db = Database.open(dir, config());
    db.createTable(
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
    Table t = db.getTable(T);
    Region r = db.region(T);
    AtomicReference<Thread> writerB = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch bParked = new CountDownLatch(1);
    FaultPoints.arm(
        Region.FAULT_ROWS_LOCKED,
        point -> {
          if (Thread.currentThread() == writerB.get()) {
            bParked.countDown();
            while (!flushWaitsForWrites()) {
              Thread.onSpinWait();
            }
          }
        });
    CountDownLatch snapshotTaken = new CountDownLatch(1);
    CountDownLatch releaseFirstFlush = new CountDownLatch(1);
    AtomicInteger flushes = new AtomicInteger();
    FaultPoints.arm(
        RegionFlusher.FAULT_FILES_WRITTEN,
        point -> {
          if (flushes.incrementAndGet() == 1) {
            snapshotTaken.countDown();
            try {
              releaseFirstFlush.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
    Thread b =
        new Thread(
            () -> {
              try {
                put(t, "b");
              } catch (Throwable e) {
                failure.set(e);
              }
            });
    writerB.set(b);
    b.start();
    bParked.await();
    // B holds the operation lock; fill the memstore past the flush size, which requests the flush,
    // which then waits for B.
    int n = 0;
    while (!r.needsFlush()) {
      put(t, String.format("a%06d", n++));
    }
    b.join();
    assertThat(failure.get()).isNull();
    snapshotTaken.await();
    for (int i = 0; i < 10; i++) {
      put(
          t,
          String.format("late%02d", i)); // after the snapshot: for the next flush, not a file now
    }
    releaseFirstFlush.countDown();
    db.close(); // waits for queued flushes; does not flush (the late writes stay in the WAL)
    assertThat(flushes.get()).as("flushes run by the background thread").isEqualTo(1);
    assertThat(storeFiles()).isEqualTo(1);
  }

  /** Store files of the table's family on disk. */
  private long storeFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
      return files
          .filter(Files::isRegularFile)
          .filter(p -> p.getParent().getFileName().toString().equals("f"))
          .filter(p -> !p.getFileName().toString().endsWith(".tmp"))
          .count();
    }
  }
}
