package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Matches (returns 0) when the regular expression is found anywhere in the stored bytes decoded
 * with the comparator's charset (UTF-8 unless {@link #setCharset} says otherwise; ISO-8859-1 maps
 * arbitrary bytes one to one). As in HBase the default flags are {@link Pattern#DOTALL}, and the
 * match is a search ({@code find}), not a whole-string match: anchor with {@code ^...$} for that.
 *
 * <p>Only the JAVA engine ({@code java.util.regex}) exists; asking for JONI is rejected. The
 * charset is mutable, so an instance must not be shared between scans that set different charsets.
 */
public class RegexStringComparator extends ByteArrayComparable {

  /** Regular expression engines HBase names; Basalt implements JAVA only. */
  public enum EngineType {
    JAVA,
    JONI
  }

  private final Pattern pattern;
  private volatile Charset charset = StandardCharsets.UTF_8;

  public RegexStringComparator(String expr) {
    this(expr, Pattern.DOTALL);
  }

  public RegexStringComparator(String expr, EngineType engine) {
    this(expr, Pattern.DOTALL, engine);
  }

  /**
   * @param flags {@link Pattern} flags (they replace the default DOTALL)
   */
  public RegexStringComparator(String expr, int flags) {
    this(expr, flags, EngineType.JAVA);
  }

  public RegexStringComparator(String expr, int flags, EngineType engine) {
    super(Bytes.toBytes(requireExpr(expr)));
    if (engine != EngineType.JAVA) {
      throw new IllegalArgumentException(
          "RegexStringComparator: engine " + engine + " is not supported; use JAVA");
    }
    this.pattern = compile(expr, flags);
  }

  private static String requireExpr(String expr) {
    if (expr == null) {
      throw new IllegalArgumentException("RegexStringComparator: expression must not be null");
    }
    return expr;
  }

  private static Pattern compile(String expr, int flags) {
    try {
      return Pattern.compile(expr, flags);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "RegexStringComparator: invalid regular expression '"
              + expr
              + "': "
              + e.getDescription()
              + " near index "
              + e.getIndex(),
          e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "RegexStringComparator: invalid pattern flags " + flags + ": " + e.getMessage(), e);
    }
  }

  /** The charset used to decode stored bytes before matching. */
  public void setCharset(Charset charset) {
    if (charset == null) {
      throw new IllegalArgumentException("RegexStringComparator: charset must not be null");
    }
    this.charset = charset;
  }

  public Charset getCharset() {
    return charset;
  }

  public String getPattern() {
    return pattern.pattern();
  }

  public int getFlags() {
    return pattern.flags();
  }

  public EngineType getEngineType() {
    return EngineType.JAVA;
  }

  @Override
  public int compareTo(byte[] stored, int offset, int length) {
    String s = new String(stored, offset, length, charset);
    return pattern.matcher(s).find() ? 0 : 1;
  }

  @Override
  public boolean equals(Object o) {
    if (!super.equals(o)) {
      return false;
    }
    RegexStringComparator other = (RegexStringComparator) o;
    return other.getFlags() == getFlags() && other.charset.equals(charset);
  }

  @Override
  public int hashCode() {
    return super.hashCode() * 31 + getFlags();
  }

  @Override
  public String toString() {
    return "RegexStringComparator("
        + pattern.pattern()
        + ", flags "
        + getFlags()
        + ", "
        + charset
        + ")";
  }
}
