package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.cells;
import static dev.basalt.region.TestRegions.region;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.filter.BinaryComparator;
import dev.basalt.filter.CompareOperator;
import dev.basalt.filter.ValueFilter;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RegionScanner#next(long)}: gives up between rows, and loses or repeats nothing. */
class RegionScannerDeadlineTest {
  @Test
  void aPassedDeadlineYieldsBetweenRowsAndTheScanStillSeesEveryRowOnce() throws IOException {
    Region r = region(new ManualClock(1_000), f -> f.setMaxVersions(3));
    for (int i = 0; i < 50; i++) {
      String v = i % 7 == 0 ? "keep" : "drop";
      r.put(
          new Put(b(String.format("r%02d", i)))
              .addColumn(F, b("a"), b(v))
              .addColumn(F, b("b"), b(v)));
    }
    for (boolean reversed : new boolean[] {false, true}) {
      List<List<String>> plain = new ArrayList<>();
      try (RegionScanner s = r.getScanner(scan(reversed))) {
        for (Result x = s.next(); x != null; x = s.next()) {
          plain.add(cells(x));
        }
      }
      List<List<String>> hurried = new ArrayList<>();
      int yields = 0;
      try (RegionScanner s = r.getScanner(scan(reversed))) {
        for (Result x = s.next(System.nanoTime()); x != null; x = s.next(System.nanoTime())) {
          if (x == RegionScanner.NO_ROW_YET) {
            yields++;
          } else {
            hurried.add(cells(x));
          }
        }
      }
      assertThat(plain).as("8 rows in slices of one cell").hasSize(16);
      assertThat(hurried).isEqualTo(plain);
      assertThat(yields).as("one per rejected row at most, and some").isBetween(1, 42);
    }
  }

  private static Scan scan(boolean reversed) {
    return new Scan()
        .setReversed(reversed)
        .setBatch(1)
        .setFilter(new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("keep"))));
  }
}
