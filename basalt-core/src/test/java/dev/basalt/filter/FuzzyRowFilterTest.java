package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static dev.basalt.filter.Fixture.put;
import static dev.basalt.filter.Fixture.reversed;
import static dev.basalt.filter.Fixture.scan;
import static dev.basalt.filter.Fixture.scanReversed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FuzzyRowFilterTest {

  private static Map.Entry<byte[], byte[]> key(String key, int... mask) {
    byte[] m = new byte[mask.length];
    for (int i = 0; i < m.length; i++) {
      m[i] = (byte) mask[i];
    }
    return Map.entry(b(key), m);
  }

  @SafeVarargs
  private static FuzzyRowFilter fuzzy(Map.Entry<byte[], byte[]>... keys) {
    return new FuzzyRowFilter(Arrays.asList(keys));
  }

  private static List<String> keys(List<String> results) {
    List<String> out = new ArrayList<>();
    for (String s : results) {
      out.add(s.substring(0, s.indexOf(' ')));
    }
    return out;
  }

  private static Region users() throws IOException {
    Region r = Fixture.memory(1);
    String[] rows = {
      "u1_a_01", "u1_a_02", "u1_b_01", "u2_a_01", "u2_b_01", "u2_b_02", "u3_a_01", "u3_c_07",
      "u9_a_01", "x", "u2", "v1_a_01"
    };
    for (String row : rows) {
      put(r, row + "/f:q@1", row + "/g:q@1");
    }
    return r;
  }

  @Test
  void matchesFixedPositionsAndSeeksBetweenMatches() throws IOException {
    Region r = users();
    Map.Entry<byte[], byte[]> action = key("??_a_01", 1, 1, 0, 0, 0, 0, 0);
    List<String> fwd = keys(scan(r, fuzzy(action)));
    // "u2" and "x" are shorter than the key and match on the bytes they have (HBase's rule).
    assertThat(fwd)
        .containsExactly("u1_a_01", "u2", "u2_a_01", "u3_a_01", "u9_a_01", "v1_a_01", "x");
    assertThat(keys(scanReversed(r, fuzzy(action)))).isEqualTo(reversed(fwd));
    Spy spy = new Spy(fuzzy(action));
    scan(r, spy);
    assertThat(spy.rowsSeen())
        .containsExactly(
            "u1_a_01", "u1_a_02", "u2", "u2_a_01", "u2_b_01", "u3_a_01", "u3_c_07", "u9_a_01",
            "v1_a_01", "x");
    assertThat(spy.hints).isPositive();
  }

  @Test
  void severalKeysMatchTheirUnion() throws IOException {
    Region r = users();
    FuzzyRowFilter f = fuzzy(key("u2_?_??", 0, 0, 0, 1, 0, 1, 1), key("??_c", 1, 1, 0, 0));
    List<String> fwd = keys(scan(r, f));
    assertThat(fwd).containsExactly("u2", "u2_a_01", "u2_b_01", "u2_b_02", "u3_c_07", "x");
    FuzzyRowFilter g = fuzzy(key("u2_?_??", 0, 0, 0, 1, 0, 1, 1), key("??_c", 1, 1, 0, 0));
    assertThat(keys(scanReversed(r, g))).isEqualTo(reversed(fwd));
  }

  @Test
  void endsTheScanWhenNoLaterRowCanMatch() throws IOException {
    Region r = users();
    Spy spy = new Spy(fuzzy(key("u1_a", 0, 0, 0, 0)));
    assertThat(keys(scan(r, spy))).containsExactly("u1_a_01", "u1_a_02");
    assertThat(spy.rowsSeen()).containsExactly("u1_a_01", "u1_a_02", "u1_b_01");
    Spy rev = new Spy(fuzzy(key("u1_a", 0, 0, 0, 0)));
    assertThat(keys(scanReversed(r, rev))).containsExactly("u1_a_02", "u1_a_01");
    // From "x" the greatest possible match starts with "u1_a": the seek lands below "u1_b".
    assertThat(rev.rowsSeen()).containsExactly("x", "u1_a_02", "u1_a_01");
  }

  @Test
  void worksAtTheByteLimits() throws IOException {
    Region r = Fixture.memory(1);
    for (String row :
        new String[] {
          "\\x00",
          "\\x00\\xFF",
          "\\xFE\\xFF",
          "\\xFF",
          "\\xFF\\x00",
          "\\xFF\\xFF",
          "\\xFF\\xFF\\xFF"
        }) {
      put(r, row + "/f:q@1");
    }
    FuzzyRowFilter f = fuzzy(Map.entry(b("\\xFF\\x00"), new byte[] {0, 1}));
    List<String> fwd = keys(scan(r, f));
    assertThat(fwd).containsExactly("\\xFF", "\\xFF\\x00", "\\xFF\\xFF", "\\xFF\\xFF\\xFF");
    assertThat(keys(scanReversed(r, fuzzy(Map.entry(b("\\xFF\\x00"), new byte[] {0, 1})))))
        .isEqualTo(reversed(fwd));
    FuzzyRowFilter g = fuzzy(Map.entry(b("\\x00\\xFF"), new byte[] {1, 0}));
    assertThat(keys(scan(r, g)))
        .containsExactly(
            "\\x00", "\\x00\\xFF", "\\xFE\\xFF", "\\xFF", "\\xFF\\xFF", "\\xFF\\xFF\\xFF");
  }

  @Test
  void acceptsHBasePreprocessedMasksAndReportsPlainOnes() {
    FuzzyRowFilter f = fuzzy(Map.entry(b("ab"), new byte[] {-1, 2}));
    Map.Entry<byte[], byte[]> k = f.getFuzzyKeys().get(0);
    assertThat(k.getKey()).isEqualTo(b("ab"));
    assertThat(k.getValue()).containsExactly(0, 1);
    assertThat(f.filterCell(Fixture.kv("ax", "q"))).isEqualTo(Filter.ReturnCode.INCLUDE);
    assertThat(f.filterCell(Fixture.kv("bx", "q"))).isEqualTo(Filter.ReturnCode.NEXT_ROW);
    assertThat(f.filterAllRemaining()).isTrue();
  }

  @Test
  void badKeysAreRejected() {
    assertThatThrownBy(() -> fuzzy(Map.entry(b("abc"), new byte[] {0, 1})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3 bytes")
        .hasMessageContaining("has 2");
    assertThatThrownBy(() -> fuzzy(Map.entry(b("ab"), new byte[] {0, 5})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mask byte 1");
    assertThatThrownBy(() -> new FuzzyRowFilter(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FuzzyRowFilter(Arrays.asList((Map.Entry<byte[], byte[]>) null)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void noKeysMatchNothing() throws IOException {
    assertThat(scan(users(), new FuzzyRowFilter(new ArrayList<>()))).isEmpty();
    assertThat(Bytes.toStringBinary(b("x"))).isEqualTo("x");
  }
}
