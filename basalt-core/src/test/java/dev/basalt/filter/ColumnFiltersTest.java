package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.get;
import static dev.basalt.filter.Fixture.kv;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.reversed;
import static dev.basalt.filter.Fixture.scan;
import static dev.basalt.filter.Fixture.scanReversed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.filter.Filter.ReturnCode;
import dev.basalt.ops.Get;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The filters that pick columns: prefix, range, several prefixes, pagination, count, first key, key
 * only.
 */
class ColumnFiltersTest {

  private static List<String> both(Region r, Supplier<Filter> f) throws IOException {
    List<String> fwd = scan(r, f.get());
    assertThat(scanReversed(r, f.get())).isEqualTo(reversed(fwd));
    return fwd;
  }

  private static Region wideRow() throws IOException {
    Region r = Fixture.memory(3);
    put(
        r,
        "r/f:@1",
        "r/f:a@1",
        "r/f:ab@1",
        "r/f:ab@2",
        "r/f:abc@1",
        "r/f:abd@1",
        "r/f:ac@1",
        "r/f:b@1",
        "r/g:ab@1",
        "r/g:x@1",
        "s/f:abz@1",
        "s/f:zz@1");
    return r;
  }

  @Test
  void columnPrefixSeeksToThePrefixAndLeavesTheRowAfterIt() throws IOException {
    Region r = wideRow();
    assertThat(both(r, () -> new ColumnPrefixFilter(b("ab"))))
        .containsExactly(
            "r f:ab@2=rab f:ab@1=rab f:abc@1=rabc f:abd@1=rabd g:ab@1=rab", "s f:abz@1=sabz");
    Spy spy = new Spy(new ColumnPrefixFilter(b("ab")));
    scan(r, new Scan().withStopRow(b("r"), true).setFilter(spy));
    // "" seeks to "ab" (skipping "a"), "ac" ends the row in f; g starts at "ab" anyway. Reading
    // one version, the filter is shown only the newest of ab (versions are counted before it).
    assertThat(spy.seen)
        .containsExactly(
            "r/f:@1", "r/f:ab@2", "r/f:abc@1", "r/f:abd@1", "r/f:ac@1", "r/g:ab@1", "r/g:x@1");
    assertThat(get(r, "s", new ColumnPrefixFilter(b("ab")))).isEqualTo("s f:abz@1=sabz");
  }

  @Test
  void columnPrefixEdgeCases() throws IOException {
    Region r = Fixture.memory(1);
    put(
        r,
        "r/f:\\xFE\\xFF@1",
        "r/f:\\xFF@1",
        "r/f:\\xFF\\x00@1",
        "r/f:\\xFF\\xFF@1",
        "r/f:\\xFF\\xFF\\xFF@1");
    assertThat(both(r, () -> new ColumnPrefixFilter(b("\\xFF\\xFF"))))
        .containsExactly("r f:\\xFF\\xFF@1=r\\xFF\\xFF f:\\xFF\\xFF\\xFF@1=r\\xFF\\xFF\\xFF");
    assertThat(both(r, () -> new ColumnPrefixFilter(b("\\xFF"))).get(0).split(" ")).hasSize(5);
    assertThat(both(r, () -> new ColumnPrefixFilter(new byte[0])).get(0).split(" ")).hasSize(6);
    assertThat(both(r, () -> new ColumnPrefixFilter(null)).get(0).split(" ")).hasSize(6);
    assertThat(both(r, () -> new ColumnPrefixFilter(b("\\x00")))).isEmpty();
  }

