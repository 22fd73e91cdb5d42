package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.get;
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
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Filters that pick rows by key: prefix, inclusive stop, page, random. */
class RowFiltersTest {
  private static final String[] ROWS = {
    "a", "ab", "abc", "abd", "ac", "b", "\\xFF", "\\xFF\\x00", "\\xFF\\xFF", "\\xFF\\xFF\\x01"
  };

  private static Region rows() throws IOException {
    Region r = Fixture.memory(1);
    for (String row : ROWS) {
      put(r, row + "/f:q@1=v", row + "/g:q@1=w");
    }
    return r;
  }

  /** The row keys of a scan's results. */
  private static List<String> keys(List<String> results) {
    List<String> out = new ArrayList<>();
    for (String s : results) {
      out.add(s.substring(0, s.indexOf(' ')));
    }
    return out;
  }

  private static List<String> both(Region r, Supplier<Filter> f) throws IOException {
    List<String> fwd = keys(scan(r, f.get()));
    assertThat(keys(scanReversed(r, f.get()))).isEqualTo(reversed(fwd));
    return fwd;
  }

  @Test
  void prefixFilterSeeksToThePrefixAndStopsAfterIt() throws IOException {
    Region r = rows();
    assertThat(both(r, () -> new PrefixFilter(b("ab")))).containsExactly("ab", "abc", "abd");
    Spy fwd = new Spy(new PrefixFilter(b("ab")));
    scan(r, fwd);
    assertThat(fwd.rowsSeen()).containsExactly("a", "ab", "abc", "abd");
    Spy rev = new Spy(new PrefixFilter(b("ab")));
    scanReversed(r, rev);
    // From the top the seek goes to "ac" (the end of the prefix's range), which exists, then on.
    assertThat(rev.rowsSeen()).containsExactly("\\xFF\\xFF\\x01", "ac", "abd", "abc", "ab");
  }

  @Test
  void prefixFilterAtTheTopOfTheKeySpace() throws IOException {
    Region r = rows();
    assertThat(both(r, () -> new PrefixFilter(b("\\xFF"))))
        .containsExactly("\\xFF", "\\xFF\\x00", "\\xFF\\xFF", "\\xFF\\xFF\\x01");
    assertThat(both(r, () -> new PrefixFilter(b("\\xFF\\xFF"))))
        .containsExactly("\\xFF\\xFF", "\\xFF\\xFF\\x01");
    Spy fwd = new Spy(new PrefixFilter(b("\\xFF\\xFF")));
    scan(r, fwd);
    assertThat(fwd.rowsSeen()).containsExactly("a", "\\xFF\\xFF", "\\xFF\\xFF\\x01");
    assertThat(both(r, () -> new PrefixFilter(b("\\x00")))).isEmpty();
    assertThat(both(r, () -> new PrefixFilter(b("abcd")))).isEmpty();
  }

  @Test
  void emptyPrefixMatchesEveryRowAndNullNone() throws IOException {
    Region r = rows();
    assertThat(both(r, () -> new PrefixFilter(new byte[0]))).hasSize(ROWS.length);
    assertThat(both(r, () -> new PrefixFilter(null))).isEmpty();
    assertThat(get(r, "abc", new PrefixFilter(b("ab")))).isEqualTo("abc f:q@1=v g:q@1=w");
    assertThat(get(r, "ac", new PrefixFilter(b("ab")))).isNull();
  }

  @Test
  void prefixFilterWithScanBounds() throws IOException {
    Region r = rows();
    assertThat(
            keys(scan(r, new Scan().withStartRow(b("abd")).setFilter(new PrefixFilter(b("ab"))))))
        .containsExactly("abd");
    assertThat(
            keys(
                scan(
                    r,
                    new Scan()
                        .setReversed(true)
                        .withStartRow(b("abc"))
                        .setFilter(new PrefixFilter(b("ab"))))))
        .containsExactly("abc", "ab");
  }

