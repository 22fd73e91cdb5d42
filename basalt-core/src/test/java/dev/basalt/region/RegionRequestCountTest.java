package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.G;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.region;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Scan;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A region counts the requests it serves itself, whoever calls it: the database's tables and the
 * region server (which reaches regions directly) alike. The region server's figures were all zero
 * while only the database's table handles counted.
 */
class RegionRequestCountTest {
  private final ManualClock clock = new ManualClock(1_000);

  @Test
  void writesCountEveryOperationOfEveryBatch() throws IOException {
    Region r = region(clock, f -> f);
    assertThat(r.getWriteRequestCount()).isZero();
    r.put(new Put(b("a")).addColumn(F, b("q"), b("1")));
    r.delete(new Delete(b("x")));
    r.batchMutate(
        List.of(
            new Put(b("b")).addColumn(F, b("q"), b("1")),
            new Put(b("c")).addColumn(F, b("q"), b("1")),
            new Increment(b("n")).addColumn(F, b("c"), 1)));
    r.checkAndMutate(
        CheckAndMutate.newBuilder(b("a"))
            .ifEquals(F, b("q"), b("1"))
            .build(new Put(b("a")).addColumn(F, b("q"), b("2"))));
    assertThat(r.getWriteRequestCount()).isEqualTo(6);
    assertThat(r.getReadRequestCount())
        .as("the reads inside increments and conditions are not requests")
        .isZero();
  }

  @Test
  void readsCountGetsAndScannedRowsOnce() throws IOException {
    Region r = region(clock, f -> f);
    for (String row : new String[] {"a", "b", "c"}) {
      r.put(
          new Put(b(row))
              .addColumn(F, b("x"), b("1"))
              .addColumn(F, b("y"), b("1"))
              .addColumn(G, b("z"), b("1")));
    }
    r.get(new Get(b("a")));
    r.get(new Get(b("missing")));
    assertThat(r.getReadRequestCount()).isEqualTo(2);

    Scan sliced = new Scan();
    sliced.setBatch(1);
    int slices = 0;
    try (RegionScanner s = r.getScanner(sliced)) {
      while (s.next() != null) {
        slices++;
      }
    }
    assertThat(slices).isEqualTo(9);
    assertThat(r.getReadRequestCount()).as("three rows, however sliced").isEqualTo(5);

    try (ReadPointPin pin = r.pinReadPoint();
        RegionScanner s = r.getScanner(new Scan(), pin)) {
      s.next();
    }
    assertThat(r.getReadRequestCount()).isEqualTo(6);
  }
}