  @Test
  void columnPrefixDirectAnswers() {
    ColumnPrefixFilter f = new ColumnPrefixFilter(b("ab"));
    assertThat(f.filterCell(kv("r", "a"))).isEqualTo(ReturnCode.SEEK_NEXT_USING_HINT);
    assertThat(f.filterCell(kv("r", "aa"))).isEqualTo(ReturnCode.SEEK_NEXT_USING_HINT);
    assertThat(f.filterCell(kv("r", "ab"))).isEqualTo(ReturnCode.INCLUDE);
    assertThat(f.filterCell(kv("r", "ac"))).isEqualTo(ReturnCode.NEXT_ROW);
    assertThat(f.filterCell(kv("r", "b"))).isEqualTo(ReturnCode.NEXT_ROW);
    assertThat(Spy.key(f.getNextCellHint(kv("r", "a")))).isEqualTo("r/f:ab@9223372036854775807");
    assertThat(f.getNextCellHint(kv("r", "ac"))).isNull();
    assertThat(f.getPrefix()).isEqualTo(b("ab"));
  }

  @Test
  void columnRangeBoundsAndInclusiveness() throws IOException {
    Region r = wideRow();
    assertThat(both(r, () -> new ColumnRangeFilter(b("ab"), true, b("abd"), true)))
        .containsExactly("r f:ab@2=rab f:ab@1=rab f:abc@1=rabc f:abd@1=rabd g:ab@1=rab");
    assertThat(both(r, () -> new ColumnRangeFilter(b("ab"), false, b("abz"), false)))
        .containsExactly("r f:abc@1=rabc f:abd@1=rabd");
    assertThat(both(r, () -> new ColumnRangeFilter(b("abd"), false, b("abz"), true)))
        .containsExactly("s f:abz@1=sabz");
    assertThat(both(r, () -> new ColumnRangeFilter(null, true, b("a"), true)))
        .containsExactly("r f:@1=r f:a@1=ra");
    assertThat(both(r, () -> new ColumnRangeFilter(b("b"), true, null, false)))
        .containsExactly("r f:b@1=rb g:x@1=rx", "s f:zz@1=szz");
    assertThat(both(r, () -> new ColumnRangeFilter(b("x"), true, b("a"), true))).isEmpty();
    Spy spy = new Spy(new ColumnRangeFilter(b("ac"), true, b("ac"), true));
    scan(r, new Scan().addFamily(Fixture.F).withStopRow(b("r"), true).setFilter(spy));
    assertThat(spy.seen).containsExactly("r/f:@1", "r/f:ac@1", "r/f:b@1");
    ColumnRangeFilter f = new ColumnRangeFilter(b("a"), false, b("b"), true);
    assertThat(f.getMinColumn()).isEqualTo(b("a"));
    assertThat(f.isMinColumnInclusive()).isFalse();
    assertThat(f.getMaxColumn()).isEqualTo(b("b"));
    assertThat(f.getMaxColumnInclusive()).isTrue();
  }

  @Test
  void multiplePrefixesSeekFromOneToTheNext() throws IOException {
    Region r = wideRow();
    assertThat(both(r, () -> new MultipleColumnPrefixFilter(new byte[][] {b("b"), b("abc")})))
        .containsExactly("r f:abc@1=rabc f:b@1=rb");
    Spy spy = new Spy(new MultipleColumnPrefixFilter(new byte[][] {b("b"), b("abc")}));
    scan(r, new Scan().addFamily(Fixture.F).withStopRow(b("r"), true).setFilter(spy));
    assertThat(spy.seen).containsExactly("r/f:@1", "r/f:abc@1", "r/f:abd@1", "r/f:b@1");
    assertThat(both(r, () -> new MultipleColumnPrefixFilter(new byte[0][]))).hasSize(2);
    assertThat(both(r, () -> new MultipleColumnPrefixFilter(null))).hasSize(2);
  }

