package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.G;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.region;
import static dev.basalt.region.TestRegions.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.Filter;
import dev.basalt.ops.Put;
import dev.basalt.ops.Scan;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The filter contract as the scanner stack applies it: every return code, the seek hint, row-key
 * and whole-row filtering, transformation and early termination. The filters here are test-only;
 * the HBase catalogue comes with the filters issue.
 */
class RegionFilterHookTest {
  private final ManualClock clock = new ManualClock(1_000);
  private Region r;

  @BeforeEach
  void load() throws IOException {
    r = region(clock, f -> f.setMaxVersions(3));
    for (String row : new String[] {"a", "b", "c"}) {
      Put p = new Put(b(row));
      for (String q : new String[] {"q1", "q2", "q3", "q4"}) {
        p.addColumn(F, b(q), 1, b(row + q));
      }
      p.addColumn(G, b("z"), 1, b(row + "z"));
      r.put(p);
    }
    r.put(new Put(b("b")).addColumn(F, b("q1"), 2, b("bq1v2")));
  }

  /** A filter deciding per cell with a function; counts the cells it was shown. */
  private static final class CellFilter extends Filter {
    final Function<Cell, ReturnCode> decide;
    final List<String> seen = new ArrayList<>();
    Function<Cell, Cell> hint = c -> null;

    CellFilter(Function<Cell, ReturnCode> decide) {
      this.decide = decide;
    }

    @Override
    public ReturnCode filterCell(Cell c) {
      seen.add(TestRegions.describe(c));
      return decide.apply(c);
    }

    @Override
    public Cell getNextCellHint(Cell c) {
      return hint.apply(c);
    }
  }

  private static String q(Cell c) {
    return Bytes.toString(CellUtil.cloneQualifier(c));
  }

  @Test
  void skipAndIncludeAndNextCol() throws IOException {
    CellFilter f =
        new CellFilter(
            c ->
                q(c).equals("q2")
                    ? Filter.ReturnCode.SKIP
                    : Filter.ReturnCode.INCLUDE_AND_NEXT_COL);
    List<List<String>> res =
        scanAll(r, new Scan().addFamily(F).withStopRow(b("a"), true).setFilter(f));
    assertThat(res).containsExactly(List.of("a/f:q1@1=aq1", "a/f:q3@1=aq3", "a/f:q4@1=aq4"));
  }

  @Test
  void nextRowStopsTheRowAndTheRowStillCountsIfCellsWereIncluded() throws IOException {
    CellFilter f =
        new CellFilter(
            c -> q(c).equals("q2") ? Filter.ReturnCode.NEXT_ROW : Filter.ReturnCode.INCLUDE);
    List<List<String>> res = scanAll(r, new Scan().addFamily(F).setFilter(f));
    assertThat(res)
        .containsExactly(
            List.of("a/f:q1@1=aq1"), List.of("b/f:q1@2=bq1v2"), List.of("c/f:q1@1=cq1"));
    assertThat(f.seen).doesNotContain("a/f:q3@1=aq3");
  }

  @Test
  void seekHintSkipsTheCellsInBetween() throws IOException {
    CellFilter f =
        new CellFilter(
            c ->
                q(c).equals("q1")
                    ? Filter.ReturnCode.SEEK_NEXT_USING_HINT
                    : Filter.ReturnCode.INCLUDE);
    f.hint = c -> KeyValue.firstOnColumn(CellUtil.cloneRow(c), CellUtil.cloneFamily(c), b("q4"));
    List<List<String>> res = scanAll(r, new Scan().addFamily(F).setFilter(f));
    assertThat(res)
        .containsExactly(List.of("a/f:q4@1=aq4"), List.of("b/f:q4@1=bq4"), List.of("c/f:q4@1=cq4"));
    assertThat(f.seen).noneMatch(s -> s.contains(":q2@") || s.contains(":q3@"));
  }

  @Test
  void seekHintWorksInReversedScans() throws IOException {
    CellFilter f =
        new CellFilter(
            c ->
                q(c).equals("q1")
                    ? Filter.ReturnCode.SEEK_NEXT_USING_HINT
                    : Filter.ReturnCode.INCLUDE);
    f.hint = c -> KeyValue.firstOnColumn(CellUtil.cloneRow(c), CellUtil.cloneFamily(c), b("q4"));
    List<List<String>> res = scanAll(r, new Scan().addFamily(F).setReversed(true).setFilter(f));
    assertThat(res)
        .containsExactly(List.of("c/f:q4@1=cq4"), List.of("b/f:q4@1=bq4"), List.of("a/f:q4@1=aq4"));
    assertThat(f.isReversed()).isTrue();
  }

