package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyNamesTest {
  /** FNV-1a written from its definition, over the little-endian bytes, in arbitrary precision. */
  private static long referenceFnv(long value) {
    BigInteger mod = BigInteger.ONE.shiftLeft(64);
    BigInteger hash = new BigInteger("cbf29ce484222325", 16);
    BigInteger prime = BigInteger.valueOf(1099511628211L);
    for (int i = 0; i < 8; i++) {
      long octet = (value >> (8 * i)) & 0xFF;
      hash = hash.xor(BigInteger.valueOf(octet)).multiply(prime).mod(mod);
    }
    return Math.abs(hash.longValue());
  }

  @Test
  void fnvMatchesItsDefinition() {
    for (long v : new long[] {0, 1, 2, 255, 256, 99_999, 1L << 40, Long.MAX_VALUE}) {
      assertThat(KeyNames.fnv64(v)).as("fnv(%d)", v).isEqualTo(referenceFnv(v));
    }
  }

  @Test
  void rowKeysAreUserAndTheHashedNumber() {
    assertThat(KeyNames.rowKey(7)).isEqualTo("user" + referenceFnv(7));
    assertThat(new String(KeyNames.rowKeyBytes(7), StandardCharsets.UTF_8))
        .isEqualTo(KeyNames.rowKey(7));
    assertThat(KeyNames.rowKey(1)).isNotEqualTo(KeyNames.rowKey(2));
  }

  @Test
  void fieldNames() {
    byte[][] f = KeyNames.fieldNames(3);
    assertThat(new String(f[0], StandardCharsets.UTF_8)).isEqualTo("field0");
    assertThat(new String(f[2], StandardCharsets.UTF_8)).isEqualTo("field2");
  }

  @Test
  void splitPointsAreSortedAndOneFewerThanRegions() {
    assertThat(KeyNames.splitPoints(1)).isEmpty();
    byte[][] s = KeyNames.splitPoints(4);
    assertThat(s.length).isEqualTo(3);
    assertThat(new String(s[0], StandardCharsets.UTF_8)).isEqualTo("user3249");
    assertThat(new String(s[2], StandardCharsets.UTF_8)).isEqualTo("user7749");
    for (int i = 1; i < s.length; i++) {
      assertThat(new String(s[i], StandardCharsets.UTF_8))
          .isGreaterThan(new String(s[i - 1], StandardCharsets.UTF_8));
    }
  }
}
