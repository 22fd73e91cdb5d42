package dev.basalt.cell;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Byte-array helpers with HBase's encodings: big-endian numbers, UTF-8 strings, BigDecimal as a
 * 4-byte scale followed by the unscaled value's two's-complement bytes, and unsigned lexicographic
 * comparison (the order of row keys, families and qualifiers).
 */
public final class Bytes {
  public static final byte[] EMPTY = new byte[0];

  /** Unsigned lexicographic order over whole arrays. */
  public static final Comparator<byte[]> COMPARATOR = Bytes::compareTo;

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  // Big-endian views of byte arrays: one bounds check and one (unaligned) load or store per number
  // instead of one per byte; C2 on JDK 17 does not merge byte accesses. Key lengths, row lengths
  // and timestamps are read several times per cell on every scan and comparison.
  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private Bytes() {}

  // ---- search -------------------------------------------------------------------------------

  /** The first index at or after {@code from} holding {@code value}, or -1. */
  public static int indexOf(byte[] b, byte value, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == value) {
        return i;
      }
    }
    return -1;
  }

  /** The last index holding {@code value}, or -1. */
  public static int lastIndexOf(byte[] b, byte value) {
    for (int i = b.length - 1; i >= 0; i--) {
      if (b[i] == value) {
        return i;
      }
    }
    return -1;
  }

  // ---- comparison ---------------------------------------------------------------------------

  /** Unsigned lexicographic comparison; a proper prefix sorts first. */
  public static int compareTo(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** Unsigned lexicographic comparison of two ranges. */
  public static int compareTo(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return Arrays.compareUnsigned(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
  }

  public static boolean equals(byte[] a, byte[] b) {
    return Arrays.equals(a, b);
  }

  public static boolean equals(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return aLen == bLen && Arrays.equals(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
  }

  public static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  public static int hashCode(byte[] a, int off, int len) {
    int h = 1;
    for (int i = off; i < off + len; i++) {
      h = 31 * h + a[i];
    }
    return h;
  }

  // ---- keys ---------------------------------------------------------------------------------

  /**
   * The smallest row key that sorts after {@code row}: {@code row} followed by a zero byte. Used to
   * turn an inclusive bound into an exclusive one and to seek past a row.
   */
  public static byte[] nextRow(byte[] row) {
    return Arrays.copyOf(row, row.length + 1);
  }

  /**
   * The smallest key that sorts after every key starting with {@code prefix}, or the empty array
   * (meaning "no upper bound") when the prefix is empty or all 0xFF bytes.
   */
  public static byte[] prefixEnd(byte[] prefix) {
    int i = prefix.length - 1;
    while (i >= 0 && prefix[i] == (byte) 0xFF) {
      i--;
    }
    if (i < 0) {
      return EMPTY;
    }
    byte[] end = Arrays.copyOf(prefix, i + 1);
    end[i]++;
    return end;
  }

  // ---- building -----------------------------------------------------------------------------

  public static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int pos = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, pos, p.length);
      pos += p.length;
    }
    return out;
  }

  public static byte[] copy(byte[] a, int off, int len) {
    return Arrays.copyOfRange(a, off, off + len);
  }

  // ---- numbers ------------------------------------------------------------------------------

  public static byte[] toBytes(long v) {
    byte[] b = new byte[8];
    putLong(b, 0, v);
    return b;
  }

  public static byte[] toBytes(int v) {
    byte[] b = new byte[4];
    putInt(b, 0, v);
    return b;
  }

  public static byte[] toBytes(short v) {
    return new byte[] {(byte) (v >>> 8), (byte) v};
  }

  public static byte[] toBytes(double v) {
    return toBytes(Double.doubleToRawLongBits(v));
  }

  public static byte[] toBytes(float v) {
    return toBytes(Float.floatToRawIntBits(v));
  }

  public static byte[] toBytes(boolean v) {
    return new byte[] {v ? (byte) -1 : (byte) 0};
  }

  public static byte[] toBytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** HBase's BigDecimal encoding: the scale as 4 bytes, then the unscaled value's bytes. */
  public static byte[] toBytes(BigDecimal v) {
    byte[] unscaled = v.unscaledValue().toByteArray();
    byte[] out = new byte[4 + unscaled.length];
    putInt(out, 0, v.scale());
    System.arraycopy(unscaled, 0, out, 4, unscaled.length);
    return out;
  }

  public static int putLong(byte[] b, int off, long v) {
    LONG.set(b, off, v);
    return off + 8;
  }

  public static int putInt(byte[] b, int off, int v) {
    INT.set(b, off, v);
    return off + 4;
  }

  public static int putShort(byte[] b, int off, short v) {
    SHORT.set(b, off, v);
    return off + 2;
  }

  public static long toLong(byte[] b) {
    return toLong(b, 0, b.length);
  }

  /**
   * Reads an 8-byte big-endian long.
   *
   * @throws IllegalArgumentException when {@code len} is not 8, naming the actual width
   */
  public static long toLong(byte[] b, int off, int len) {
    if (len != 8) {
      throw new IllegalArgumentException("not a long: value is " + len + " bytes wide, not 8");
    }
    return readLong(b, off);
  }

  /** Reads 8 bytes at {@code off} as a big-endian long, without a width check. */
  public static long readLong(byte[] b, int off) {
    return (long) LONG.get(b, off);
  }

  public static int toInt(byte[] b) {
    return toInt(b, 0, b.length);
  }

  public static int toInt(byte[] b, int off, int len) {
    if (len != 4) {
      throw new IllegalArgumentException("not an int: value is " + len + " bytes wide, not 4");
    }
    return readInt(b, off);
  }

  public static int readInt(byte[] b, int off) {
    return (int) INT.get(b, off);
  }

  public static short toShort(byte[] b) {
    if (b.length != 2) {
      throw new IllegalArgumentException("not a short: value is " + b.length + " bytes wide");
    }
    return readShort(b, 0);
  }

  public static short readShort(byte[] b, int off) {
    return (short) SHORT.get(b, off);
  }

  public static double toDouble(byte[] b) {
    if (b.length != 8) {
      throw new IllegalArgumentException(
          "not a double: value is " + b.length + " bytes wide, not 8");
    }
    return Double.longBitsToDouble(readLong(b, 0));
  }

  public static float toFloat(byte[] b) {
    if (b.length != 4) {
      throw new IllegalArgumentException(
          "not a float: value is " + b.length + " bytes wide, not 4");
    }
    return Float.intBitsToFloat(readInt(b, 0));
  }

  public static boolean toBoolean(byte[] b) {
    if (b.length != 1) {
      throw new IllegalArgumentException("not a boolean: value is " + b.length + " bytes wide");
    }
    return b[0] != 0;
  }

  public static String toString(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  public static String toString(byte[] b, int off, int len) {
    return new String(b, off, len, StandardCharsets.UTF_8);
  }

  public static BigDecimal toBigDecimal(byte[] b) {
    if (b.length < 5) {
      throw new IllegalArgumentException(
          "not a BigDecimal: needs a 4-byte scale and at least one value byte, got "
              + b.length
              + " bytes");
    }
    int scale = readInt(b, 0);
    return new BigDecimal(new BigInteger(Arrays.copyOfRange(b, 4, b.length)), scale);
  }

  // ---- printing -----------------------------------------------------------------------------

  public static String toStringBinary(byte[] b) {
    return b == null ? "null" : toStringBinary(b, 0, b.length);
  }

  /**
   * Printable ASCII as is, everything else as {@code \xNN}: the form the HBase shell prints and
   * accepts.
   */
  public static String toStringBinary(byte[] b, int off, int len) {
    StringBuilder sb = new StringBuilder(len);
    for (int i = off; i < off + len; i++) {
      int ch = b[i] & 0xff;
      if (ch >= ' ' && ch <= '~' && ch != '\\') {
        sb.append((char) ch);
      } else {
        sb.append("\\x").append(HEX[ch >>> 4]).append(HEX[ch & 0xf]);
      }
    }
    return sb.toString();
  }

  /**
   * The inverse of {@link #toStringBinary(byte[])}: {@code \xNN} escapes become bytes, other
   * characters their UTF-8 encoding.
   *
   * @throws IllegalArgumentException on a malformed escape, naming its position
   */
  public static byte[] toBytesBinary(String s) {
    byte[] out = new byte[s.length()];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == 'x') {
        if (i + 3 >= s.length()) {
          throw new IllegalArgumentException("truncated \\x escape at position " + i + " in " + s);
        }
        int hi = hexDigit(s.charAt(i + 2));
        int lo = hexDigit(s.charAt(i + 3));
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("bad \\x escape at position " + i + " in " + s);
        }
        out[n++] = (byte) ((hi << 4) | lo);
        i += 3;
      } else if (c >= 0x80) {
        int cp = s.codePointAt(i);
        i += Character.charCount(cp) - 1;
        byte[] enc = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        if (n + enc.length > out.length) {
          out = Arrays.copyOf(out, out.length + enc.length + 16);
        }
        System.arraycopy(enc, 0, out, n, enc.length);
        n += enc.length;
      } else {
        out[n++] = (byte) c;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** The value of an ASCII hex digit, or -1 (Character.digit also accepts non-ASCII digits). */
  private static int hexDigit(char c) {
    return c < 0x80 ? Character.digit(c, 16) : -1;
  }
}
