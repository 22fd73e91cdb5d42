package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.G;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.cells;
import static dev.basalt.region.TestRegions.region;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.filter.CompareOperator;
import dev.basalt.filter.SingleColumnValueFilter;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link RegionScanner#next(long, long)}: rows cut into parts where the cells reach the size limit,
 * each part flagged exactly, and nothing lost or repeated.
 */
class RegionScannerSizeLimitTest {

  /** One put: row, family (0 = f, 1 = g), qualifier, value length, timestamp. */
  record Write(int row, int family, int qualifier, int valueLength, long ts) {}

  @Provide
  Arbitrary<List<Write>> writes() {
    return net.jqwik.api.Combinators.combine(
            Arbitraries.integers().between(0, 5),
            Arbitraries.integers().between(0, 1),
            Arbitraries.integers().between(0, 9),
            Arbitraries.integers().between(0, 300),
            Arbitraries.longs().between(1, 4))
        .as(Write::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(60);
  }

  @Property(tries = 300)
  void partsPutBackTogetherAreTheRowsAndEachPartStopsAtTheLimit(
      @ForAll("writes") List<Write> writes,
      @ForAll @IntRange(min = 1, max = 2_000) int maxBytes,
      @ForAll @IntRange(min = 0, max = 4) int batch,
      @ForAll boolean reversed)
      throws IOException {
    Region r = load(writes);
    Scan scan = new Scan().setReversed(reversed).setBatch(batch > 0 ? batch : -1).readVersions(2);
    List<Result> plain = new ArrayList<>();
    try (RegionScanner s = r.getScanner(scan)) {
      for (Result x = s.next(); x != null; x = s.next()) {
        plain.add(x);
      }
    }
    List<Result> parts = new ArrayList<>();
    try (RegionScanner s = r.getScanner(scan)) {
      for (Result x = s.next(0, maxBytes); x != null; x = s.next(0, maxBytes)) {
        parts.add(x);
      }
    }
    assertThat(rows(parts)).isEqualTo(rows(plain));
    for (int i = 0; i < parts.size(); i++) {
      Result part = parts.get(i);
      assertThat(part.size()).as("a part holds a cell").isPositive();
      if (batch > 0) {
        assertThat(part.size()).isLessThanOrEqualTo(batch);
      }
      long beforeLast = 0;
      for (int c = 0; c < part.size() - 1; c++) {
        beforeLast += CellUtil.serializedSize(part.cellAt(c));
      }
      assertThat(beforeLast)
          .as("the limit is reached only by a part's last cell")
          .isLessThan(maxBytes);
      boolean rowGoesOn =
          i + 1 < parts.size() && CellUtil.matchingRows(parts.get(i + 1).cellAt(0), part.cellAt(0));
      assertThat(part.mayHaveMoreCellsInRow())
          .as("part %d flagged exactly", i)
          .isEqualTo(rowGoesOn);
    }
  }

  @Test
  void aWideRowComesInPartsOfAboutTheLimit() throws IOException {
    Region r = regionWithWideRow(100);
    r.put(new Put(b("x")).addColumn(G, b("a"), b("v")));
    List<List<String>> parts = new ArrayList<>();
    List<Boolean> flags = new ArrayList<>();
    try (RegionScanner s = r.getScanner(new Scan())) {
      for (Result x = s.next(0, 10_000); x != null; x = s.next(0, 10_000)) {
        parts.add(cells(x));
        flags.add(x.mayHaveMoreCellsInRow());
      }
    }
    // 1,000-byte values make cells of 1,029 bytes: the tenth reaches 10,000.
    assertThat(parts).hasSize(11);
    assertThat(parts.subList(0, 10)).allSatisfy(part -> assertThat(part).hasSize(10));
    assertThat(parts.get(10)).containsExactly("x/g:a@1000=v");
    assertThat(flags)
        .containsExactly(true, true, true, true, true, true, true, true, true, false, false);
  }

  @Test
  void rowsAFilterJudgesWholeAreNotCut() throws IOException {
    Region r = regionWithWideRow(50);
    Scan scan =
        new Scan()
            .setFilter(
                new SingleColumnValueFilter(F, b("q000"), CompareOperator.EQUAL, new byte[1_000]));
    List<Result> results = new ArrayList<>();
    try (RegionScanner s = r.getScanner(scan)) {
      for (Result x = s.next(0, 5_000); x != null; x = s.next(0, 5_000)) {
        results.add(x);
      }
    }
    assertThat(results).hasSize(1);
    assertThat(results.get(0).size()).isEqualTo(50);
    assertThat(results.get(0).mayHaveMoreCellsInRow()).isFalse();
  }

  /** A region holding row "wide" with {@code columns} columns q000.. of 1,000-byte values. */
  private static Region regionWithWideRow(int columns) throws IOException {
    Region r = region(new ManualClock(1_000), f -> f);
    Put p = new Put(b("wide"));
    for (int q = 0; q < columns; q++) {
      p.addColumn(F, b(String.format("q%03d", q)), new byte[1_000]);
    }
    r.put(p);
    return r;
  }

  private static Region load(List<Write> writes) throws IOException {
    Region r = region(new ManualClock(1_000), f -> f.setMaxVersions(3));
    for (Write w : writes) {
      r.put(
          new Put(b("r" + w.row()))
              .addColumn(
                  w.family() == 0 ? F : G,
                  b("q" + w.qualifier()),
                  w.ts(),
                  new byte[w.valueLength()]));
    }
    return r;
  }

  /**
   * The results with each row's parts put back together, each rendered by {@link
   * TestRegions#cells}.
   */
  private static List<List<String>> rows(List<Result> results) {
    List<List<String>> out = new ArrayList<>();
    Cell previous = null;
    for (Result x : results) {
      if (previous != null && CellUtil.matchingRows(previous, x.cellAt(0))) {
        out.get(out.size() - 1).addAll(cells(x));
      } else {
        out.add(new ArrayList<>(cells(x)));
      }
      previous = x.cellAt(0);
    }
    return out;
  }
}
