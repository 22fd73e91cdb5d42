package dev.basalt.filter;

/**
 * A filter string that {@link ParseFilter} cannot turn into a filter. It names the problem and
 * where it is: {@link #getPosition()} is a 0-based offset into the input (a character offset for a
 * {@code String}, a byte offset for {@code byte[]} input), and the message repeats the input's line
 * with a caret under that position, so a shell can print the message as it is.
 *
 * <p>It is an {@link IllegalArgumentException}, as HBase's parser throws, so callers that catch
 * that keep working.
 */
public class FilterParseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Lines longer than this are cut around the position so the caret stays readable. */
  private static final int MAX_SHOWN = 100;

  private static final int CONTEXT = 50;

  private final String reason;
  private final String input;
  private final int position;

  /**
   * @param reason what is wrong, without the position
   * @param input the text that was parsed
   * @param position 0-based offset of the offending character (the input's length for its end)
   */
  public FilterParseException(String reason, String input, int position) {
    super(format(reason, input, position));
    this.reason = reason;
    this.input = input;
    this.position = position;
  }

  /** What is wrong, without the position and the caret line. */
  public String getReason() {
    return reason;
  }

  /** The text that was parsed (for byte input, its bytes read as ISO-8859-1 characters). */
  public String getInput() {
    return input;
  }

  /** 0-based offset of the problem in the input; the input's length when the input ended early. */
  public int getPosition() {
    return position;
  }

  private static String format(String reason, String input, int position) {
    int lineStart = position == 0 ? 0 : input.lastIndexOf('\n', position - 1) + 1;
    int lineEnd = input.indexOf('\n', position);
    if (lineEnd < 0) {
      lineEnd = input.length();
    }
    StringBuilder sb = new StringBuilder(reason).append(" at position ").append(position);
    if (input.indexOf('\n') >= 0) {
      int line = 1;
      for (int i = 0; i < lineStart; i++) {
        line += input.charAt(i) == '\n' ? 1 : 0;
      }
      sb.append(" (line ").append(line).append(", column ").append(position - lineStart + 1);
      sb.append(')');
    }
    int from = lineStart;
    int to = lineEnd;
    if (to - from > MAX_SHOWN) {
      from = Math.max(lineStart, position - CONTEXT);
      to = Math.min(lineEnd, from + 2 * CONTEXT);
    }
    String head = from > lineStart ? "..." : "";
    sb.append("\n  ").append(head);
    for (int i = from; i < to; i++) {
      sb.append(printable(input.charAt(i)));
    }
    if (to < lineEnd) {
      sb.append("...");
    }
    sb.append("\n  ").append(" ".repeat(head.length() + position - from)).append('^');
    return sb.toString();
  }

  /** One column per character, so the caret lines up: control characters become placeholders. */
  private static char printable(char c) {
    if (Character.isWhitespace(c)) {
      return ' ';
    }
    return Character.isISOControl(c) ? '?' : c;
  }
}
