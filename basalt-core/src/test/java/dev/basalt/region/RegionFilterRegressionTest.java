package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.region;
import static dev.basalt.region.TestRegions.scanAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.filter.BinaryComparator;
import dev.basalt.filter.ColumnCountGetFilter;
import dev.basalt.filter.ColumnPaginationFilter;
import dev.basalt.filter.ColumnPrefixFilter;
import dev.basalt.filter.CompareOperator;
import dev.basalt.filter.FilterList;
import dev.basalt.filter.PageFilter;
import dev.basalt.filter.ValueFilter;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Scan;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regressions: filters of the HBase catalogue that the scanner stack (scan/, region/) once
 * mishandled — versions escaping the count after a filter, column skips and hints inside the
 * empty-qualifier column (where family markers live), and whole-row filtering of emptied rows.
 */
class RegionFilterRegressionTest {
  private final ManualClock clock = new ManualClock(1_000);

  /**
   * QueryMatcher.mergeFilterResponse counts versions again after the filter only when the merged
   * code is a plain INCLUDE. With a filter the version tracker is limited by the family's VERSIONS
   * (not the read's), and answers INCLUDE_AND_SEEK_NEXT_COL at the family's last version (or
   * INCLUDE_AND_SEEK_NEXT_ROW after the last requested column): that version then escapes the count
   * and the read returns more versions than it asked for.
   */
  @Test
  void theFamilysLastVersionIsCountedAfterTheFilterToo() throws IOException {
    Region r = region(clock, f -> f.setMaxVersions(2));
    r.put(new Put(b("r")).addColumn(F, b("q"), 1, b("old")));
    r.put(new Put(b("r")).addColumn(F, b("q"), 2, b("new")));
    ValueFilter any = new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("x")));
    assertThat(scanAll(r, new Scan().addFamily(F).setFilter(any)))
        .containsExactly(List.of("r/f:q@2=new"));
    ValueFilter again = new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("x")));
    assertThat(TestRegions.cells(r.get(new Get(b("r")).addColumn(F, b("q")).setFilter(again))))
        .containsExactly("r/f:q@2=new");
  }

  /**
   * Inside the empty-qualifier column QueryMatcher.adjustSeek turns column seeks into plain steps
   * (family delete markers live there). For the filter's INCLUDE_AND_NEXT_COL that step shows the
   * column's next version to the filter as if it were a new column, so a page of two columns
   * returns two versions of the empty-qualifier column instead of two columns.
   */
  @Test
  void aFiltersNextColumnHoldsInTheEmptyQualifierColumn() throws IOException {
    Region r = region(clock, f -> f.setMaxVersions(3));
    r.put(new Put(b("r")).addColumn(F, b(""), 1, b("e1")));
    r.put(new Put(b("r")).addColumn(F, b(""), 2, b("e2")));
    r.put(new Put(b("r")).addColumn(F, b("a"), 1, b("a1")));
    assertThat(scanAll(r, new Scan().addFamily(F).setFilter(new ColumnPaginationFilter(2, 0))))
        .containsExactly(List.of("r/f:@2=e2", "r/f:a@1=a1"));
    assertThat(
            TestRegions.cells(
                r.get(new Get(b("r")).addFamily(F).setFilter(new ColumnCountGetFilter(2)))))
        .containsExactly("r/f:@2=e2", "r/f:a@1=a1");
  }

  /**
   * A seek hint given at a cell of the empty-qualifier column goes straight to its target, past the
   * family delete markers that sort later in that column (older timestamps). The version tracker
   * never sees them, so the cells they delete come back. adjustSeek guards column seeks there, not
   * SEEK_NEXT_USING_HINT.
   */
  @Test
  void aHintFromTheEmptyQualifierColumnKeepsFamilyDeletes() throws IOException {
    Region r = region(clock, f -> f.setMaxVersions(3));
    r.put(new Put(b("r")).addColumn(F, b("b"), 3, b("deleted")));
    r.delete(new Delete(b("r")).addFamily(F, 5));
    r.put(new Put(b("r")).addColumn(F, b(""), 10, b("kept")));
    assertThat(scanAll(r, new Scan().addFamily(F))).containsExactly(List.of("r/f:@10=kept"));
    assertThat(scanAll(r, new Scan().addFamily(F).setFilter(new ColumnPrefixFilter(b("b")))))
        .isEmpty();
    assertThat(
            scanAll(
                r,
                new Scan()
                    .addFamily(F)
                    .setReversed(true)
                    .setFilter(new ColumnPrefixFilter(b("b")))))
        .isEmpty();
  }

  /**
   * RegionScannerImpl calls filterRow() for every row, even one left without cells. HBase calls it
   * only for rows with cells (FilterWrapper.filterRowCellsWithRet), so a PageFilter counts returned
   * rows; here it also counts rows whose cells an earlier filter dropped, and the page comes back
   * short.
   */
  @Test
  void rowsWithoutCellsDoNotCountForAPage() throws IOException {
    Region r = region(clock, f -> f);
    for (String[] rv : new String[][] {{"a", "y"}, {"b", "x"}, {"c", "x"}, {"d", "x"}}) {
      r.put(new Put(b(rv[0])).addColumn(F, b("q"), 1, b(rv[1])));
    }
    FilterList f =
        new FilterList(
            new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("x"))),
            new PageFilter(2));
    assertThat(scanAll(r, new Scan().addFamily(F).setFilter(f)))
        .containsExactly(List.of("b/f:q@1=x"), List.of("c/f:q@1=x"));
  }
}
