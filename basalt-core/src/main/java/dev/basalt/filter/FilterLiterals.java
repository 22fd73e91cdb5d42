package dev.basalt.filter;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Turns quoted strings into the bytes or text a filter takes.
 *
 * <p>Byte strings (rows, families, qualifiers, prefixes, binary comparator values) read {@code
 * \xNN} (two hex digits) as the byte NN, the notation the shell prints keys in; other characters
 * stand for themselves. HBase's parser has no escapes: its shell users get binary bytes from Ruby's
 * own string escapes, which Basalt's shell does not have. Text (regular expressions, substrings) is
 * taken as written, so a regular expression keeps its own escapes.
 *
 * <p>A string parsed from a Java {@code String} stands for its UTF-8 bytes. A string parsed from
 * {@code byte[]} input (HBase's Thrift form, which may carry raw binary keys) was read one byte per
 * character, so its characters are exactly its bytes, and its text is those bytes decoded as UTF-8.
 */
final class FilterLiterals {
  private final String input;
  private final boolean rawBytes;

  /**
   * @param input the parsed text, for error messages
   * @param rawBytes whether each input character is one byte of byte input (ISO-8859-1)
   */
  FilterLiterals(String input, boolean rawBytes) {
    this.input = input;
    this.rawBytes = rawBytes;
  }

  /** The bytes of a quoted string's content from character {@code from} on. */
  byte[] bytes(FilterToken t, int from) {
    String s = t.content();
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    int run = from;
    for (int i = from; i < s.length(); i++) {
      if (s.charAt(i) != '\\' || i + 1 >= s.length() || s.charAt(i + 1) != 'x') {
        continue;
      }
      int hi = i + 2 < s.length() ? hexDigit(s.charAt(i + 2)) : -1;
      int lo = i + 3 < s.length() ? hexDigit(s.charAt(i + 3)) : -1;
      if (hi < 0 || lo < 0) {
        throw new FilterParseException(
            "malformed escape: \\x must be followed by two hex digits (a backslash is \\x5C)",
            input,
            t.contentOffset(i));
      }
      // Plain characters are encoded a run at a time so surrogate pairs stay together.
      out.writeBytes(encode(s.substring(run, i)));
      out.write((hi << 4) | lo);
      i += 3;
      run = i + 1;
    }
    out.writeBytes(encode(s.substring(run)));
    return out.toByteArray();
  }

  /** The text of a quoted string's content from character {@code from} on. */
  String text(FilterToken t, int from) {
    String s = t.content().substring(from);
    return rawBytes ? new String(encode(s), StandardCharsets.UTF_8) : s;
  }

  /** Whether character offsets in {@link #text} are character offsets in the content. */
  boolean textKeepsOffsets() {
    return !rawBytes;
  }

  private byte[] encode(String s) {
    return s.getBytes(rawBytes ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
  }

  /** The value of an ASCII hex digit, or -1 (Character.digit also takes other scripts' digits). */
  private static int hexDigit(char c) {
    return c < 0x80 ? Character.digit(c, 16) : -1;
  }
}
