package dev.basalt.shell;

import java.util.ArrayList;
import java.util.List;
import org.jline.reader.CompletingParsedLine;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;

/**
 * The interactive editor's view of the shell syntax. On Enter, input that stops inside an open
 * quote, bracket, brace or after a trailing comma or '=>' is incomplete, so the editor asks for
 * another line (multi-line input); any other syntax error is left for the runner to report. For
 * completion it finds the word under the cursor and where it stands in its statement.
 */
final class ShellLineParser implements Parser {
  @Override
  public ParsedLine parse(String line, int cursor, ParseContext context) {
    if (context == ParseContext.ACCEPT_LINE) {
      try {
        StatementParser.parseAll(line);
      } catch (SyntaxException e) {
        if (e.incomplete()) {
          throw new EOFError(-1, e.offset(), e.detail());
        }
      }
    }
    return Context.at(line, cursor);
  }

  /** Where the cursor is: the current word, the statement's command and argument position. */
  static final class Context implements CompletingParsedLine {
    private final String line;
    private final int cursor;
    private final int wordStart;
    private final int wordEnd;
    private final String command;
    private final int argIndex;
    private final boolean inCollection;

    private Context(
        String line,
        int cursor,
        int wordStart,
        int wordEnd,
        String command,
        int argIndex,
        boolean inCollection) {
      this.line = line;
      this.cursor = cursor;
      this.wordStart = wordStart;
      this.wordEnd = wordEnd;
      this.command = command;
      this.argIndex = argIndex;
      this.inCollection = inCollection;
    }

    /**
     * Scans {@code line} up to {@code cursor} leniently (it may be half typed): quotes, nesting,
     * top-level commas and statement separators.
     */
    static Context at(String line, int cursor) {
      int statementStart = 0;
      int depth = 0;
      char quote = 0;
      int quoteStart = -1;
      int commas = 0;
      for (int i = 0; i < cursor; i++) {
        char c = line.charAt(i);
        if (quote != 0) {
          if (c == '\\' && i + 1 < cursor) {
            i++;
          } else if (c == quote) {
            quote = 0;
          }
          continue;
        }
        switch (c) {
          case '\'', '"' -> {
            quote = c;
            quoteStart = i;
          }
          case '{', '[', '(' -> depth++;
          case '}', ']', ')' -> depth = Math.max(0, depth - 1);
          case ',' -> commas += depth == 0 ? 1 : 0;
          case ';', '\n' -> {
            if (depth == 0) {
              statementStart = i + 1;
              commas = 0;
            }
          }
          default -> {}
        }
      }
      int wordStart;
      if (quote != 0) {
        wordStart = quoteStart;
      } else {
        wordStart = cursor;
        while (wordStart > statementStart && !isDelimiter(line.charAt(wordStart - 1))) {
          wordStart--;
        }
      }
      int wordEnd = cursor;
      while (wordEnd < line.length() && !isDelimiter(line.charAt(wordEnd)) && quote == 0) {
        wordEnd++;
      }
      // the command name: the first word of the statement
      int p = statementStart;
      while (p < line.length() && Character.isWhitespace(line.charAt(p))) {
        p++;
      }
      int nameEnd = p;
      while (nameEnd < line.length()
          && (Character.isLetterOrDigit(line.charAt(nameEnd)) || line.charAt(nameEnd) == '_')) {
        nameEnd++;
      }
      String command = line.substring(p, nameEnd);
      // -1: the cursor is still on the command name
      int argIndex = wordStart <= p ? -1 : commas;
      return new Context(line, cursor, wordStart, wordEnd, command, argIndex, depth > 0);
    }

    private static boolean isDelimiter(char c) {
      return Character.isWhitespace(c) || ",{}[]();>".indexOf(c) >= 0;
    }

    String command() {
      return command;
    }

    /** -1 on the command name, else the 0-based index of the argument under the cursor. */
    int argIndex() {
      return argIndex;
    }

    boolean inCollection() {
      return inCollection;
    }

    @Override
    public String word() {
      return line.substring(wordStart, Math.max(wordStart, wordEnd));
    }

    @Override
    public int wordCursor() {
      return cursor - wordStart;
    }

    @Override
    public int wordIndex() {
      return argIndex + 1;
    }

    @Override
    public List<String> words() {
      List<String> w = new ArrayList<>();
      w.add(command);
      w.add(word());
      return w;
    }

    @Override
    public String line() {
      return line;
    }

    @Override
    public int cursor() {
      return cursor;
    }

    @Override
    public CharSequence escape(CharSequence candidate, boolean complete) {
      return candidate; // candidates are already written as literals ('t1', LIMIT =>)
    }

    @Override
    public int rawWordCursor() {
      return wordCursor();
    }

    @Override
    public int rawWordLength() {
      return word().length();
    }
  }
}
