package dev.basalt.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fuzzy seek targets against brute force: over every row of a small byte alphabet, no matching
 * row may lie strictly between a row and its target.
 */
class FuzzyKeyTest {
  private static final byte[] ALPHABET = {0x00, 0x01, 0x7F, (byte) 0xFE, (byte) 0xFF};
  private static final byte[] KEY_BYTES = {0x00, 0x7F, (byte) 0xFF};

  private static List<byte[]> all(byte[] alphabet, int maxLen) {
    List<byte[]> out = new ArrayList<>();
    List<byte[]> layer = new ArrayList<>();
    layer.add(new byte[0]);
    for (int len = 1; len <= maxLen; len++) {
      List<byte[]> next = new ArrayList<>();
      for (byte[] p : layer) {
        for (byte c : alphabet) {
          byte[] n = java.util.Arrays.copyOf(p, len);
          n[len - 1] = c;
          next.add(n);
        }
      }
      out.addAll(next);
      layer = next;
    }
    out.sort(Bytes.COMPARATOR);
    return out;
  }

  @Test
  void targetsAreExactForEveryRowAndKey() {
    List<byte[]> rows = all(ALPHABET, 3);
    int checked = 0;
    for (byte[] key : all(KEY_BYTES, 3)) {
      for (int bits = 0; bits < (1 << key.length); bits++) {
        byte[] mask = new byte[key.length];
        for (int i = 0; i < key.length; i++) {
          mask[i] = (byte) ((bits >> i) & 1);
        }
        FuzzyKey k = FuzzyKey.of(key, mask);
        boolean[] matches = new boolean[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
          matches[i] = naiveMatch(rows.get(i), key, mask);
          assertThat(k.mismatch(rows.get(i), 0, rows.get(i).length) < 0).isEqualTo(matches[i]);
        }
        for (int i = 0; i < rows.size(); i++) {
          byte[] row = rows.get(i);
          int f = k.mismatch(row, 0, row.length);
          if (f < 0) {
            continue;
          }
          byte[] next = k.nextAfter(row, 0, f);
          byte[] below = k.seekBelow(row, 0, f);
          for (int j = 0; j < rows.size(); j++) {
            if (!matches[j]) {
              continue;
            }
            byte[] m = rows.get(j);
            if (Bytes.compareTo(m, row) > 0) {
              assertThat(next).as("a later match exists: %s", Bytes.toStringBinary(m)).isNotNull();
              assertThat(Bytes.compareTo(m, next))
                  .as("match %s before target", Bytes.toStringBinary(m))
                  .isGreaterThanOrEqualTo(0);
            } else {
              assertThat(below).isNotNull();
              assertThat(Bytes.compareTo(m, below))
                  .as("match %s above target", Bytes.toStringBinary(m))
                  .isLessThanOrEqualTo(0);
            }
          }
          if (next != null) {
            assertThat(naiveMatch(next, key, mask)).isTrue();
            assertThat(Bytes.compareTo(next, row)).isPositive();
          }
          if (below != null) {
            assertThat(Bytes.compareTo(below, row)).isLessThanOrEqualTo(0);
          }
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(10_000);
  }

  private static boolean naiveMatch(byte[] row, byte[] key, byte[] mask) {
    for (int i = 0; i < row.length && i < key.length; i++) {
      if (mask[i] == 0 && row[i] != key[i]) {
        return false;
      }
    }
    return true;
  }
}
