package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Compares the value with stored bytes read as a BigDecimal in HBase's encoding (scale as 4 bytes,
 * then the unscaled value). As in HBase, numbers compare by value ({@code 1.0} equals {@code
 * 1.00}); stored bytes that are not a BigDecimal are an error ({@link IllegalArgumentException}),
 * which fails the read rather than silently skipping the cell.
 */
public class BigDecimalComparator extends ByteArrayComparable {
  private final BigDecimal decimal;

  public BigDecimalComparator(BigDecimal value) {
    super(Bytes.toBytes(requireValue(value)));
    this.decimal = value;
  }

  private static BigDecimal requireValue(BigDecimal value) {
    if (value == null) {
      throw new IllegalArgumentException("BigDecimalComparator: value must not be null");
    }
    return value;
  }

  @Override
  public int compareTo(byte[] stored, int offset, int length) {
    return decimal.compareTo(
        Bytes.toBigDecimal(Arrays.copyOfRange(stored, offset, offset + length)));
  }

  @Override
  public String toString() {
    return "BigDecimalComparator(" + decimal.toPlainString() + ")";
  }
}