  @Test
  void multiplePrefixesMatchNestedPrefixes() {
    MultipleColumnPrefixFilter f =
        new MultipleColumnPrefixFilter(new byte[][] {b("aa"), b("a"), b("abc"), b("d")});
    assertThat(f.getPrefix()).isDeepEqualTo(new byte[][] {b("a"), b("aa"), b("abc"), b("d")});
    assertThat(f.filterCell(kv("r", "ab"))).isEqualTo(ReturnCode.INCLUDE);
    assertThat(f.filterCell(kv("r", "abd"))).isEqualTo(ReturnCode.INCLUDE);
    assertThat(f.filterCell(kv("r", "b"))).isEqualTo(ReturnCode.SEEK_NEXT_USING_HINT);
    assertThat(Spy.key(f.getNextCellHint(kv("r", "b")))).startsWith("r/f:d@");
    assertThat(f.filterCell(kv("r", ""))).isEqualTo(ReturnCode.SEEK_NEXT_USING_HINT);
    assertThat(f.filterCell(kv("r", "e"))).isEqualTo(ReturnCode.NEXT_ROW);
    MultipleColumnPrefixFilter empty = new MultipleColumnPrefixFilter(new byte[][] {new byte[0]});
    assertThat(empty.filterCell(kv("r", "zzz"))).isEqualTo(ReturnCode.INCLUDE);
  }

