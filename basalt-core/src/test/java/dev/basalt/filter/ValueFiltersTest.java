package dev.basalt.filter;

import static dev.basalt.filter.Fixture.F;
import static dev.basalt.filter.Fixture.G;
import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.get;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.reversed;
import static dev.basalt.filter.Fixture.scan;
import static dev.basalt.filter.Fixture.scanReversed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.ops.Delete;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Filters that decide by cell values: single column value (and exclude), column value, dependent.
 */
class ValueFiltersTest {
  private Region r;

  @BeforeEach
  void load() throws IOException {
    r = Fixture.memory(3);
    put(r, "r1/f:a@1=1", "r1/f:b@1=x", "r1/g:c@1=y");
    put(r, "r2/f:a@1=2", "r2/f:b@1=x");
    put(r, "r3/f:b@1=x", "r3/g:c@1=z");
    put(r, "r4/f:a@1=2", "r4/f:a@2=1", "r4/f:b@2=w");
  }

  private static List<String> keys(List<String> results) {
    List<String> out = new ArrayList<>();
    for (String s : results) {
      out.add(s.substring(0, s.indexOf(' ')));
    }
    return out;
  }

  private List<String> both(Supplier<Filter> f) throws IOException {
    List<String> fwd = scan(r, new Scan().setFilter(f.get()));
    assertThat(scan(r, new Scan().setReversed(true).setFilter(f.get()))).isEqualTo(reversed(fwd));
    return fwd;
  }

  private static SingleColumnValueFilter scvf(String value, boolean ifMissing, boolean latest) {
    SingleColumnValueFilter f =
        new SingleColumnValueFilter(F, b("a"), CompareOperator.EQUAL, b(value));
    f.setFilterIfMissing(ifMissing);
    f.setLatestVersionOnly(latest);
    return f;
  }

  @Test
  void singleColumnValueKeepsWholeRowsByOneColumn() throws IOException {
    assertThat(both(() -> scvf("1", false, true)))
        .containsExactly("r1 f:a@1=1 f:b@1=x g:c@1=y", "r3 f:b@1=x g:c@1=z", "r4 f:a@2=1 f:b@2=w");
    assertThat(keys(both(() -> scvf("1", true, true)))).containsExactly("r1", "r4");
    assertThat(keys(both(() -> scvf("2", true, true)))).containsExactly("r2");
  }

  @Test
  void anyVersionMayMatchWhenNotLatestOnly() throws IOException {
    // The filter sees the versions the read returns (they are counted before it, as in HBase's
    // NEW_VERSION_BEHAVIOR families): reading one version, r4's older 2 is not among them.
    assertThat(both(() -> scvf("2", true, false))).containsExactly("r2 f:a@1=2 f:b@1=x");
    // Classic families show it the family's versions, so r4's older version matches; the row
    // still shows its newest cells.
    Region classic = Fixture.memory(3, false);
    put(classic, "r2/f:a@1=2", "r2/f:b@1=x");
    put(classic, "r4/f:a@1=2", "r4/f:a@2=1", "r4/f:b@2=w");
    assertThat(scan(classic, new Scan().setFilter(scvf("2", true, false))))
        .containsExactly("r2 f:a@1=2 f:b@1=x", "r4 f:a@2=1 f:b@2=w");
    // Reading every version, r4's older version is seen and matches.
    assertThat(
            scan(
                r,
                new Scan()
                    .readAllVersions()
                    .withStartRow(b("r4"))
                    .setFilter(scvf("2", true, false))))
        .containsExactly("r4 f:a@2=1 f:a@1=2 f:b@2=w");
  }

