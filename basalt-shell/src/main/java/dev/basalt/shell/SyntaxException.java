package dev.basalt.shell;

/**
 * A statement the shell cannot parse, with the position of the problem. {@link #incomplete()} is
 * true when the input simply stopped early (an open quote, bracket or brace, a trailing comma): the
 * interactive editor then asks for another line instead of reporting an error.
 */
final class SyntaxException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int offset;
  private final boolean incomplete;
  private final String detail;

  SyntaxException(String source, int offset, String detail, boolean incomplete) {
    super(position(source, offset) + ": " + detail);
    this.offset = offset;
    this.detail = detail;
    this.incomplete = incomplete;
  }

  /** "column 7" for one-line input, "line 3, column 7" otherwise (both 1-based). */
  static String position(String source, int offset) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset && i < source.length(); i++) {
      if (source.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    int column = offset - lineStart + 1;
    boolean multiLine = source.indexOf('\n') >= 0 && source.indexOf('\n') < source.length() - 1;
    return multiLine ? "line " + line + ", column " + column : "column " + column;
  }

  int offset() {
    return offset;
  }

  String detail() {
    return detail;
  }

  boolean incomplete() {
    return incomplete;
  }
}
