package dev.basalt.filter;

/**
 * One token of a filter string.
 *
 * @param kind what the token is
 * @param start offset of its first character
 * @param end offset just past its last character
 * @param source the token exactly as written
 * @param content for a quoted string the text between the quotes with {@code ''} read as one quote;
 *     otherwise the same as {@code source}
 * @param contentOffsets for a quoted string, the input offset of each character of {@code content}
 *     (so errors inside a string can point at the character); otherwise null
 */
record FilterToken(
    FilterToken.Kind kind,
    int start,
    int end,
    String source,
    String content,
    int[] contentOffsets) {

  /** The token kinds; everything unquoted that is not punctuation is a word. */
  enum Kind {
    WORD,
    QUOTED,
    LPAREN,
    RPAREN,
    COMMA,
    END
  }

  /** Descriptions of tokens in messages stop after this many characters. */
  private static final int SHOWN = 40;

  boolean isWord(String word) {
    return kind == Kind.WORD && source.equals(word);
  }

  /** Offset of character {@code i} of a quoted string's content; its closing quote past the end. */
  int contentOffset(int i) {
    return i < contentOffsets.length ? contentOffsets[i] : end - 1;
  }

  /** How the token reads in an error message. */
  String describe() {
    switch (kind) {
      case END:
        return "the end of the input";
      case QUOTED:
        return "the quoted string " + shorten(source);
      default:
        return "'" + shorten(source) + "'";
    }
  }

  private static String shorten(String s) {
    String cut = s.length() > SHOWN ? s.substring(0, SHOWN) + "..." : s;
    StringBuilder sb = new StringBuilder(cut.length());
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      sb.append(Character.isISOControl(c) ? '?' : c);
    }
    return sb.toString();
  }
}