  @Test
  void inclusiveStopIncludesTheStopRowInBothDirections() throws IOException {
    Region r = rows();
    assertThat(keys(scan(r, new InclusiveStopFilter(b("abc"))))).containsExactly("a", "ab", "abc");
    assertThat(keys(scanReversed(r, new InclusiveStopFilter(b("abc")))))
        .containsExactly(
            "\\xFF\\xFF\\x01", "\\xFF\\xFF", "\\xFF\\x00", "\\xFF", "b", "ac", "abd", "abc");
    Spy spy = new Spy(new InclusiveStopFilter(b("abb")));
    scan(r, spy);
    assertThat(spy.rowsSeen()).containsExactly("a", "ab");
    assertThat(scan(r, new InclusiveStopFilter(new byte[0]))).isEmpty();
    assertThat(scanReversed(r, new InclusiveStopFilter(new byte[0]))).hasSize(ROWS.length);
    assertThat(new InclusiveStopFilter(b("x")).getStopRowKey()).isEqualTo(b("x"));
    assertThatThrownBy(() -> new InclusiveStopFilter(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stop row");
  }

  @Test
  void pageFilterEndsTheScanAfterAPage() throws IOException {
    Region r = rows();
    assertThat(keys(scan(r, new PageFilter(3)))).containsExactly("a", "ab", "abc");
    assertThat(keys(scanReversed(r, new PageFilter(2))))
        .containsExactly("\\xFF\\xFF\\x01", "\\xFF\\xFF");
    assertThat(scan(r, new PageFilter(0))).isEmpty();
    assertThat(scan(r, new PageFilter(100))).hasSize(ROWS.length);
    Spy spy = new Spy(new PageFilter(2));
    scan(r, spy);
    assertThat(spy.rowsSeen()).containsExactly("a", "ab");
    assertThat(new PageFilter(7).getPageSize()).isEqualTo(7);
    assertThatThrownBy(() -> new PageFilter(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("page size");
  }

  @Test
  void pageFilterCountsOnlyRowsThatSurviveEarlierMembers() throws IOException {
    Region r = rows();
    // The row filter drops rows by key before the page counts them.
    FilterList f =
        new FilterList(
            new RowFilter(CompareOperator.GREATER, new BinaryComparator(b("abc"))),
            new PageFilter(2));
    assertThat(keys(scan(r, f))).containsExactly("abd", "ac");
  }

  @Test
  void pageFilterRejectsABatchSize() {
    Region r = Fixture.memory(1);
    assertThatThrownBy(() -> r.getScanner(new Scan().setBatch(2).setFilter(new PageFilter(1))))
        .hasMessageContaining("batch");
  }

  @Test
  void randomRowFilterIsRepeatableWithASeed() throws IOException {
    Region r = Fixture.memory(1);
    for (int i = 0; i < 400; i++) {
      put(r, String.format("r%03d/f:q@1", i));
    }
    List<String> first = keys(scan(r, new RandomRowFilter(0.25f, 42)));
    List<String> again = keys(scan(r, new RandomRowFilter(0.25f, 42)));
    assertThat(again).isEqualTo(first);
    assertThat(first.size()).isBetween(60, 140);
    assertThat(keys(scan(r, new RandomRowFilter(0.25f, 43)))).isNotEqualTo(first);
    assertThat(scan(r, new RandomRowFilter(-1f, 1))).isEmpty();
    assertThat(scan(r, new RandomRowFilter(0f, 1))).isEmpty();
    assertThat(scan(r, new RandomRowFilter(2f, 1))).hasSize(400);
    assertThat(scan(r, new RandomRowFilter(1f))).hasSize(400);
    RandomRowFilter f = new RandomRowFilter(0.5f);
    f.setChance(0.75f);
    assertThat(f.getChance()).isEqualTo(0.75f);
    assertThatThrownBy(() -> new RandomRowFilter(Float.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NaN");
    assertThatThrownBy(() -> f.setChance(Float.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
