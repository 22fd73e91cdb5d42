package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.ops.Put;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import org.junit.jupiter.api.Test;

/** A region asks for a flush once many cells stack up as versions of the same columns. */
class DeepVersionsFlushTest {
  private static Region region(long deep) {
    return Region.inMemory(
        TestRegions.table(f -> f.setMaxVersions(1)),
        RegionServices.of(
            Clock.system(),
            Config.builder()
                .set(RegionSettings.FLUSH_SIZE, 1024L * 1024)
                .set(RegionSettings.DEEP_VERSIONS_FLUSH, deep)
                .build(),
            EditLog.NONE));
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
    assertThat(r.needsFlush()).isFalse();
    // The first 4 versions of a column are not deep; every one after them is.
    for (int i = 0; i < 4 + 99; i++) {
      r.put(new Put(b("hot")).addColumn(F, b("q"), b("v" + i)));
    }
    assertThat(r.needsFlush()).isFalse();
    r.put(new Put(b("hot")).addColumn(F, b("q"), b("last")));
    assertThat(r.needsFlush()).isTrue();
  }

  @Test
  void manyColumnsWithAFewVersionsEachDoNot() throws Exception {
    Region r = region(100);
    base(r);
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
    for (int i = 0; i < 50; i++) {
      // One version per row; the rows differ only after byte 16.
      r.put(new Put(b("user000000000000" + (char) ('A' + i))).addColumn(F, b("q"), b("v")));
    }
    assertThat(r.needsFlush()).isFalse();
  }

  @Test
  void aSmallMemstoreOrZeroTurnsItOff() throws Exception {
    Region small = region(10);
    for (int i = 0; i < 200; i++) {
      small.put(new Put(b("hot")).addColumn(F, b("q"), b("v" + i)));
    }
    assertThat(small.needsFlush()).isFalse(); // under a sixteenth of the flush size
    Region off = region(0);
    base(off);
    for (int i = 0; i < 200; i++) {
      off.put(new Put(b("hot")).addColumn(F, b("q"), b("v" + i)));
    }
    assertThat(off.needsFlush()).isFalse();
  }
}
