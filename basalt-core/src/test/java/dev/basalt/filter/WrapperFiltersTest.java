package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.reversed;
import static dev.basalt.filter.Fixture.scan;
import static dev.basalt.filter.Fixture.scanReversed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SkipFilter and WhileMatchFilter. */
class WrapperFiltersTest {
  private Region r;

  @BeforeEach
  void load() throws IOException {
    r = Fixture.memory(1);
    put(r, "a/f:w1@1=5", "a/f:w2@1=7");
    put(r, "b/f:w1@1=0", "b/f:w2@1=3");
    put(r, "c/f:w1@1=4", "c/f:w2@1=x", "c/g:w3@1=x");
    put(r, "d/f:w1@1=2", "d/f:w2@1=0");
    put(r, "e/f:w1@1=1", "e/f:w2@1=1");
  }

  private static List<String> keys(List<String> results) {
    List<String> out = new ArrayList<>();
    for (String s : results) {
      out.add(s.substring(0, s.indexOf(' ')));
    }
    return out;
  }

  @Test
  void skipFilterDropsRowsWithAnyFailingCell() throws IOException {
    List<String> fwd =
        scan(
            r,
            new SkipFilter(
                new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("0")))));
    assertThat(fwd)
        .containsExactly(
            "a f:w1@1=5 f:w2@1=7", "c f:w1@1=4 f:w2@1=x g:w3@1=x", "e f:w1@1=1 f:w2@1=1");
    assertThat(
            scanReversed(
                r,
                new SkipFilter(
                    new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("0"))))))
        .isEqualTo(reversed(fwd));
    // Without the wrapper only the failing cells go.
    assertThat(scan(r, new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("0")))))
        .hasSize(5);
  }

  @Test
  void skipFilterPassesRowKeysDirectionAndHintsToTheWrappedFilter() throws IOException {
    assertThat(keys(scan(r, new SkipFilter(new PrefixFilter(b("c")))))).containsExactly("c");
    assertThat(keys(scanReversed(r, new SkipFilter(new PrefixFilter(b("c"))))))
        .containsExactly("c");
    // A column filter that seeks: a row keeps only if every cell it shows passes.
    assertThat(keys(scan(r, new SkipFilter(new ColumnPrefixFilter(b("w")))))).hasSize(5);
    assertThat(keys(scan(r, new SkipFilter(new ColumnPrefixFilter(b("w2")))))).isEmpty();
    assertThat(
            keys(
                scan(
                    r,
                    new SkipFilter(
                        new RowFilter(CompareOperator.EQUAL, new BinaryComparator(b("d")))))))
        .containsExactly("d");
    SingleColumnValueFilter needsW3 =
        new SingleColumnValueFilter(Fixture.G, b("w3"), CompareOperator.EQUAL, b("x"));
    needsW3.setFilterIfMissing(true);
    assertThat(keys(scan(r, new SkipFilter(needsW3)))).containsExactly("c");
    SkipFilter f = new SkipFilter(new KeyOnlyFilter());
    assertThat(scan(r, new Scan().withStopRow(b("a"), true).setFilter(f)))
        .containsExactly("a f:w1@1= f:w2@1=");
    assertThat(f.getFilter()).isInstanceOf(KeyOnlyFilter.class);
    assertThatThrownBy(() -> new SkipFilter(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                r.getScanner(new Scan().setBatch(1).setFilter(new SkipFilter(new KeyOnlyFilter()))))
        .hasMessageContaining("batch");
  }

  @Test
  void whileMatchEndsTheScanAtTheFirstRejectedRow() throws IOException {
    Spy spy =
        new Spy(
            new WhileMatchFilter(
                new RowFilter(CompareOperator.LESS, new BinaryComparator(b("c")))));
    assertThat(keys(scan(r, spy))).containsExactly("a", "b");
    assertThat(spy.rowKeys).containsExactly("a", "b", "c");
    assertThat(
            keys(
                scanReversed(
                    r,
                    new WhileMatchFilter(
                        new RowFilter(CompareOperator.GREATER, new BinaryComparator(b("c")))))))
        .containsExactly("e", "d");
  }

  @Test
  void whileMatchEndsTheScanAtTheFirstRejectedCellKeepingTheRowSoFar() throws IOException {
    Filter f =
        new WhileMatchFilter(
            new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("x"))));
    assertThat(scan(r, f))
        .containsExactly("a f:w1@1=5 f:w2@1=7", "b f:w1@1=0 f:w2@1=3", "c f:w1@1=4");
    assertThat(f.filterAllRemaining()).isTrue();
  }

  @Test
  void whileMatchEndsTheScanAtTheFirstDroppedRow() throws IOException {
    assertThat(keys(scan(r, new WhileMatchFilter(new PageFilter(2))))).containsExactly("a", "b");
    assertThat(
            keys(
                scan(
                    r,
                    new WhileMatchFilter(
                        new SkipFilter(
                            new ValueFilter(
                                CompareOperator.NOT_EQUAL, new BinaryComparator(b("0"))))))))
        .containsExactly("a");
    WhileMatchFilter w = new WhileMatchFilter(new KeyOnlyFilter());
    assertThat(w.getFilter()).isInstanceOf(KeyOnlyFilter.class);
    assertThatThrownBy(() -> new WhileMatchFilter(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void whileMatchPassesWholeRowsToTheWrappedFilter() throws IOException {
    SingleColumnValueExcludeFilter x =
        new SingleColumnValueExcludeFilter(
            Fixture.F, b("w1"), CompareOperator.EQUAL, new BinaryComparator(b("5")));
    assertThat(scan(r, new Scan().withStopRow(b("a"), true).setFilter(new WhileMatchFilter(x))))
        .containsExactly("a f:w2@1=7");
  }
}
