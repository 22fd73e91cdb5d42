package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TimestampsFilterTest {
  private Region r;

  @BeforeEach
  void load() throws IOException {
    r = Fixture.memory(20);
    for (int ts = 1; ts <= 10; ts++) {
      put(r, "r/f:a@" + ts + "=a" + ts, "r/f:b@" + ts + "=b" + ts, "s/g:c@" + ts + "=c" + ts);
    }
  }

  private static List<Long> ts(long... t) {
    Long[] out = new Long[t.length];
    for (int i = 0; i < t.length; i++) {
      out[i] = t[i];
    }
    return Arrays.asList(out);
  }

  @Test
  void returnsOnlyTheListedVersions() throws IOException {
    for (boolean hint : new boolean[] {false, true}) {
      List<String> rows = scan(r, new TimestampsFilter(ts(9, 2, 9, 5), hint));
      assertThat(rows)
          .containsExactly(
              "r f:a@9=a9 f:a@5=a5 f:a@2=a2 f:b@9=b9 f:b@5=b5 f:b@2=b2",
              "s g:c@9=c9 g:c@5=c5 g:c@2=c2");
      assertThat(Fixture.scanReversed(r, new TimestampsFilter(ts(9, 2, 9, 5), hint)))
          .isEqualTo(Fixture.reversed(rows));
    }
  }

  @Test
  void hintsSeekBetweenListedVersions() throws IOException {
    Spy plain = new Spy(new TimestampsFilter(ts(2, 9)));
    scan(r, new Scan().addColumn(Fixture.F, b("a")).readAllVersions().setFilter(plain));
    assertThat(plain.seen).hasSize(10);
    Spy hinted = new Spy(new TimestampsFilter(ts(2, 9), true));
    scan(r, new Scan().addColumn(Fixture.F, b("a")).readAllVersions().setFilter(hinted));
    // 10 seeks to 9, 8 seeks to 2, 1 is below the minimum and ends the column.
    assertThat(hinted.seen).containsExactly("r/f:a@10", "r/f:a@9", "r/f:a@8", "r/f:a@2", "r/f:a@1");
  }

  private static String getA(Region region, int versions, TimestampsFilter f) throws IOException {
    return Fixture.row(
        region.get(
            new Get(b("r")).addColumn(Fixture.F, b("a")).readVersions(versions).setFilter(f)));
  }

  @Test
  void versionsAreCountedBeforeTheFilter() throws IOException {
    // Deterministic history, as HBase's NEW_VERSION_BEHAVIOR: the filter sees the versions the read
    // returns without it (the newest one by default, 10), whether or not it hints.
    for (boolean hint : new boolean[] {false, true}) {
      assertThat(getA(r, 1, new TimestampsFilter(ts(3, 6), hint))).isNull();
      assertThat(getA(r, 5, new TimestampsFilter(ts(1, 3, 6, 8), hint)))
          .isEqualTo("r f:a@8=a8 f:a@6=a6");
      // A hint from 9 to 2 passes over 8 and 7, which still count: 10 and 9 are the newest two.
      assertThat(getA(r, 2, new TimestampsFilter(ts(10, 2), hint))).isEqualTo("r f:a@10=a10");
    }
  }

  @Test
  void classicFamiliesFilterTheirVersionsBeforeCountingWhatPassed() throws IOException {
    // Classic rules, as HBase: the filter sees the family's newest VERSIONS (3 here: 10, 9, 8) and
    // the read returns the first versions it accepts. A hint that passes over 9 and 8 does not
    // reach back to 2 (HBase's seek does, and returns 10 and 2).
    Region classic = Fixture.memory(3, false);
    for (int ts = 1; ts <= 10; ts++) {
      put(classic, "r/f:a@" + ts + "=a" + ts);
    }
    for (boolean hint : new boolean[] {false, true}) {
      assertThat(getA(classic, 1, new TimestampsFilter(ts(3, 8, 9), hint))).isEqualTo("r f:a@9=a9");
      assertThat(getA(classic, 2, new TimestampsFilter(ts(1, 8, 10), hint)))
          .isEqualTo("r f:a@10=a10 f:a@8=a8");
      assertThat(getA(classic, 3, new TimestampsFilter(ts(10, 2), hint))).isEqualTo("r f:a@10=a10");
    }
  }

  @Test
  void deletedVersionsStayDeletedWithoutHints() throws IOException {
    r.delete(new Delete(b("r")).addColumn(Fixture.F, b("a"), 9));
    r.delete(new Delete(b("r")).addColumns(Fixture.F, b("b"), 5));
    assertThat(
            scan(
                r,
                new Scan()
                    .withStopRow(b("r"), true)
                    .readAllVersions()
                    .setFilter(new TimestampsFilter(ts(9, 2, 5)))))
        .containsExactly("r f:a@5=a5 f:a@2=a2 f:b@9=b9");
  }

  @Test
  void emptyListReturnsNothingAndBadListsAreRejected() throws IOException {
    assertThat(scan(r, new TimestampsFilter(ts()))).isEmpty();
    TimestampsFilter f = new TimestampsFilter(ts(7, 3, 3), true);
    assertThat(f.getTimestamps()).containsExactly(3L, 7L);
    assertThat(f.getMin()).isEqualTo(3);
    assertThat(f.getCanHint()).isTrue();
    assertThat(new TimestampsFilter(ts()).getMin()).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> new TimestampsFilter(ts(3, -1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> new TimestampsFilter(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TimestampsFilter(Arrays.asList(1L, null)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
