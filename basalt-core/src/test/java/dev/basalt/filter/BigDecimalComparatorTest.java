package dev.basalt.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class BigDecimalComparatorTest {
  private static int cmp(String value, String stored) {
    byte[] b = Bytes.toBytes(new BigDecimal(stored));
    byte[] padded = new byte[b.length + 3];
    System.arraycopy(b, 0, padded, 2, b.length);
    return new BigDecimalComparator(new BigDecimal(value)).compareTo(padded, 2, b.length);
  }

  @Test
  void comparesByValueNotByScale() {
    assertThat(cmp("1.0", "1.00")).isZero();
    assertThat(cmp("2", "10")).isNegative();
    assertThat(cmp("-1.5", "-2")).isPositive();
  }

  @Test
  void valuesThatAreNotBigDecimalsAreNamedErrors() {
    assertThatThrownBy(() -> new BigDecimalComparator(BigDecimal.ONE).compareTo(new byte[3]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BigDecimal");
    assertThatThrownBy(() -> new BigDecimalComparator(null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
