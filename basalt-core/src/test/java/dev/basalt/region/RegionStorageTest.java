package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.cells;
import static dev.basalt.region.TestRegions.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.compaction.CompactionSettings;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.ManualClock;
import dev.basalt.util.NoWait;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flushes and compactions of a region on local storage. */
class RegionStorageTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_000_000);

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  private Region open(UnaryOperator<ColumnFamilyDescriptorBuilder> f, Config config)
      throws IOException {
    return open(f, config, clock);
  }

  private Region open(UnaryOperator<ColumnFamilyDescriptorBuilder> f, Config config, Clock c)
      throws IOException {
    return TestRegions.onDisk(dir, TestRegions.table(f), config, c);
  }

  private Region open() throws IOException {
    return open(f -> f.setMaxVersions(3), Config.defaults());
  }

  private long filesIn(String rel) throws IOException {
    Path p = dir.resolve(rel);
    if (!Files.isDirectory(p)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(p)) {
      return s.filter(Files::isRegularFile).count();
    }
  }

  private static void put(Region r, String row, String q, long ts, String v) throws IOException {
    r.put(new Put(b(row)).addColumn(F, b(q), ts, b(v)));
  }

  @Test
  void flushedAndCompactedDataReadsTheSameAndSurvivesReopening() throws IOException {
    Region r = open();
    for (int i = 0; i < 50; i++) {
      put(r, "row" + (i % 10), "q" + (i % 3), 100 + i, "v" + i);
    }
    r.delete(new Delete(b("row3")).addFamily(F)); // one family, so only f gets a file
    List<List<String>> before = scanAll(r, new Scan().readAllVersions());
    assertThat(r.flush()).isTrue();
    assertThat(r.getStoreFileCount()).isEqualTo(1);
    assertThat(r.getMemstoreSize()).isZero();
    assertThat(scanAll(r, new Scan().readAllVersions())).isEqualTo(before);
    put(r, "row1", "q0", 500, "new");
    r.flush();
    put(r, "row2", "q1", 501, "newer");
    r.flush();
    List<List<String>> three = scanAll(r, new Scan().readAllVersions());
    assertThat(r.getStoreFileCount()).isEqualTo(3);
    assertThat(r.compact(true)).isTrue();
    assertThat(r.getStoreFileCount()).isEqualTo(1);
    assertThat(scanAll(r, new Scan().readAllVersions())).isEqualTo(three);
    assertThat(scanAll(r, new Scan().setReversed(true).readAllVersions())).hasSameSizeAs(three);
    assertThat(filesIn("archive/data/t/r/f")).isEqualTo(3);
    long persisted = r.getPersistedSequenceId(F);
    r.close();

    Region again = open();
    assertThat(scanAll(again, new Scan().readAllVersions())).isEqualTo(three);
    assertThat(again.getPersistedSequenceId(F)).isEqualTo(persisted);
    assertThat(again.getLastSequenceId()).isGreaterThanOrEqualTo(persisted);
    again.close();
  }

  @Test
  void majorCompactionDropsDeletedAndPushedOutCells() throws IOException {
    Region r = open(f -> f.setMaxVersions(1), Config.defaults());
    put(r, "a", "q", 1, "old");
    put(r, "a", "q", 2, "new");
    put(r, "b", "q", 1, "gone");
    r.delete(new Delete(b("b")));
    r.flush();
    assertThat(scanAll(r, new Scan().setRaw(true).readAllVersions()).get(0)).hasSize(2);
    r.compact(true);
    assertThat(scanAll(r, new Scan().setRaw(true).readAllVersions()))
        .containsExactly(List.of("a/f:q@2=new"));
    assertThat(cells(r.get(new Get(b("a")).setTimeRange(0, 2)))).isEmpty();
    r.close();
  }

  @Test
  void aScannerOpenDuringACompactionKeepsReadingTheOldFiles() throws IOException {
    Region r = open();
    for (int i = 0; i < 3; i++) {
      put(r, "r" + i, "q", 10, "v" + i);
      r.flush();
    }
    try (RegionScanner s = r.getScanner(new Scan())) {
      assertThat(new String(s.next().getRow())).isEqualTo("r0");
      r.compact(true);
      assertThat(filesIn("archive/data/t/r/f")).as("still in use").isZero();
      assertThat(new String(s.next().getRow())).isEqualTo("r1");
      assertThat(new String(s.next().getRow())).isEqualTo("r2");
    }
    assertThat(filesIn("archive/data/t/r/f")).as("archived once released").isEqualTo(3);
    r.close();
  }

  @Test
  void aCompactionInterruptedAfterItsOutputIsFinishedOnTheNextOpen() throws IOException {
    Region r = open();
    for (int i = 0; i < 3; i++) {
      put(r, "r" + i, "q", 10, "v" + i);
      r.flush();
    }
    List<List<String>> rows = scanAll(r, new Scan());
    FaultPoints.arm(RegionCompactor.FAULT_OUTPUT_WRITTEN, FaultPoints.THROW);
    assertThatThrownBy(() -> r.compact(true)).isInstanceOf(FaultPoints.InjectedFault.class);
    FaultPoints.disarmAll();
    assertThat(filesIn("data/t/r/f")).as("output and inputs side by side").isEqualTo(4);
    assertThat(scanAll(r, new Scan())).isEqualTo(rows);
    r.close();

    Region again = open();
    assertThat(again.getStoreFileCount()).isEqualTo(1);
    assertThat(filesIn("data/t/r/f")).isEqualTo(1);
    assertThat(scanAll(again, new Scan())).isEqualTo(rows);
    again.close();
  }

  @Test
  void aFailedFlushKeepsItsDataInMemoryAndALaterFlushWritesIt() throws IOException {
    Region r = open();
    put(r, "r", "q", 10, "v");
    FaultPoints.arm(RegionFlusher.FAULT_FILES_WRITTEN, FaultPoints.THROW);
    assertThatThrownBy(r::flush).isInstanceOf(FaultPoints.InjectedFault.class);
    FaultPoints.disarmAll();
    assertThat(filesIn("data/t/r/f")).as("the half-done flush's file was removed").isZero();
    assertThat(r.get(new Get(b("r"))).isEmpty()).isFalse();
    put(r, "r2", "q", 10, "v2");
    assertThat(r.flush()).isTrue();
    assertThat(scanAll(r, new Scan())).hasSize(2);
    assertThat(r.getMemstoreSize()).isZero();
    r.close();
  }

  @Test
  void aGetForAnAbsentRowReadsNoDataBlockWhenTheBloomFilterSaysNo() throws IOException {
    Region r = open(f -> f.setBloomFilterType(BloomType.ROW), Config.defaults());
    for (int i = 0; i < 2000; i++) {
      put(r, String.format("row%05d", i), "q", 10, "value-" + i);
    }
    r.flush();
    Store store = r.storeList().get(0);
    long before = store.view().files().get(0).reader().dataBlocksReadFromStorage();
    int absentRead = 0;
    for (int i = 0; i < 200; i++) {
      Result res = r.get(new Get(b(String.format("absent%05d", i))).addFamily(F));
      assertThat(res.isEmpty()).isTrue();
    }
    absentRead += (int) (store.view().files().get(0).reader().dataBlocksReadFromStorage() - before);
    // ~1% false positives may read a block each; far fewer than one per get.
    assertThat(absentRead).isLessThan(20);
    r.close();
  }

  /** Five files, each with a newer version of the same column than the one before. */
  private Region fiveFilesOfOneColumn(boolean withDeleteMarker) throws IOException {
    Region r = open(f -> f.setBlockCacheEnabled(false).setMaxVersions(5), Config.defaults());
    for (int i = 0; i < 5; i++) {
      put(r, "row", "q1", 100 + i, "v" + i);
      put(r, "row", "q2", 100 + i, "w" + i);
      put(r, "other", "q1", 100 + i, "x" + i);
      if (withDeleteMarker && i == 1) {
        r.delete(new Delete(b("row")).addColumns(F, b("q0"), 50));
      }
      r.flush();
    }
    assertThat(r.getStoreFileCount()).isEqualTo(5);
    return r;
  }

  @Test
  void aGetOfTheLatestVersionReadsOnlyTheNewestFileThatHoldsIt() throws IOException {
    Region r = fiveFilesOfOneColumn(false);
    long before = r.getDataBlocksReadFromStorage();
    Result res = r.get(new Get(b("row")).addColumn(F, b("q1")));
    assertThat(res.getValue(F, b("q1"))).isEqualTo(b("v4"));
    assertThat(r.getDataBlocksReadFromStorage() - before)
        .as("the older files' seeks are put off and never done")
        .isEqualTo(1);

    before = r.getDataBlocksReadFromStorage();
    res = r.get(new Get(b("row")).addColumn(F, b("q1")).addColumn(F, b("q2")));
    assertThat(res.getValue(F, b("q1"))).isEqualTo(b("v4"));
    assertThat(res.getValue(F, b("q2"))).isEqualTo(b("w4"));
    assertThat(r.getDataBlocksReadFromStorage() - before).isEqualTo(1);

    before = r.getDataBlocksReadFromStorage();
    res = r.get(new Get(b("row")).addColumn(F, b("q1")).readVersions(3));
    assertThat(res.getColumnCells(F, b("q1"))).hasSize(3);
    assertThat(r.getDataBlocksReadFromStorage() - before)
        .as("three versions: the three newest files")
        .isEqualTo(3);

    before = r.getDataBlocksReadFromStorage();
    assertThat(r.get(new Get(b("row")).addFamily(F)).getValue(F, b("q1"))).isEqualTo(b("v4"));
    assertThat(r.getDataBlocksReadFromStorage() - before)
        .as("a whole-family get must look for family markers in every file")
        .isEqualTo(5);
    r.close();
  }

  @Test
  void aFileWithDeleteMarkersIsAlwaysRead() throws IOException {
    Region r = fiveFilesOfOneColumn(true);
    long before = r.getDataBlocksReadFromStorage();
    Result res = r.get(new Get(b("row")).addColumn(F, b("q1")));
    assertThat(res.getValue(F, b("q1"))).isEqualTo(b("v4"));
    assertThat(r.getDataBlocksReadFromStorage() - before)
        .as("the newest file, and the file whose markers could mask the row")
        .isEqualTo(2);
    r.close();
  }

  /**
   * A region on the system clock (the wait needs real time) whose store has three files where
   * writes tolerate two, and no maintenance service to compact them.
   */
  private Region threeFilesOverALimitOfTwo(long blockingWaitMillis) throws IOException {
    Config config =
        Config.builder()
            .set(CompactionSettings.BLOCKING_FILES, 2)
            .set(CompactionSettings.BLOCKING_WAIT, blockingWaitMillis)
            .build();
    Region r = open(f -> f, config, Clock.system());
    for (int i = 0; i < 3; i++) {
      put(r, "r" + i, "q", 10, "v");
      r.flush();
    }
    return r;
  }

  @Test
  void writesWaitForCompactionsAndThenFailClearlyWhenAStoreHasTooManyFiles() throws IOException {
    Region r = threeFilesOverALimitOfTwo(200);
    // Nothing compacts: there is no maintenance service here.
    assertThatThrownBy(() -> put(r, "x", "q", 10, "v"))
        .isInstanceOf(RegionTooBusyException.class)
        .hasMessageContaining("hbase.hstore.blockingWaitTime");
    r.compact(false);
    put(r, "x", "q", 10, "v");
    r.close();
  }

  @Test
  void aGetThatMustNotWaitIsRefusedBeforeReadingStorageAndAWriteIsNot() throws Exception {
    Region r = open();
    put(r, "row", "q", 10, "v");
    r.put(new Put(b("counter")).addColumn(F, b("n"), Bytes.toBytes(1L)));
    r.flush();
    r.close();
    r = open(); // a new, empty block cache
    Region region = r;
    long reads = r.getReadRequestCount();
    assertThatThrownBy(() -> NoWait.attempt(() -> region.get(new Get(b("row")))))
        .isInstanceOf(NoWait.WouldWait.class)
        .hasMessageContaining("a read of");
    assertThat(r.getReadRequestCount()).isEqualTo(reads);
    // Where waiting is allowed the same get reads the block; then it is cached and no wait.
    assertThat(r.get(new Get(b("row"))).getValue(F, b("q"))).isEqualTo(b("v"));
    assertThat(NoWait.attempt(() -> region.get(new Get(b("row")))).getValue(F, b("q")))
        .isEqualTo(b("v"));
    assertThat(r.getReadRequestCount()).isEqualTo(reads + 2);
    r.close();
    // A write cannot be dropped half-way through, so its reads go ahead.
    Region reopened = open();
    Result after =
        NoWait.attempt(
            () -> reopened.increment(new Increment(b("counter")).addColumn(F, b("n"), 2)));
    assertThat(Bytes.toLong(after.getValue(F, b("n")))).isEqualTo(3L);
    reopened.close();
  }

  @Test
  void aWriteWaitingForCompactionsIsToldTheRegionClosedSoThatItRetriesElsewhere() throws Exception {
    Region r = threeFilesOverALimitOfTwo(60_000);
    CompletableFuture<Void> write =
        CompletableFuture.runAsync(
            () -> {
              try {
                put(r, "x", "q", 10, "v");
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    Thread.sleep(100); // the write is waiting for a compaction nobody runs
    r.close(); // a split or merge takes the region away
    assertThatThrownBy(() -> write.get(10, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(RegionClosedException.class);
  }
}
