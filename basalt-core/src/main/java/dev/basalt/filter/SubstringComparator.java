package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import java.util.Locale;

/**
 * Matches (returns 0) when the stored bytes, decoded as UTF-8 and lower-cased, contain the
 * substring, which is lower-cased once here: the match ignores case, as in HBase.
 */
public class SubstringComparator extends ByteArrayComparable {
  private final String substr;

  public SubstringComparator(String substr) {
    super(Bytes.toBytes(requireSubstring(substr).toLowerCase(Locale.ROOT)));
    this.substr = substr.toLowerCase(Locale.ROOT);
  }

  private static String requireSubstring(String s) {
    if (s == null) {
      throw new IllegalArgumentException("SubstringComparator: substring must not be null");
    }
    return s;
  }

  /** The lower-cased substring (what HBase's wire form carries). */
  @Override
  public byte[] getValue() {
    return Bytes.toBytes(substr);
  }

  @Override
  public int compareTo(byte[] stored, int offset, int length) {
    return Bytes.toString(stored, offset, length).toLowerCase(Locale.ROOT).contains(substr) ? 0 : 1;
  }

  @Override
  public String toString() {
    return "SubstringComparator(" + substr + ")";
  }
}
