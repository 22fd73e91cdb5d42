package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.get;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.reversed;
import static dev.basalt.filter.Fixture.scan;
import static dev.basalt.filter.Fixture.scanReversed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** RowFilter, FamilyFilter, QualifierFilter and ValueFilter, and HBase's operand order. */
class CompareFiltersTest {
  private Region r;

  @BeforeEach
  void load() throws IOException {
    r = Fixture.memory(3);
    put(r, "a/f:q1@1=1", "a/f:q2@1=5", "a/g:z@1=9");
    put(r, "b/f:q1@1=2", "b/f:q2@1=6", "b/g:z@1=8");
    put(r, "c/f:q1@1=3", "c/f:q2@1=7", "c/g:z@1=7");
  }

  /** Forward and reversed scans agree up to order; returns the forward rows. */
  private List<String> both(Supplier<Filter> f) throws IOException {
    List<String> fwd = scan(r, f.get());
    assertThat(scanReversed(r, f.get())).isEqualTo(reversed(fwd));
    return fwd;
  }

  @Test
  void lessPassesStoredBytesBelowTheValue() throws IOException {
    // HBase's filter convention: "stored LESS value" (check-and-mutate uses the reverse).
    assertThat(both(() -> new RowFilter(CompareOperator.LESS, new BinaryComparator(b("b")))))
        .containsExactly("a f:q1@1=1 f:q2@1=5 g:z@1=9");
    assertThat(
            both(
                () ->
                    new RowFilter(CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(b("b")))))
        .extracting(s -> s.substring(0, 1))
        .containsExactly("b", "c");
    assertThat(both(() -> new RowFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("b")))))
        .extracting(s -> s.substring(0, 1))
        .containsExactly("a", "c");
    assertThat(
            both(() -> new RowFilter(CompareOperator.LESS_OR_EQUAL, new BinaryComparator(b("b")))))
        .hasSize(2);
    assertThat(both(() -> new RowFilter(CompareOperator.GREATER, new BinaryComparator(b("b")))))
        .hasSize(1);
    assertThat(both(() -> new RowFilter(CompareOperator.EQUAL, new BinaryComparator(b("b")))))
        .containsExactly("b f:q1@1=2 f:q2@1=6 g:z@1=8");
  }

  @Test
  void noOpPassesNothing() throws IOException {
    assertThat(scan(r, new RowFilter(CompareOperator.NO_OP, new BinaryComparator(b("b")))))
        .isEmpty();
    assertThat(scan(r, new ValueFilter(CompareOperator.NO_OP, new BinaryComparator(b("b")))))
        .isEmpty();
  }

  @Test
  void rowFilterDropsRowsByKeyInGetsToo() throws IOException {
    Filter f = new RowFilter(CompareOperator.EQUAL, new BinaryPrefixComparator(b("c")));
    assertThat(get(r, "c", f)).isEqualTo("c f:q1@1=3 f:q2@1=7 g:z@1=7");
    assertThat(get(r, "a", new RowFilter(CompareOperator.EQUAL, new BinaryComparator(b("c")))))
        .isNull();
  }

  @Test
  void rowFilterWithRegexAndSubstring() throws IOException {
    assertThat(
            both(() -> new RowFilter(CompareOperator.EQUAL, new RegexStringComparator("^[ac]$"))))
        .extracting(s -> s.substring(0, 1))
        .containsExactly("a", "c");
    assertThat(both(() -> new RowFilter(CompareOperator.NOT_EQUAL, new SubstringComparator("B"))))
        .extracting(s -> s.substring(0, 1))
        .containsExactly("a", "c");
  }

  @Test
  void familyFilterSkipsWholeFamilies() throws IOException {
    assertThat(both(() -> new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(b("g")))))
        .containsExactly("a g:z@1=9", "b g:z@1=8", "c g:z@1=7");
    assertThat(both(() -> new FamilyFilter(CompareOperator.LESS, new BinaryComparator(b("g")))))
        .containsExactly("a f:q1@1=1 f:q2@1=5", "b f:q1@1=2 f:q2@1=6", "c f:q1@1=3 f:q2@1=7");
  }

  @Test
  void qualifierFilterSkipsCells() throws IOException {
    assertThat(
            both(() -> new QualifierFilter(CompareOperator.GREATER, new BinaryComparator(b("q1")))))
        .containsExactly("a f:q2@1=5 g:z@1=9", "b f:q2@1=6 g:z@1=8", "c f:q2@1=7 g:z@1=7");
    assertThat(
            get(r, "b", new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(b("z")))))
        .isEqualTo("b g:z@1=8");
  }

  @Test
  void valueFilterWithEveryComparatorKind() throws IOException {
    assertThat(
            both(
                () ->
                    new ValueFilter(
                        CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(b("7")))))
        .containsExactly("a g:z@1=9", "b g:z@1=8", "c f:q2@1=7 g:z@1=7");
    // '1' = 0x31 and 0x01 != 0; '2' = 0x32 and 0x01 == 0.
    assertThat(
            both(
                () ->
                    new ValueFilter(
                        CompareOperator.EQUAL,
                        new BitComparator(new byte[] {1}, BitComparator.BitwiseOp.AND))))
        .containsExactly("a f:q1@1=1 f:q2@1=5 g:z@1=9", "c f:q1@1=3 f:q2@1=7 g:z@1=7");
  }

  @Test
  void valueFilterWithNullComparator() throws IOException {
    assertThat(scan(r, new ValueFilter(CompareOperator.EQUAL, new NullComparator()))).isEmpty();
    assertThat(scan(r, new ValueFilter(CompareOperator.NOT_EQUAL, new NullComparator())))
        .hasSize(3);
  }

  @Test
  void valueFilterWithLongsAndMultipleVersions() throws IOException {
    Region v = Fixture.memory(5);
    for (long ts = 1; ts <= 4; ts++) {
      v.put(
          new dev.basalt.ops.Put(b("r")).addColumn(Fixture.F, b("n"), ts, Bytes.toBytes(ts * 10)));
    }
    Filter f = new ValueFilter(CompareOperator.LESS, new LongComparator(30));
    List<String> rows = scan(v, new Scan().readAllVersions().setFilter(f));
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0)).contains("f:n@2=").contains("f:n@1=").doesNotContain("@3=");
    // One version asked for: versions are counted before the filter, and the newest (40) fails.
    rows =
        scan(
            v, new Scan().setFilter(new ValueFilter(CompareOperator.LESS, new LongComparator(30))));
    assertThat(rows).isEmpty();
    // Under classic rules the filter sees the family's versions and the newest that passes is
    // returned.
    Region classic = Fixture.memory(5, false);
    for (long ts = 1; ts <= 4; ts++) {
      classic.put(
          new dev.basalt.ops.Put(b("r")).addColumn(Fixture.F, b("n"), ts, Bytes.toBytes(ts * 10)));
    }
    rows =
        scan(
            classic,
            new Scan().setFilter(new ValueFilter(CompareOperator.LESS, new LongComparator(30))));
    assertThat(rows.get(0)).contains("f:n@2=").doesNotContain("f:n@1=");
  }

  @Test
  void constructorsRejectMissingParts() {
    assertThatThrownBy(() -> new RowFilter(null, new BinaryComparator(b("a"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("RowFilter")
        .hasMessageContaining("operator");
    assertThatThrownBy(() -> new ValueFilter(CompareOperator.EQUAL, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("comparator");
    RowFilter f = new RowFilter(CompareOperator.LESS, new BinaryComparator(b("a")));
    assertThat(f.getCompareOperator()).isEqualTo(CompareOperator.LESS);
    assertThat(f.getComparator()).isEqualTo(new BinaryComparator(b("a")));
  }
}
