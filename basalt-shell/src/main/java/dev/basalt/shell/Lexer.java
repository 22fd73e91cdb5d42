package dev.basalt.shell;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Splits shell input into tokens: the subset of Ruby literal syntax the HBase shell is used with.
 * Strings follow Ruby: in double quotes the escapes \xNN, \NNN (octal), \\uNNNN, \n, \t, \r, \0,
 * \e, \s, \a, \b, \f, \v, \\ and \" apply; in single quotes only \\ and \' do (so 'a\x00' is six
 * characters, as in the HBase shell). {@code #} starts a comment outside strings.
 */
final class Lexer {
  enum Kind {
    STRING,
    INTEGER,
    NAME,
    COMMA,
    ARROW,
    LBRACE,
    RBRACE,
    LBRACKET,
    RBRACKET,
    LPAREN,
    RPAREN,
    SEMICOLON,
    NEWLINE,
    EOF
  }

  /** One token; {@code value} is a ShellString, a Long or the name's text. */
  record Token(Kind kind, int start, int end, Object value) {
    String describe() {
      return switch (kind) {
        case STRING -> "a string";
        case INTEGER -> "the number " + value;
        case NAME -> "'" + value + "'";
        case COMMA -> "','";
        case ARROW -> "'=>'";
        case LBRACE -> "'{'";
        case RBRACE -> "'}'";
        case LBRACKET -> "'['";
        case RBRACKET -> "']'";
        case LPAREN -> "'('";
        case RPAREN -> "')'";
        case SEMICOLON -> "';'";
        case NEWLINE -> "the end of the line";
        case EOF -> "the end of the input";
      };
    }
  }

  private final String src;
  private int pos;

  Lexer(String src) {
    this.src = src;
  }

  Token next() throws SyntaxException {
    skipBlanksAndComments();
    if (pos == src.length() - 1 && src.charAt(pos) == '\\') {
      throw error(pos, "the statement continues on the next line", true);
    }
    if (pos >= src.length()) {
      return new Token(Kind.EOF, pos, pos, null);
    }
    int start = pos;
    char c = src.charAt(pos);
    switch (c) {
      case '\n':
        return single(Kind.NEWLINE);
      case ',':
        return single(Kind.COMMA);
      case ';':
        return single(Kind.SEMICOLON);
      case '{':
        return single(Kind.LBRACE);
      case '}':
        return single(Kind.RBRACE);
      case '[':
        return single(Kind.LBRACKET);
      case ']':
        return single(Kind.RBRACKET);
      case '(':
        return single(Kind.LPAREN);
      case ')':
        return single(Kind.RPAREN);
      case '=':
        if (src.startsWith("=>", pos)) {
          pos += 2;
          return new Token(Kind.ARROW, start, pos, null);
        }
        throw error(start, "unexpected '='; options are written KEY => value", false);
      case '\'':
      case '"':
        return string(c);
      default:
        break;
    }
    if (isDigit(c)
        || ((c == '-' || c == '+') && pos + 1 < src.length() && isDigit(src.charAt(pos + 1)))) {
      return integer();
    }
    if (Character.isLetter(c) || c == '_') {
      while (pos < src.length() && isNameChar(src.charAt(pos))) {
        pos++;
      }
      // Ruby's "KEY:" hash key shorthand is not part of the HBase shell's documented syntax;
      // say so rather than report a confusing ':' later.
      if (pos < src.length() && src.charAt(pos) == ':' && !src.startsWith("::", pos)) {
        throw error(pos, "write options as KEY => value, not KEY:", false);
      }
      return new Token(Kind.NAME, start, pos, src.substring(start, pos));
    }
    throw error(start, "unexpected character '" + printable(c) + "'", false);
  }

  private Token single(Kind kind) {
    pos++;
    return new Token(kind, pos - 1, pos, null);
  }

  private void skipBlanksAndComments() {
    while (pos < src.length()) {
      char c = src.charAt(pos);
      if (c == ' ' || c == '\t' || c == '\r') {
        pos++;
      } else if (c == '\\' && src.startsWith("\\\n", pos)) {
        pos += 2; // a backslash at the end of a line continues the statement, as in Ruby
      } else if (c == '#') {
        while (pos < src.length() && src.charAt(pos) != '\n') {
          pos++;
        }
      } else {
        return;
      }
    }
  }

  private Token integer() throws SyntaxException {
    int start = pos;
    StringBuilder digits = new StringBuilder();
    if (src.charAt(pos) == '-' || src.charAt(pos) == '+') {
      digits.append(src.charAt(pos++));
    }
    while (pos < src.length() && (isDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
      if (src.charAt(pos) != '_') {
        digits.append(src.charAt(pos));
      }
      pos++;
    }
    if (pos < src.length() && (src.charAt(pos) == '.' || isNameChar(src.charAt(pos)))) {
      throw error(pos, "only whole numbers are supported here", false);
    }
    try {
      return new Token(Kind.INTEGER, start, pos, Long.parseLong(digits.toString()));
    } catch (NumberFormatException e) {
      throw error(start, "number out of range (a signed 64-bit integer is expected)", false);
    }
  }

  private Token string(char quote) throws SyntaxException {
    int start = pos++;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      if (pos >= src.length()) {
        throw error(
            start, "unterminated string: the " + quote + " opened here is never closed", true);
      }
      char c = src.charAt(pos);
      if (c == quote) {
        pos++;
        return new Token(Kind.STRING, start, pos, new ShellString(out.toByteArray()));
      }
      if (c == '\\' && pos + 1 < src.length()) {
        if (quote == '\'') {
          char e = src.charAt(pos + 1);
          if (e == '\\' || e == '\'') {
            out.write(e);
            pos += 2;
          } else {
            out.write('\\');
            pos++;
          }
        } else {
          escape(out);
        }
        continue;
      }
      int cp = src.codePointAt(pos);
      writeUtf8(out, cp);
      pos += Character.charCount(cp);
    }
  }

  /** One escape sequence inside double quotes; pos is at the backslash. */
  private void escape(ByteArrayOutputStream out) throws SyntaxException {
    int at = pos;
    char e = src.charAt(pos + 1);
    pos += 2;
    switch (e) {
      case 'n' -> out.write('\n');
      case 't' -> out.write('\t');
      case 'r' -> out.write('\r');
      case 'e' -> out.write(0x1b);
      case 's' -> out.write(' ');
      case 'a' -> out.write(0x07);
      case 'b' -> out.write(0x08);
      case 'f' -> out.write(0x0c);
      case 'v' -> out.write(0x0b);
      case 'x' -> {
        int value = 0;
        int n = 0;
        while (n < 2 && pos < src.length() && Character.digit(src.charAt(pos), 16) >= 0) {
          value = value * 16 + Character.digit(src.charAt(pos++), 16);
          n++;
        }
        if (n == 0) {
          throw error(at, "\\x must be followed by one or two hex digits, as in \"\\x0A\"", false);
        }
        out.write(value);
      }
      case 'u' -> {
        int cp = 0;
        for (int i = 0; i < 4; i++) {
          // Digit by digit: Integer.parseInt would take a sign ("\\u+0e9", "\\u-001").
          int d = pos + i < src.length() ? Character.digit(src.charAt(pos + i), 16) : -1;
          if (d < 0) {
            throw error(at, "\\u must be followed by four hex digits, as in \"\\u00e9\"", false);
          }
          cp = cp * 16 + d;
        }
        pos += 4;
        writeUtf8(out, cp);
      }
      default -> {
        if (e >= '0' && e <= '7') {
          int value = e - '0';
          int n = 1;
          while (n < 3 && pos < src.length() && src.charAt(pos) >= '0' && src.charAt(pos) <= '7') {
            value = value * 8 + (src.charAt(pos++) - '0');
            n++;
          }
          out.write(value & 0xff);
        } else {
          // Ruby keeps the character and drops the backslash for other escapes (\" \\ \# ...).
          writeUtf8(out, e);
        }
      }
    }
  }

  private static void writeUtf8(ByteArrayOutputStream out, int codePoint) {
    out.writeBytes(new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8));
  }

  SyntaxException error(int offset, String detail, boolean incomplete) {
    return new SyntaxException(src, offset, detail, incomplete);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '?' || c == '!';
  }

  private static String printable(char c) {
    return c < 0x20 || c == 0x7f ? String.format("\\x%02X", (int) c) : String.valueOf(c);
  }
}