  @Test
  void multiplePrefixesRejectNullsAndRepeats() {
    assertThatThrownBy(() -> new MultipleColumnPrefixFilter(new byte[][] {b("a"), null}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("null");
    assertThatThrownBy(() -> new MultipleColumnPrefixFilter(new byte[][] {b("a"), b("a")}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("distinct");
  }

  private static Region pages() throws IOException {
    Region r = Fixture.memory(3);
    for (String row : new String[] {"r1", "r2"}) {
      for (String q : new String[] {"c1", "c2", "c3", "c4"}) {
        put(r, row + "/f:" + q + "@1", row + "/f:" + q + "@2");
      }
      put(r, row + "/g:c0@1", row + "/g:c5@1");
    }
    return r;
  }

  @Test
  void paginationByOffsetCountsColumnsAcrossFamilies() throws IOException {
    Region r = pages();
    assertThat(both(r, () -> new ColumnPaginationFilter(2, 1)))
        .containsExactly("r1 f:c2@2=r1c2 f:c3@2=r1c3", "r2 f:c2@2=r2c2 f:c3@2=r2c3");
    assertThat(both(r, () -> new ColumnPaginationFilter(3, 3)))
        .containsExactly(
            "r1 f:c4@2=r1c4 g:c0@1=r1c0 g:c5@1=r1c5", "r2 f:c4@2=r2c4 g:c0@1=r2c0 g:c5@1=r2c5");
    assertThat(both(r, () -> new ColumnPaginationFilter(2, 10))).isEmpty();
    assertThat(both(r, () -> new ColumnPaginationFilter(0, 0))).isEmpty();
    assertThat(get(r, "r2", new ColumnPaginationFilter(1, 5))).isEqualTo("r2 g:c5@1=r2c5");
  }

  @Test
  void paginationByColumnOffsetSeeksToTheOffset() throws IOException {
    Region r = pages();
    assertThat(both(r, () -> new ColumnPaginationFilter(2, b("c3"))))
        .containsExactly("r1 f:c3@2=r1c3 f:c4@2=r1c4", "r2 f:c3@2=r2c3 f:c4@2=r2c4");
    // The page started in f, so g is counted from its first column (HBase's rule).
    assertThat(both(r, () -> new ColumnPaginationFilter(3, b("c3"))))
        .containsExactly(
            "r1 f:c3@2=r1c3 f:c4@2=r1c4 g:c0@1=r1c0", "r2 f:c3@2=r2c3 f:c4@2=r2c4 g:c0@1=r2c0");
    // No column of f reaches c45: the page starts in g.
    assertThat(both(r, () -> new ColumnPaginationFilter(5, b("c45"))))
        .containsExactly("r1 g:c5@1=r1c5", "r2 g:c5@1=r2c5");
    Spy spy = new Spy(new ColumnPaginationFilter(1, b("c3")));
    scan(r, new Scan().addFamily(Fixture.F).withStopRow(b("r1"), true).setFilter(spy));
    assertThat(spy.seen).containsExactly("r1/f:c1@2", "r1/f:c3@2", "r1/f:c4@2");
    ColumnPaginationFilter f = new ColumnPaginationFilter(3, b("c3"));
    assertThat(f.getLimit()).isEqualTo(3);
    assertThat(f.getOffset()).isEqualTo(-1);
    assertThat(f.getColumnOffset()).isEqualTo(b("c3"));
    assertThat(new ColumnPaginationFilter(3, 4).getColumnOffset()).isNull();
  }

  @Test
  void paginationRejectsNegativesAndNulls() {
    assertThatThrownBy(() -> new ColumnPaginationFilter(-1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limit");
    assertThatThrownBy(() -> new ColumnPaginationFilter(1, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("offset");
    assertThatThrownBy(() -> new ColumnPaginationFilter(1, (byte[]) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("columnOffset");
  }

  @Test
  void columnCountGetReturnsTheFirstColumnsThenEndsTheRead() throws IOException {
    Region r = pages();
    assertThat(get(r, "r2", new ColumnCountGetFilter(3)))
        .isEqualTo("r2 f:c1@2=r2c1 f:c2@2=r2c2 f:c3@2=r2c3");
    assertThat(get(r, "r2", new ColumnCountGetFilter(5)))
        .isEqualTo("r2 f:c1@2=r2c1 f:c2@2=r2c2 f:c3@2=r2c3 f:c4@2=r2c4 g:c0@1=r2c0");
    assertThat(scan(r, new ColumnCountGetFilter(2))).containsExactly("r1 f:c1@2=r1c1 f:c2@2=r1c2");
    assertThat(scanReversed(r, new ColumnCountGetFilter(1))).containsExactly("r2 f:c1@2=r2c1");
    assertThat(get(r, "r1", new ColumnCountGetFilter(0))).isNull();
    assertThatThrownBy(() -> new ColumnCountGetFilter(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void firstKeyOnlyReturnsOneCellPerRow() throws IOException {
    Region r = pages();
    assertThat(both(r, FirstKeyOnlyFilter::new))
        .containsExactly("r1 f:c1@2=r1c1", "r2 f:c1@2=r2c1");
    assertThat(
            scan(
                r,
                new Scan()
                    .addFamily(Fixture.G)
                    .setReversed(true)
                    .setFilter(new FirstKeyOnlyFilter())))
        .containsExactly("r2 g:c0@1=r2c0", "r1 g:c0@1=r1c0");
  }

  @Test
  void keyOnlyDropsValuesOrReplacesThemWithTheirLength() throws IOException {
    Region r = Fixture.memory(3);
    put(r, "r/f:a@1=hello", "r/f:b@1=");
    assertThat(both(r, KeyOnlyFilter::new)).containsExactly("r f:a@1= f:b@1=");
    List<String> len = both(r, () -> new KeyOnlyFilter(true));
    assertThat(len).containsExactly("r f:a@1=\\x00\\x00\\x00\\x05 f:b@1=\\x00\\x00\\x00\\x00");
    Cell t = new KeyOnlyFilter(true).transformCell(kv("r", "f", "q", 7, "abc"));
    assertThat(Bytes.toInt(dev.basalt.cell.CellUtil.cloneValue(t))).isEqualTo(3);
    assertThat(t.getTimestamp()).isEqualTo(7);
    assertThat(new KeyOnlyFilter(true).isLenAsVal()).isTrue();
    assertThat(new KeyOnlyFilter().isLenAsVal()).isFalse();
  }

  @Test
  void keyOnlyKeepsEveryVersionAndWorksInGets() throws IOException {
    Region r = Fixture.memory(3);
    put(r, "r/f:a@1=x", "r/f:a@2=yy");
    assertThat(
            r.get(new Get(b("r")).readAllVersions().setFilter(new KeyOnlyFilter(true))).rawCells())
        .hasSize(2);
    assertThat(get(r, "r", new KeyOnlyFilter())).isEqualTo("r f:a@2= f:a@1=");
  }
}