  @Test
  void theColumnIsWhatTheReadSees() throws IOException {
    // A time range hiding r4's newest version makes the older one the latest.
    assertThat(keys(scan(r, new Scan().setTimeRange(0, 2).setFilter(scvf("2", true, true)))))
        .containsExactly("r2", "r4");
    // A deleted newest version does too.
    r.delete(new Delete(b("r4")).addColumn(F, b("a"), 2));
    assertThat(keys(scan(r, scvf("2", true, true)))).containsExactly("r2", "r4");
    // A family the scan leaves out makes the column missing.
    SingleColumnValueFilter onG =
        new SingleColumnValueFilter(G, b("c"), CompareOperator.EQUAL, b("z"));
    assertThat(keys(scan(r, new Scan().addFamily(F).setFilter(onG)))).hasSize(4);
    onG = new SingleColumnValueFilter(G, b("c"), CompareOperator.EQUAL, b("z"));
    onG.setFilterIfMissing(true);
    assertThat(keys(scan(r, new Scan().addFamily(F).setFilter(onG)))).isEmpty();
    onG = new SingleColumnValueFilter(G, b("c"), CompareOperator.EQUAL, b("z"));
    onG.setFilterIfMissing(true);
    assertThat(keys(scan(r, onG))).containsExactly("r3");
  }

  @Test
  void singleColumnValueInGetsAndWithComparators() throws IOException {
    assertThat(get(r, "r2", scvf("1", false, true))).isNull();
    assertThat(get(r, "r3", scvf("1", false, true))).isEqualTo("r3 f:b@1=x g:c@1=z");
    SingleColumnValueFilter less =
        new SingleColumnValueFilter(F, b("a"), CompareOperator.LESS, new BinaryComparator(b("2")));
    less.setFilterIfMissing(true);
    assertThat(keys(scan(r, less))).containsExactly("r1", "r4");
    SingleColumnValueFilter full =
        new SingleColumnValueFilter(
            F, b("a"), CompareOperator.NOT_EQUAL, new SubstringComparator("1"), true, true);
    assertThat(keys(scan(r, full))).containsExactly("r2");
    assertThat(full.getFamily()).isEqualTo(F);
    assertThat(full.getQualifier()).isEqualTo(b("a"));
    assertThat(full.getCompareOperator()).isEqualTo(CompareOperator.NOT_EQUAL);
    assertThat(full.getComparator()).isEqualTo(new SubstringComparator("1"));
    assertThat(full.getFilterIfMissing()).isTrue();
    assertThat(full.getLatestVersionOnly()).isTrue();
    assertThat(full.isFamilyEssential(G)).isFalse();
    assertThat(full.isFamilyEssential(F)).isTrue();
  }

