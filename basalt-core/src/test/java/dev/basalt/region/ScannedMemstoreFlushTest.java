package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region whose scanners have returned, since its last flush, some multiple of the cells it holds
 * (memstore and files) asks for a flush, and asks as a scanner closes (a region only scans read
 * gets no write to ask after).
 */
class ScannedMemstoreFlushTest {
  @TempDir Path dir;

  /** Flush requests the region made. */
  private final AtomicInteger requests = new AtomicInteger();

  private final MaintenanceRequests recorder =
      new MaintenanceRequests() {
        @Override
        public void requestFlush(Region region) {
          requests.incrementAndGet();
        }

        @Override
        public void requestCompaction(Region region) {}
      };

  private static Config config(double times) {
    return Config.builder()
        .set(RegionSettings.FLUSH_SIZE, 1024L * 1024)
        .set(RegionSettings.DEEP_VERSIONS_FLUSH, 0L)
        .set(RegionSettings.SCANNED_MEMSTORE_FLUSH, times)
        .build();
  }

  private Region region(double times) {
    return Region.inMemory(
        TestRegions.table(f -> f),
        RegionServices.of(Clock.system(), config(times), EditLog.NONE, null, recorder));
  }

  /**
   * {@code rows} rows of {@code cellsPerRow} cells of 200 bytes (400 rows of one cell pass a
   * sixteenth of the 1 MiB flush size).
   */
  private static void write(Region r, String prefix, int rows, int cellsPerRow) throws Exception {
    for (int i = 0; i < rows; i++) {
      Put p = new Put(b(String.format("%s%04d", prefix, i)));
      for (int c = 0; c < cellsPerRow; c++) {
        p.addColumn(F, b("q" + c), new byte[200]);
      }
      r.put(p);
    }
  }

  /** Scans the whole region {@code times} times. */
  private static void scanWhole(Region r, int times) throws Exception {
    for (int i = 0; i < times; i++) {
      scanOnce(r, new Scan());
    }
  }

  /** Scans the whole region once; returns the rows read. */
  private static int scanOnce(Region r, Scan scan) throws Exception {
    return TestRegions.scanAll(r, scan).size();
  }

  @Test
  void scansThatReadTheMemstoreOftenEnoughAskForAFlushAsTheyClose() throws Exception {
    Region r = region(3.5); // 400 cells: asks once scans returned 1,400
    write(r, "row", 400, 1);
    for (int i = 0; i < 3; i++) {
      assertThat(scanOnce(r, new Scan())).isEqualTo(400);
    }
    assertThat(r.needsFlush()).isFalse(); // 1,200 cells
    assertThat(requests).hasValue(0);
    scanOnce(r, new Scan());
    assertThat(r.needsFlush()).isTrue(); // 1,600 cells
    assertThat(requests).hasValue(1); // asked by the scanner's close: no write came after it
  }

  @Test
  void theThresholdGrowsWithTheMemstore() throws Exception {
    Region r = region(1.0);
    write(r, "row", 400, 1);
    scanWhole(r, 3);
    assertThat(r.needsFlush()).isTrue(); // 1,200 cells scanned, 400 held
    write(r, "more", 400, 3); // 1,600 cells held now
    assertThat(r.needsFlush()).isFalse();
    scanOnce(r, new Scan()); // 800 rows, 1,600 cells more
    assertThat(r.needsFlush()).isTrue();
  }

  @Test
  void cellsOfEveryPartCountButTheRowOnlyOnce() throws Exception {
    Region r = region(5.0);
    write(r, "row", 100, 10); // 1,000 cells in 100 rows: asks once scans returned 5,000 cells
    // In parts of 3 cells, 4 parts a row: a scan returns 100 rows, 1,000 cells in 400 parts.
    for (int i = 0; i < 9; i++) {
      assertThat(scanOnce(r, new Scan().setBatch(3))).isEqualTo(400);
    }
    assertThat(r.needsFlush()).isFalse(); // 9,000 cells, but 900 rows are under the floor
    scanOnce(r, new Scan().setBatch(3));
    assertThat(r.needsFlush()).isTrue(); // 1,000 rows
  }

  @Test
  void itIsCellsThatCountNotRows() throws Exception {
    Region r = region(5.0);
    write(r, "row", 400, 1); // 400 cells: 2,000 to read
    write(r, "wide", 40, 40); // and 1,600 more in 40 rows: 10,000 to read
    for (int i = 0; i < 3; i++) {
      assertThat(scanOnce(r, new Scan())).isEqualTo(440);
    }
    assertThat(r.needsFlush()).isFalse(); // 1,320 rows, 6,000 cells
    for (int i = 0; i < 2; i++) {
      assertThat(scanOnce(r, new Scan().withStartRow(b("wide")))).isEqualTo(40);
    }
    assertThat(r.needsFlush()).isFalse(); // 9,200 cells
    scanOnce(r, new Scan().withStartRow(b("wide")));
    assertThat(r.needsFlush()).isTrue(); // 10,800 cells (in 1,440 rows)
  }

  @Test
  void getsDoNotCount() throws Exception {
    Region r = region(0.5);
    write(r, "row", 400, 1);
    for (int i = 0; i < 4000; i++) {
      Result got = r.get(new Get(b(String.format("row%04d", i % 400))));
      assertThat(got.isEmpty()).isFalse();
    }
    assertThat(r.needsFlush()).isFalse();
    assertThat(requests).hasValue(0);
  }

  @Test
  void aScannerThatReturnedNothingDoesNotAsk() throws Exception {
    Region r = region(1.0);
    write(r, "row", 400, 1);
    scanWhole(r, 3);
    assertThat(requests).hasValue(1); // the third scan passed the floor of 1,000 rows
    assertThat(scanOnce(r, new Scan().withStartRow(b("zzz")))).isZero();
    assertThat(requests).hasValue(1);
  }

  @Test
  void aSmallMemstoreOrZeroTurnsItOff() throws Exception {
    Region small = region(1.0);
    write(small, "row", 100, 1); // under a sixteenth of the flush size
    scanWhole(small, 20);
    assertThat(small.needsFlush()).isFalse();
    Region off = region(0);
    write(off, "row", 400, 1);
    scanWhole(off, 10);
    assertThat(off.needsFlush()).isFalse();
    assertThat(requests).hasValue(0);
  }

  @Test
  void scansBeforeAFlushDoNotCountAfterItAndFilesCountInWhatTheRegionHolds() throws Exception {
    Region r = TestRegions.onDisk(dir, TestRegions.table(f -> f), config(2.5), Clock.system());
    write(r, "row", 400, 1);
    scanWhole(r, 3);
    assertThat(r.needsFlush()).isTrue(); // 1,200 cells scanned, 400 held
    assertThat(r.flush()).isTrue();
    assertThat(r.needsFlush()).isFalse();
    write(r, "new", 400, 1);
    assertThat(r.needsFlush()).isFalse(); // the scans before the flush no longer count
    // 800 rows and cells a scan; the region holds 800 cells (400 in its file): 2,000 to read.
    scanWhole(r, 2);
    assertThat(r.needsFlush()).isFalse();
    scanOnce(r, new Scan());
    assertThat(r.needsFlush()).isTrue();
    r.close(false);
  }
}