  @Test
  void versionsAreCountedBeforeTheFilter() throws IOException {
    // Reading 1 version: the filter is shown b's newest q1 only, and rejects it. HBase's
    // NEW_VERSION_BEHAVIOR families (Basalt's default) answer the same: no older version instead.
    CellFilter f =
        new CellFilter(
            c ->
                Bytes.toString(CellUtil.cloneValue(c)).equals("bq1v2")
                    ? Filter.ReturnCode.SKIP
                    : Filter.ReturnCode.INCLUDE);
    Scan oneRow = new Scan().addColumn(F, b("q1")).withStartRow(b("b")).withStopRow(b("b"), true);
    assertThat(scanAll(r, oneRow.setFilter(f))).isEmpty();
    assertThat(f.seen).containsExactly("b/f:q1@2=bq1v2");
  }

  @Test
  void classicFamiliesCountVersionsAgainAfterTheFilter() throws IOException {
    // HBase's classic rules: the filter sees the family's versions (up to VERSIONS); the read's
    // version limit then applies to those it let through, so the older q1 is returned instead.
    Region classic = region(clock, fam -> fam.setMaxVersions(3).setNewVersionBehavior(false));
    classic.put(new Put(b("b")).addColumn(F, b("q1"), 1, b("bq1")));
    classic.put(new Put(b("b")).addColumn(F, b("q1"), 2, b("bq1v2")));
    CellFilter f =
        new CellFilter(
            c ->
                Bytes.toString(CellUtil.cloneValue(c)).equals("bq1v2")
                    ? Filter.ReturnCode.SKIP
                    : Filter.ReturnCode.INCLUDE);
    assertThat(scanAll(classic, new Scan().addColumn(F, b("q1")).setFilter(f)))
        .containsExactly(List.of("b/f:q1@1=bq1"));
  }

  @Test
  void rowKeyFilterDropsRowsBeforeTheirCellsAreRead() throws IOException {
    List<String> shown = new ArrayList<>();
    Filter f =
        new Filter() {
          @Override
          public boolean filterRowKey(Cell first) {
            return Bytes.toString(CellUtil.cloneRow(first)).equals("b");
          }

          @Override
          public ReturnCode filterCell(Cell c) {
            shown.add(TestRegions.describe(c));
            return ReturnCode.INCLUDE;
          }
        };
    List<List<String>> res = scanAll(r, new Scan().addFamily(G).setFilter(f));
    assertThat(res).containsExactly(List.of("a/g:z@1=az"), List.of("c/g:z@1=cz"));
    assertThat(shown).noneMatch(s -> s.startsWith("b/"));
  }

  @Test
  void wholeRowFilteringAndTransformation() throws IOException {
    Filter f =
        new Filter() {
          private int cells;

          @Override
          public void reset() {
            cells = 0;
          }

          @Override
          public ReturnCode filterCell(Cell c) {
            cells++;
            return ReturnCode.INCLUDE;
          }

          @Override
          public Cell transformCell(Cell c) {
            return KeyValue.of(
                CellUtil.cloneRow(c),
                CellUtil.cloneFamily(c),
                CellUtil.cloneQualifier(c),
                c.getTimestamp(),
                c.getType(),
                b("T"));
          }

          @Override
          public boolean hasFilterRow() {
            return true;
          }

          @Override
          public void filterRowCells(List<Cell> row) {
            row.removeIf(c -> q(c).equals("z"));
          }

          @Override
          public boolean filterRow() {
            return cells != 5; // only rows with exactly 5 cells survive (all do)
          }
        };
    List<List<String>> res = scanAll(r, new Scan().withStopRow(b("a"), true).setFilter(f));
    assertThat(res)
        .containsExactly(List.of("a/f:q1@1=T", "a/f:q2@1=T", "a/f:q3@1=T", "a/f:q4@1=T"));
    assertThatThrownBy(() -> r.getScanner(new Scan().setBatch(2).setFilter(f)))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("batch");
  }

  @Test
  void filterAllRemainingEndsTheScan() throws IOException {
    Filter f =
        new Filter() {
          private int rows;

          @Override
          public boolean filterRowKey(Cell first) {
            rows++;
            return false;
          }

          @Override
          public boolean filterAllRemaining() {
            return rows >= 2;
          }
        };
    assertThat(scanAll(r, new Scan().addFamily(G).setFilter(f))).hasSize(1);
  }
}