  @Test
  void singleColumnValueRejectsBadArguments() {
    assertThatThrownBy(
            () -> new SingleColumnValueFilter(null, b("a"), CompareOperator.EQUAL, b("1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("family");
    assertThatThrownBy(() -> new SingleColumnValueFilter(F, b("a"), CompareOperator.NO_OP, b("1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NO_OP");
    assertThatThrownBy(
            () ->
                new SingleColumnValueFilter(
                    F, b("a"), CompareOperator.EQUAL, (ByteArrayComparable) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("comparator");
    assertThatThrownBy(() -> r.getScanner(new Scan().setBatch(1).setFilter(scvf("1", false, true))))
        .hasMessageContaining("batch");
    assertThat(new SingleColumnValueFilter(F, null, CompareOperator.EQUAL, b("1")).getQualifier())
        .isEmpty();
  }

  @Test
  void excludeFilterLeavesTheTestedColumnOut() throws IOException {
    Supplier<Filter> f =
        () -> {
          SingleColumnValueExcludeFilter x =
              new SingleColumnValueExcludeFilter(F, b("a"), CompareOperator.EQUAL, b("1"));
          x.setFilterIfMissing(true);
          return x;
        };
    assertThat(both(f)).containsExactly("r1 f:b@1=x g:c@1=y", "r4 f:b@2=w");
    SingleColumnValueExcludeFilter full =
        new SingleColumnValueExcludeFilter(
            F, b("a"), CompareOperator.EQUAL, new BinaryComparator(b("9")), false, true);
    assertThat(scan(r, full)).containsExactly("r3 f:b@1=x g:c@1=z");
  }

  @Test
  void columnValueReturnsOnlyTheMatchingCells() throws IOException {
    // One version is read, and versions are counted before the filter: r4's newest fails, and its
    // older version is not read (as in HBase's NEW_VERSION_BEHAVIOR families).
    assertThat(both(() -> new ColumnValueFilter(F, b("a"), CompareOperator.EQUAL, b("2"))))
        .containsExactly("r2 f:a@1=2");
    assertThat(
            scan(
                r,
                new Scan()
                    .readAllVersions()
                    .setFilter(
                        new ColumnValueFilter(
                            F, b("a"), CompareOperator.GREATER_OR_EQUAL, b("1")))))
        .containsExactly("r1 f:a@1=1", "r2 f:a@1=2", "r4 f:a@2=1 f:a@1=2");
    assertThat(
            scan(
                r,
                new ColumnValueFilter(
                    G, b("c"), CompareOperator.NOT_EQUAL, new BinaryComparator(b("y")))))
        .containsExactly("r3 g:c@1=z");
    assertThat(scan(r, new ColumnValueFilter(F, b("a"), CompareOperator.NO_OP, b("1")))).isEmpty();
    Spy spy = new Spy(new ColumnValueFilter(F, b("a"), CompareOperator.EQUAL, b("1")));
    scan(r, new Scan().withStopRow(b("r1"), true).setFilter(spy));
    // After the column, the rest of the row (in every family) is skipped.
    assertThat(spy.seen).containsExactly("r1/f:a@1", "r1/f:b@1", "r1/g:c@1");
    ColumnValueFilter f = new ColumnValueFilter(F, null, CompareOperator.LESS, b("1"));
    assertThat(f.getQualifier()).isEmpty();
    assertThat(f.getFamily()).isEqualTo(F);
    assertThat(f.getCompareOperator()).isEqualTo(CompareOperator.LESS);
    assertThat(f.getComparator()).isEqualTo(new BinaryComparator(b("1")));
    assertThatThrownBy(() -> new ColumnValueFilter(null, b("a"), CompareOperator.EQUAL, b("1")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ColumnValueFilter(F, b("a"), CompareOperator.EQUAL, (byte[]) null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void dependentColumnKeepsTheCellsStampedLikeTheDependentColumn() throws IOException {
    Region d = Fixture.memory(5);
    put(d, "r/f:d@1=on", "r/f:d@3=off", "r/f:x@1", "r/f:x@2", "r/f:x@3", "r/g:y@3", "r/g:y@4");
    put(d, "s/f:x@1");
    assertThat(
            scan(d, new Scan().readAllVersions().setFilter(new DependentColumnFilter(F, b("d")))))
        .containsExactly("r f:d@3=off f:d@1=on f:x@3=rx f:x@1=rx g:y@3=ry");
    assertThat(
            scan(
                d,
                new Scan().readAllVersions().setFilter(new DependentColumnFilter(F, b("d"), true))))
        .containsExactly("r f:x@3=rx f:x@1=rx g:y@3=ry");
    DependentColumnFilter onOnly =
        new DependentColumnFilter(
            F, b("d"), false, CompareOperator.EQUAL, new BinaryComparator(b("on")));
    assertThat(scan(d, new Scan().readAllVersions().setFilter(onOnly)))
        .containsExactly("r f:d@1=on f:x@1=rx");
    assertThat(scanReversed(d, new DependentColumnFilter(F, b("d"), true)))
        .containsExactly("r f:x@3=rx f:x@1=rx g:y@3=ry");
    assertThat(onOnly.getFamily()).isEqualTo(F);
    assertThat(onOnly.getQualifier()).isEqualTo(b("d"));
    assertThat(onOnly.dropDependentColumn()).isFalse();
    assertThat(onOnly.getDropDependentColumn()).isFalse();
    assertThat(onOnly.getCompareOperator()).isEqualTo(CompareOperator.EQUAL);
    assertThat(new DependentColumnFilter(F, b("d")).getComparator()).isNull();
    assertThatThrownBy(() -> new DependentColumnFilter(null, b("d")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
