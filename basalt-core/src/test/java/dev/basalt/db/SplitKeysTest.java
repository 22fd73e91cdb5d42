package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Split keys checked and computed as HBase's Admin does. */
class SplitKeysTest {
  private static List<String> show(byte[][] keys) {
    List<String> out = new ArrayList<>();
    for (byte[] k : keys) {
      out.add(Bytes.toStringBinary(k));
    }
    return out;
  }

  @Test
  void explicitKeysAreSortedAndCopied() {
    byte[] c = Bytes.toBytes("c");
    byte[][] out = SplitKeys.check(new byte[][] {c, Bytes.toBytes("a"), Bytes.toBytes("b")});
    assertThat(show(out)).containsExactly("a", "b", "c");
    c[0] = 'x';
    assertThat(show(out)).containsExactly("a", "b", "c");
    assertThat(SplitKeys.check(null).length).isZero();
  }

  @Test
  void badKeysAreRefused() {
    assertThatThrownBy(() -> SplitKeys.check(new byte[][] {new byte[0]}))
        .hasMessageContaining("Empty split key");
    assertThatThrownBy(() -> SplitKeys.check(new byte[][] {{1}, {1}}))
        .hasMessageContaining("duplicate: \\x01");
    assertThatThrownBy(() -> SplitKeys.check(new byte[][] {new byte[40_000]}))
        .hasMessageContaining("a row key is at most");
  }

  @Test
  void aRangeSplitsEvenlyAsHBaseBytesSplitDoes() {
    // Bytes.split("a", "z", 1) in HBase: a, m, z.
    assertThat(show(SplitKeys.split(Bytes.toBytes("a"), Bytes.toBytes("z"), 1)))
        .containsExactly("a", "m", "z");
    // A range too narrow gets a zero byte more, its ends too (as in HBase).
    assertThat(show(SplitKeys.split(Bytes.toBytes("a"), Bytes.toBytes("b"), 1)))
        .containsExactly("a\\x00", "a\\x80", "b\\x00");
    assertThat(show(SplitKeys.split(new byte[] {0}, new byte[] {0, 4}, 3)))
        .containsExactly("\\x00", "\\x00\\x01", "\\x00\\x02", "\\x00\\x03", "\\x00\\x04");
    byte[][] ten = SplitKeys.between(Bytes.toBytes("0000"), Bytes.toBytes("9999"), 10);
    assertThat(ten.length).isEqualTo(9);
    assertThat(show(ten)).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void aRangeNeedsThreeRegionsAndAnOrderedRange() {
    assertThatThrownBy(() -> SplitKeys.between(Bytes.toBytes("a"), Bytes.toBytes("b"), 2))
        .hasMessageContaining("at least three regions");
    assertThatThrownBy(() -> SplitKeys.between(Bytes.toBytes("b"), Bytes.toBytes("a"), 3))
        .hasMessageContaining("Start key must be smaller than end key");
    assertThatThrownBy(() -> SplitKeys.between(null, null, 3))
        .hasMessageContaining("Start key must be smaller than end key");
  }
}
