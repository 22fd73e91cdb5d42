package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Scan;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region that scanners read asks for a flush once many cells stack up as versions of the same
 * columns; gets alone do not make it ask.
 */
class DeepVersionsFlushTest {
  @TempDir Path dir;

  private static Config config(long deep) {
    return Config.builder()
        .set(RegionSettings.FLUSH_SIZE, 1024L * 1024)
        .set(RegionSettings.DEEP_VERSIONS_FLUSH, deep)
        .set(RegionSettings.SCANNED_MEMSTORE_FLUSH, 0.0) // its own test
        .build();
  }

  private static Region region(long deep) {
    return Region.inMemory(
        TestRegions.table(f -> f.setMaxVersions(1)),
        RegionServices.of(Clock.system(), config(deep), EditLog.NONE));
  }

  /** Scans the whole region until scanners have returned at least {@code rows} rows. */
  private static void scanRows(Region r, long rows) throws Exception {
    long seen = 0;
    while (seen < rows) {
      long before = seen;
      seen += TestRegions.scanAll(r, new Scan()).size();
      assertThat(seen).isGreaterThan(before);
    }
  }

  private static void stack(Region r, int versions) throws Exception {
    for (int i = 0; i < versions; i++) {
      r.put(new Put(b("hot")).addColumn(F, b("q"), b("v" + i)));
    }
  }

  /** Enough distinct cells to pass a sixteenth of the 1 MiB flush size. */
  private static void base(Region r) throws Exception {
    for (int i = 0; i < 400; i++) {
      r.put(new Put(b(String.format("row%04d", i))).addColumn(F, b("q"), new byte[200]));
    }
  }

  @Test
  void versionsStackedOnOneColumnAskForAFlush() throws Exception {
    Region r = region(100);
    base(r);
    scanRows(r, RegionSettings.DEEP_FLUSH_SCANNED_ROWS);
    assertThat(r.needsFlush()).isFalse();
    // The first 4 versions of a column are not deep; every one after them is.
    stack(r, 4 + 99);
    assertThat(r.needsFlush()).isFalse();
    r.put(new Put(b("hot")).addColumn(F, b("q"), b("last")));
    assertThat(r.needsFlush()).isTrue();
  }

  @Test
  void stackedVersionsOfARegionOnlyGetsReadDoNotUntilScannersReadIt() throws Exception {
    Region r = region(100);
    base(r);
    stack(r, 300);
    for (int i = 0; i < 2000; i++) {
      r.get(new Get(b(String.format("row%04d", i % 400))));
      r.get(new Get(b("hot")));
    }
    assertThat(r.needsFlush()).isFalse();
    scanRows(r, RegionSettings.DEEP_FLUSH_SCANNED_ROWS - 401); // the scan reads 401 rows a time
    assertThat(r.needsFlush()).isFalse();
    scanRows(r, 401);
    assertThat(r.needsFlush()).isTrue();
    // The rows each scanner returned count as read requests, as they always did.
    assertThat(r.getReadRequestCount()).isEqualTo(4000 + 3 * 401);
  }

  @Test
  void scansBeforeAFlushDoNotCountAfterIt() throws Exception {
    Region r =
        TestRegions.onDisk(
            dir, TestRegions.table(f -> f.setMaxVersions(1)), config(100), Clock.system());
    base(r);
    scanRows(r, RegionSettings.DEEP_FLUSH_SCANNED_ROWS);
    assertThat(r.flush()).isTrue();
    base(r);
    stack(r, 300);
    assertThat(r.needsFlush()).isFalse();
    scanRows(r, RegionSettings.DEEP_FLUSH_SCANNED_ROWS);
    assertThat(r.needsFlush()).isTrue();
    r.close(false);
  }

  @Test
  void manyColumnsWithAFewVersionsEachDoNot() throws Exception {
    Region r = region(100);
    base(r);
    scanRows(r, RegionSettings.DEEP_FLUSH_SCANNED_ROWS);
    for (int v = 0; v < 3; v++) { // 4 versions per column: the newest has 3 older ones
      for (int i = 0; i < 400; i++) {
        r.put(new Put(b(String.format("row%04d", i))).addColumn(F, b("q"), b("v" + v)));
      }
    }
    assertThat(r.needsFlush()).isFalse();
  }

  @Test
  void rowsSharingTheirFirst16BytesAreDifferentColumns() throws Exception {
    Region r = region(10);
    base(r);
    scanRows(r, RegionSettings.DEEP_FLUSH_SCANNED_ROWS);
    for (int i = 0; i < 50; i++) {
      // One version per row; the rows differ only after byte 16.
      r.put(new Put(b("user000000000000" + (char) ('A' + i))).addColumn(F, b("q"), b("v")));
    }
    assertThat(r.needsFlush()).isFalse();
  }

  @Test
  void aSmallMemstoreOrZeroTurnsItOff() throws Exception {
    Region small = region(10);
    stack(small, 200);
    scanRows(small, RegionSettings.DEEP_FLUSH_SCANNED_ROWS);
    assertThat(small.needsFlush()).isFalse(); // under a sixteenth of the flush size
    Region off = region(0);
    base(off);
    stack(off, 200);
    scanRows(off, RegionSettings.DEEP_FLUSH_SCANNED_ROWS);
    assertThat(off.needsFlush()).isFalse();
  }
}
