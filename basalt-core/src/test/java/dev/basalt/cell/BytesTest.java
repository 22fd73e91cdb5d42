package dev.basalt.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class BytesTest {

  private static byte[] b(int... v) {
    byte[] out = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) v[i];
    }
    return out;
  }

  // ---- numbers ------------------------------------------------------------------------------

  @Test
  void indexOfFindsTheFirstAndLastOccurrence() {
    byte[] name = Bytes.toBytes("t,start,1.abc");
    assertThat(Bytes.indexOf(name, (byte) ',', 0)).isEqualTo(1);
    assertThat(Bytes.indexOf(name, (byte) ',', 2)).isEqualTo(7);
    assertThat(Bytes.indexOf(name, (byte) ',', 8)).isEqualTo(-1);
    assertThat(Bytes.lastIndexOf(name, (byte) ',')).isEqualTo(7);
    assertThat(Bytes.lastIndexOf(Bytes.EMPTY, (byte) ',')).isEqualTo(-1);
  }

  @Test
  void longIsEightBytesBigEndian() {
    assertThat(Bytes.toBytes(0x0102030405060708L)).containsExactly(b(1, 2, 3, 4, 5, 6, 7, 8));
    assertThat(Bytes.toBytes(-1L))
        .containsExactly(b(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF));
    assertThat(Bytes.toBytes(Long.MIN_VALUE)).containsExactly(b(0x80, 0, 0, 0, 0, 0, 0, 0));
  }

  @Test
  void longRoundTrips() {
    for (long v :
        new long[] {0, 1, -1, 255, 256, -256, Long.MAX_VALUE, Long.MIN_VALUE, 0x1234_5678_9ABCL}) {
      assertThat(Bytes.toLong(Bytes.toBytes(v))).isEqualTo(v);
    }
  }

  @Property(tries = 200)
  void anyLongRoundTrips(@ForAll long v) {
    assertThat(Bytes.toLong(Bytes.toBytes(v))).isEqualTo(v);
    byte[] padded = new byte[12];
    Bytes.putLong(padded, 3, v);
    assertThat(Bytes.toLong(padded, 3, 8)).isEqualTo(v);
    assertThat(Bytes.readLong(padded, 3)).isEqualTo(v);
  }

  @Test
  void intRoundTrips() {
    assertThat(Bytes.toBytes(0x01020304)).containsExactly(b(1, 2, 3, 4));
    assertThat(Bytes.toBytes(-2)).containsExactly(b(0xFF, 0xFF, 0xFF, 0xFE));
    for (int v : new int[] {0, 1, -1, 128, -129, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      assertThat(Bytes.toInt(Bytes.toBytes(v))).isEqualTo(v);
    }
    byte[] padded = new byte[7];
    Bytes.putInt(padded, 2, -123456);
    assertThat(Bytes.toInt(padded, 2, 4)).isEqualTo(-123456);
  }

  @Test
  void shortRoundTrips() {
    assertThat(Bytes.toBytes((short) 0x0102)).containsExactly(b(1, 2));
    assertThat(Bytes.toBytes((short) -1)).containsExactly(b(0xFF, 0xFF));
    for (short v : new short[] {0, 1, -1, 255, -256, Short.MAX_VALUE, Short.MIN_VALUE}) {
      assertThat(Bytes.toShort(Bytes.toBytes(v))).isEqualTo(v);
    }
    byte[] padded = new byte[5];
    Bytes.putShort(padded, 1, (short) -300);
    assertThat(Bytes.readShort(padded, 1)).isEqualTo((short) -300);
  }

  @Test
  void doubleAndFloatRoundTrip() {
    for (double v :
        new double[] {0.0, -0.0, 1.5, -1.5, Double.MAX_VALUE, -Double.MIN_VALUE, Double.NaN}) {
      assertThat(Bytes.toBytes(v)).hasSize(8);
      assertThat(Double.doubleToRawLongBits(Bytes.toDouble(Bytes.toBytes(v))))
          .isEqualTo(Double.doubleToRawLongBits(v));
    }
    for (float v : new float[] {0f, -0f, 3.25f, -3.25f, Float.MAX_VALUE, Float.NEGATIVE_INFINITY}) {
      assertThat(Bytes.toBytes(v)).hasSize(4);
      assertThat(Float.floatToRawIntBits(Bytes.toFloat(Bytes.toBytes(v))))
          .isEqualTo(Float.floatToRawIntBits(v));
    }
    // HBase's encoding: the IEEE bits, big-endian.
    assertThat(Bytes.toBytes(1.0d)).containsExactly(b(0x3F, 0xF0, 0, 0, 0, 0, 0, 0));
    assertThat(Bytes.toBytes(-2.0f)).containsExactly(b(0xC0, 0, 0, 0));
  }

  @Test
  void booleanRoundTrips() {
    assertThat(Bytes.toBytes(true)).containsExactly(b(0xFF));
    assertThat(Bytes.toBytes(false)).containsExactly(b(0));
    assertThat(Bytes.toBoolean(Bytes.toBytes(true))).isTrue();
    assertThat(Bytes.toBoolean(Bytes.toBytes(false))).isFalse();
    assertThat(Bytes.toBoolean(b(1))).isTrue();
  }

  @Test
  void stringRoundTripsAsUtf8() {
    assertThat(Bytes.toBytes("héllo")).containsExactly(b('h', 0xC3, 0xA9, 'l', 'l', 'o'));
    for (String s : new String[] {"", "abc", "héllo wörld", "日本語", "emoji \uD83D\uDE00"}) {
      assertThat(Bytes.toString(Bytes.toBytes(s))).isEqualTo(s);
    }
    byte[] mid = Bytes.toBytes("xxabcxx");
    assertThat(Bytes.toString(mid, 2, 3)).isEqualTo("abc");
    assertThat(Bytes.toString(null)).isNull();
  }

  @Test
  void bigDecimalUsesHBaseEncoding() {
    BigDecimal v = new BigDecimal("-123.45"); // unscaled -12345, scale 2
    byte[] expected =
        Bytes.concat(Bytes.toBytes(2), BigInteger.valueOf(-12345).toByteArray()); // CF C7
    assertThat(Bytes.toBytes(v)).containsExactly(expected);
    assertThat(Bytes.toBytes(v)).containsExactly(b(0, 0, 0, 2, 0xCF, 0xC7));
    // Negative scale.
    BigDecimal big = new BigDecimal(BigInteger.valueOf(7), -3); // 7E+3
    assertThat(Bytes.toBytes(big)).containsExactly(b(0xFF, 0xFF, 0xFF, 0xFD, 7));
  }

  @Test
  void bigDecimalRoundTrips() {
    for (String s :
        new String[] {
          "0", "1", "-1", "0.001", "-0.001", "123456789012345678901234567890.123456789",
          "-99999999999999999999999999", "1E+10", "-4.2E-20", "128", "-128", "255"
        }) {
      BigDecimal v = new BigDecimal(s);
      BigDecimal back = Bytes.toBigDecimal(Bytes.toBytes(v));
      assertThat(back).isEqualTo(v); // equals: same unscaled value and same scale
    }
  }

  @Test
  void widthErrorsNameTheWidth() {
    assertThatThrownBy(() -> Bytes.toLong(new byte[4]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("long")
        .hasMessageContaining("4 bytes");
    assertThatThrownBy(() -> Bytes.toLong(new byte[10], 0, 9))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("9 bytes");
    assertThatThrownBy(() -> Bytes.toInt(new byte[8]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("int")
        .hasMessageContaining("8 bytes");
    assertThatThrownBy(() -> Bytes.toShort(new byte[3]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("short")
        .hasMessageContaining("3 bytes");
    assertThatThrownBy(() -> Bytes.toBoolean(new byte[2]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("boolean")
        .hasMessageContaining("2 bytes");
    assertThatThrownBy(() -> Bytes.toBoolean(Bytes.EMPTY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 bytes");
    assertThatThrownBy(() -> Bytes.toDouble(new byte[4]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("4 bytes");
    assertThatThrownBy(() -> Bytes.toFloat(new byte[8]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("8 bytes");
    assertThatThrownBy(() -> Bytes.toBigDecimal(new byte[4]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BigDecimal")
        .hasMessageContaining("4 bytes");
  }

  // ---- comparison ---------------------------------------------------------------------------

  @Test
  void comparisonIsUnsigned() {
    // 0x80..0xFF sort after 0x00..0x7F (they would sort first if bytes were signed).
    assertThat(Bytes.compareTo(b(0x80), b(0x7F))).isPositive();
    assertThat(Bytes.compareTo(b(0xFF), b(0x00))).isPositive();
    assertThat(Bytes.compareTo(b(0x00), b(0xFF))).isNegative();
    assertThat(Bytes.compareTo(b(0x7F), b(0x80))).isNegative();
    assertThat(Bytes.compareTo(b(1, 0x80), b(1, 0x01))).isPositive();
    assertThat(Bytes.compareTo(b(0xAB), b(0xAB))).isZero();
    assertThat(Bytes.COMPARATOR.compare(b(0x90), b(0x10))).isPositive();
  }

  @Test
  void properPrefixSortsFirst() {
    assertThat(Bytes.compareTo(Bytes.EMPTY, b(0))).isNegative();
    assertThat(Bytes.compareTo(b(1, 2), b(1, 2, 0))).isNegative();
    assertThat(Bytes.compareTo(b(1, 2, 0), b(1, 2))).isPositive();
    assertThat(Bytes.compareTo(b(1, 2, 0xFF), b(1, 3))).isNegative();
    assertThat(Bytes.compareTo(Bytes.EMPTY, Bytes.EMPTY)).isZero();
  }

  @Test
  void rangeComparisonAndEquality() {
    byte[] x = b(9, 1, 2, 3, 9);
    byte[] y = b(1, 2, 3);
    assertThat(Bytes.compareTo(x, 1, 3, y, 0, 3)).isZero();
    assertThat(Bytes.compareTo(x, 1, 2, y, 0, 3)).isNegative();
    assertThat(Bytes.compareTo(x, 0, 1, y, 0, 1)).isPositive();
    assertThat(Bytes.equals(x, 1, 3, y, 0, 3)).isTrue();
    assertThat(Bytes.equals(x, 1, 2, y, 0, 3)).isFalse();
    assertThat(Bytes.equals(b(1, 2), b(1, 2))).isTrue();
    assertThat(Bytes.equals(b(1, 2), b(1, 3))).isFalse();
    assertThat(Bytes.hashCode(x, 1, 3)).isEqualTo(Bytes.hashCode(y, 0, 3));
  }

  @Property(tries = 300)
  void comparisonMatchesUnsignedIntegers(@ForAll byte x, @ForAll byte y) {
    assertThat(Integer.signum(Bytes.compareTo(new byte[] {x}, new byte[] {y})))
        .isEqualTo(Integer.signum(Integer.compare(x & 0xFF, y & 0xFF)));
  }

  @Test
  void startsWith() {
    assertThat(Bytes.startsWith(b(1, 2, 3), b(1, 2))).isTrue();
    assertThat(Bytes.startsWith(b(1, 2, 3), Bytes.EMPTY)).isTrue();
    assertThat(Bytes.startsWith(b(1, 2), b(1, 2, 3))).isFalse();
    assertThat(Bytes.startsWith(b(1, 2, 3), b(1, 3))).isFalse();
  }

  // ---- keys ---------------------------------------------------------------------------------

  @Test
  void nextRowAppendsAZeroByte() {
    assertThat(Bytes.nextRow(b('a', 'b'))).containsExactly(b('a', 'b', 0));
    assertThat(Bytes.nextRow(Bytes.EMPTY)).containsExactly(b(0));
    byte[] row = b(0xFF);
    assertThat(Bytes.nextRow(row)).containsExactly(b(0xFF, 0));
    assertThat(row).containsExactly(b(0xFF)); // input untouched
  }

  @Property(tries = 300)
  void nextRowIsTheImmediateSuccessor(@ForAll @Size(max = 8) byte[] row, @ForAll byte[] other) {
    byte[] next = Bytes.nextRow(row);
    assertThat(Bytes.compareTo(next, row)).isPositive();
    // Nothing sorts strictly between row and nextRow(row).
    boolean between = Bytes.compareTo(other, row) > 0 && Bytes.compareTo(other, next) < 0;
    assertThat(between).isFalse();
  }

  @Test
  void prefixEnd() {
    assertThat(Bytes.prefixEnd(b('a', 'b'))).containsExactly(b('a', 'c'));
    assertThat(Bytes.prefixEnd(b(1, 0x7F))).containsExactly(b(1, 0x80));
    // Trailing 0xFF bytes are dropped and the last byte before them incremented.
    assertThat(Bytes.prefixEnd(b(1, 0xFF))).containsExactly(b(2));
    assertThat(Bytes.prefixEnd(b('a', 0xFE, 0xFF, 0xFF))).containsExactly(b('a', 0xFF));
    // No upper bound for the empty prefix and for all-0xFF prefixes.
    assertThat(Bytes.prefixEnd(Bytes.EMPTY)).isEmpty();
    assertThat(Bytes.prefixEnd(b(0xFF))).isEmpty();
    assertThat(Bytes.prefixEnd(b(0xFF, 0xFF, 0xFF))).isEmpty();
    byte[] p = b(1, 0xFF);
    Bytes.prefixEnd(p);
    assertThat(p).containsExactly(b(1, 0xFF)); // input untouched
  }

  @Property(tries = 500)
  void prefixEndBoundsExactlyTheKeysWithThePrefix(
      @ForAll @Size(max = 4) byte[] prefix, @ForAll @Size(max = 6) byte[] key) {
    byte[] end = Bytes.prefixEnd(prefix);
    boolean belowEnd = end.length == 0 || Bytes.compareTo(key, end) < 0;
    boolean inRange = Bytes.compareTo(key, prefix) >= 0 && belowEnd;
    assertThat(inRange).isEqualTo(Bytes.startsWith(key, prefix));
  }

  // ---- building -----------------------------------------------------------------------------

  @Test
  void concatAndCopy() {
    assertThat(Bytes.concat(b(1), Bytes.EMPTY, b(2, 3))).containsExactly(b(1, 2, 3));
    assertThat(Bytes.concat()).isEmpty();
    assertThat(Bytes.copy(b(1, 2, 3, 4), 1, 2)).containsExactly(b(2, 3));
  }

  // ---- printing -----------------------------------------------------------------------------

  @Test
  void toStringBinaryEscapesNonPrintableBytesAndBackslash() {
    assertThat(Bytes.toStringBinary(b('a', 0, 'Z', 0x7F, 0xFF, ' ', '~', '\\')))
        .isEqualTo("a\\x00Z\\x7F\\xFF ~\\x5C");
    assertThat(Bytes.toStringBinary(b(0x0A, 0x80))).isEqualTo("\\x0A\\x80");
    assertThat(Bytes.toStringBinary(b('x', 'y', 'z'), 1, 2)).isEqualTo("yz");
    assertThat(Bytes.toStringBinary(null)).isEqualTo("null");
  }

  @Test
  void toBytesBinaryParsesEscapes() {
    assertThat(Bytes.toBytesBinary("a\\x00Z\\xff\\xAB"))
        .containsExactly(b('a', 0, 'Z', 0xFF, 0xAB));
    assertThat(Bytes.toBytesBinary("")).isEmpty();
    // A backslash not followed by 'x' is an ordinary character.
    assertThat(Bytes.toBytesBinary("a\\b")).containsExactly(b('a', '\\', 'b'));
    assertThat(Bytes.toBytesBinary("é")).containsExactly(b(0xC3, 0xA9));
  }

  @Test
  void malformedEscapesNameThePosition() {
    assertThatThrownBy(() -> Bytes.toBytesBinary("ab\\x4"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 2");
    assertThatThrownBy(() -> Bytes.toBytesBinary("\\x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 0");
    assertThatThrownBy(() -> Bytes.toBytesBinary("abc\\xZ1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 3");
    assertThatThrownBy(() -> Bytes.toBytesBinary("\\x00\\x1g"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 4");
  }

  @Test
  void nonAsciiDigitsAreNotHexDigits() {
    // Character.digit accepts e.g. Arabic-Indic and full-width digits; an escape must not.
    assertThatThrownBy(() -> Bytes.toBytesBinary("\\x\u0663\u0663"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 0");
    assertThatThrownBy(() -> Bytes.toBytesBinary("q\\x1\uFF21"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 1");
  }

  @Property(tries = 500)
  void toStringBinaryRoundTrips(@ForAll @Size(max = 40) byte[] bytes) {
    String s = Bytes.toStringBinary(bytes);
    assertThat(s).matches("[\\x20-\\x7E]*");
    assertThat(Bytes.toBytesBinary(s)).containsExactly(bytes);
  }

  @Property(tries = 300)
  void toBytesBinaryOfPrintableAsciiIsIdentityExceptEscapes(
      @ForAll @Size(max = 30)
          List<@net.jqwik.api.constraints.CharRange(from = ' ', to = '~') Character> chars) {
    StringBuilder sb = new StringBuilder();
    List<Byte> expected = new ArrayList<>();
    for (char c : chars) {
      if (c == '\\') {
        continue; // would start an escape
      }
      sb.append(c);
      expected.add((byte) c);
    }
    byte[] out = Bytes.toBytesBinary(sb.toString());
    assertThat(out).hasSize(expected.size());
    for (int i = 0; i < out.length; i++) {
      assertThat(out[i]).isEqualTo(expected.get(i));
    }
  }
}
