package dev.basalt.server.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The three-part row order of hbase:meta against the cases HBase's client depends on. */
class MetaRowComparatorTest {
  private static int cmp(String a, String b) {
    return Integer.signum(MetaRowComparator.compare(Bytes.toBytes(a), Bytes.toBytes(b)));
  }

  @Test
  void tableBoundsBracketOneTable() {
    assertThat(cmp("t,,", "t,a,1")).isNegative();
    assertThat(cmp("t,a,1", "t ,,")).isNegative();
    assertThat(cmp("t ,,", "t,a,1")).isPositive();
    assertThat(cmp("t1,a,1", "t10,,")).isNegative();
    assertThat(cmp("t,,", "t")).isPositive();
  }

  @Test
  void aKeyWithoutCommaSortsBeforeItsTablesRegions() {
    assertThat(cmp("t", "t,,1")).isNegative();
    assertThat(cmp("t", "t")).isZero();
    assertThat(cmp("t\u0000", "t,zzz,9")).isPositive();
    assertThat(cmp("t\u0000", "t0")).isNegative();
  }

  @Test
  void startKeysMayContainCommasAndCompareBeforeTheRegionId() {
    assertThat(cmp("t,a\u0000,99999999999999", "t,a,1700000000000.abc.")).isPositive();
    assertThat(cmp("t,a,b,1", "t,a,2")).isPositive();
    assertThat(cmp("t,a,1", "t,a,2")).isNegative();
    assertThat(cmp("t,a,99999999999999", "t,a,1700000000000.x.")).isPositive();
    assertThat(cmp("t,a", "t,a,1")).isNegative();
  }

  @Property
  void isATotalOrder(@ForAll("keys") String a, @ForAll("keys") String b, @ForAll("keys") String c) {
    assertThat(cmp(a, b)).isEqualTo(-cmp(b, a));
    if (cmp(a, b) <= 0 && cmp(b, c) <= 0) {
      assertThat(cmp(a, c)).isLessThanOrEqualTo(0);
    }
    if (cmp(a, b) == 0) {
      assertThat(cmp(a, c)).isEqualTo(cmp(b, c));
    }
  }

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.strings().withChars("ab, \u0000").ofMaxLength(6);
  }

  @Test
  void sortsRegionRowsByTableThenStartKeyThenId() {
    List<String> rows =
        new ArrayList<>(List.of("t,b,1", "t,,2", "t", "s,z,1", "t,a,,1", "t,a,1", "u,,1"));
    rows.sort((x, y) -> MetaRowComparator.compare(Bytes.toBytes(x), Bytes.toBytes(y)));
    assertThat(rows).containsExactly("s,z,1", "t", "t,,2", "t,a,1", "t,a,,1", "t,b,1", "u,,1");
  }
}
