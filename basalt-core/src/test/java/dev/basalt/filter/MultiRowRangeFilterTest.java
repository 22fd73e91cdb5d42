package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.get;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.reversed;
import static dev.basalt.filter.Fixture.scan;
import static dev.basalt.filter.Fixture.scanReversed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.filter.MultiRowRangeFilter.RowRange;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MultiRowRangeFilterTest {
  private Region r;

  @BeforeEach
  void load() throws IOException {
    r = Fixture.memory(1);
    for (int i = 0; i < 20; i++) {
      put(r, String.format("%02d/f:q@1", i), String.format("%02d/g:q@1", i));
    }
  }

  private static List<String> keys(List<String> results) {
    List<String> out = new ArrayList<>();
    for (String s : results) {
      out.add(s.substring(0, s.indexOf(' ')));
    }
    return out;
  }

  private static MultiRowRangeFilter filter(RowRange... ranges) {
    return new MultiRowRangeFilter(new ArrayList<>(Arrays.asList(ranges)));
  }

  private static RowRange range(String start, boolean si, String stop, boolean ei) {
    return new RowRange(start, si, stop, ei);
  }

  private List<String> both(RowRange... ranges) throws IOException {
    List<String> fwd = keys(scan(r, filter(ranges)));
    assertThat(keys(scanReversed(r, filter(ranges)))).isEqualTo(reversed(fwd));
    return fwd;
  }

  @Test
  void returnsTheRowsOfEveryRangeWithItsBounds() throws IOException {
    assertThat(
            both(
                range("03", true, "05", false),
                range("07", true, "08", true),
                range("10", false, "12", true),
                range("15", true, "", false)))
        .containsExactly("03", "04", "07", "08", "11", "12", "15", "16", "17", "18", "19");
    assertThat(both(range("", true, "02", false), range("18", false, "", true)))
        .containsExactly("00", "01", "19");
    assertThat(both(range("05", false, "05", true))).isEmpty();
    assertThat(both(range("05", true, "05", true))).containsExactly("05");
    assertThat(both(range("04x", true, "05x", false))).containsExactly("05");
  }

  @Test
  void seeksBetweenRangesAndStopsAfterTheLast() throws IOException {
    RowRange[] ranges = {range("03", true, "04", false), range("10", false, "12", false)};
    Spy fwd = new Spy(filter(ranges));
    scan(r, fwd);
    // "10" is the exclusive start: the seek goes just past it; "12" ends the scan by its key.
    assertThat(fwd.rowsSeen()).containsExactly("00", "03", "04", "11");
    Spy rev = new Spy(filter(ranges));
    scanReversed(r, rev);
    // Reversed seeks go to a range's stop row: "12" and "04" exist and are excluded, so the scan
    // lands on them and steps on; "10" is the excluded start of the upper range.
    assertThat(rev.rowsSeen()).containsExactly("19", "12", "11", "10", "04", "03");
  }

  @Test
  void overlappingAndTouchingRangesAreMerged() throws IOException {
    MultiRowRangeFilter f =
        filter(
            range("08", true, "09", false),
            range("01", true, "05", false),
            range("03", true, "07", false),
            range("07", true, "08", false),
            range("12", true, "13", true),
            range("13", false, "14", false),
            range("16", true, "17", false),
            range("17", false, "18", true));
    assertThat(f.getRowRanges())
        .containsExactly(
            range("01", true, "09", false),
            range("12", true, "14", false),
            range("16", true, "17", false),
            range("17", false, "18", true));
    assertThat(keys(scan(r, f)))
        .containsExactly("01", "02", "03", "04", "05", "06", "07", "08", "12", "13", "16", "18");
    assertThat(filter(range("02", true, "", false), range("05", true, "06", false)).getRowRanges())
        .containsExactly(range("02", true, "", false));
    assertThat(filter(range("", true, "03", true), range("", false, "01", false)).getRowRanges())
        .containsExactly(range("", true, "03", true));
  }

  @Test
  void prefixesBecomeRanges() throws IOException {
    MultiRowRangeFilter f = new MultiRowRangeFilter(new byte[][] {b("1"), b("07"), b("\\xFF")});
    assertThat(f.getRowRanges())
        .containsExactly(
            new RowRange(b("07"), true, b("08"), false),
            new RowRange(b("1"), true, b("2"), false),
            new RowRange(b("\\xFF"), true, new byte[0], false));
    assertThat(keys(scan(r, f)))
        .containsExactly("07", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19");
    assertThat(keys(scan(r, new MultiRowRangeFilter(new byte[][] {new byte[0]})))).hasSize(20);
  }

  @Test
  void getsInsideAndOutside() throws IOException {
    assertThat(get(r, "04", filter(range("03", true, "05", false))))
        .isEqualTo("04 f:q@1=04q g:q@1=04q");
    assertThat(get(r, "05", filter(range("03", true, "05", false)))).isNull();
  }

  @Test
  void invalidRangesAreRejected() {
    assertThatThrownBy(() -> filter(range("05", true, "03", false), range("06", true, "07", false)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 invalid range")
        .hasMessageContaining("[05, 03)");
    assertThatThrownBy(() -> filter(range("05", true, "05", false)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new MultiRowRangeFilter(new ArrayList<>()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no ranges");
    assertThatThrownBy(() -> new MultiRowRangeFilter((List<RowRange>) null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new MultiRowRangeFilter(new byte[][] {null}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(range("05", false, "05", true).isValid()).isTrue();
    assertThat(range("", true, "", true).isValid()).isTrue();
  }

  @Test
  void rangeAccessors() {
    RowRange x = new RowRange((String) null, false, "b", true);
    assertThat(x.getStartRow()).isEmpty();
    assertThat(x.isStartRowInclusive()).isFalse();
    assertThat(x.getStopRow()).isEqualTo(b("b"));
    assertThat(x.isStopRowInclusive()).isTrue();
    assertThat(x.contains(b("a"))).isTrue();
    assertThat(x.contains(b("b"))).isTrue();
    assertThat(x.contains(b("b0"))).isFalse();
  }
}
