package dev.basalt.shell;

import dev.basalt.shell.Lexer.Kind;
import dev.basalt.shell.Lexer.Token;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses shell input into statements, one at a time, so that a script runs up to its first bad
 * statement. Grammar (Ruby's, restricted to what HBase shell commands take):
 *
 * <pre>
 * script    := { separator } [ statement { separator { separator } statement } ] { separator }
 * separator := ';' | newline
 * statement := NAME [ '(' [ args ] ')' | args ]
 * args      := arg { ',' arg }            (newlines may follow ',' and '=>')
 * arg       := value | key '=>' value     (pairs must come last; they form one hash)
 * value     := STRING | INTEGER | NAME | '[' [ value { ',' value } [','] ] ']'
 *            | '{' [ key '=>' value { ',' key '=>' value } [','] ] '}'
 * key       := STRING | NAME
 * </pre>
 *
 * A bare NAME value is true, false or nil, or an HBase shell constant such as VERSIONS (whose value
 * is its own name). Inside brackets, braces and parentheses newlines are blanks.
 */
final class StatementParser {
  private final Lexer lexer;
  private Token lookahead;
  private int depth;

  StatementParser(String source) {
    this.lexer = new Lexer(source);
  }

  /** Parses every statement of {@code source}. */
  static List<Statement> parseAll(String source) throws SyntaxException {
    StatementParser p = new StatementParser(source);
    List<Statement> out = new ArrayList<>();
    for (Statement s = p.next(); s != null; s = p.next()) {
      out.add(s);
    }
    return out;
  }

  /** The next statement, or null at the end of the input. */
  Statement next() throws SyntaxException {
    while (peek().kind() == Kind.SEMICOLON || peek().kind() == Kind.NEWLINE) {
      take();
    }
    Token first = take();
    if (first.kind() == Kind.EOF) {
      return null;
    }
    if (first.kind() != Kind.NAME) {
      throw lexer.error(
          first.start(),
          "expected a command name (such as scan or put), found " + first.describe(),
          false);
    }
    String name = (String) first.value();
    List<Object> args = new ArrayList<>();
    Token t = peek();
    if (t.kind() == Kind.LPAREN && t.start() == first.end()) {
      take();
      depth++;
      if (peek().kind() != Kind.RPAREN) {
        arguments(name, args);
      }
      expect(Kind.RPAREN, "',' or ')' to close the argument list of " + name);
      depth--;
    } else if (t.kind() != Kind.EOF && t.kind() != Kind.SEMICOLON && t.kind() != Kind.NEWLINE) {
      arguments(name, args);
    }
    Token end = peek();
    if (end.kind() != Kind.EOF && end.kind() != Kind.SEMICOLON && end.kind() != Kind.NEWLINE) {
      throw lexer.error(
          end.start(), "expected ',' or the end of the statement, found " + end.describe(), false);
    }
    return new Statement(name, args, first.start(), end.start());
  }

  private void arguments(String command, List<Object> args) throws SyntaxException {
    Map<String, Object> pairs = null;
    while (true) {
      Token t = peek();
      if (isKeyStart(t) && arrowFollows()) {
        if (pairs == null) {
          pairs = new LinkedHashMap<>();
        }
        pair(pairs);
      } else {
        if (pairs != null) {
          throw lexer.error(
              t.start(), "positional arguments must come before the KEY => value options", false);
        }
        args.add(value());
      }
      if (peek().kind() != Kind.COMMA) {
        break;
      }
      take();
      skipNewlines();
    }
    if (pairs != null) {
      args.add(pairs);
    }
  }

  private boolean isKeyStart(Token t) {
    return t.kind() == Kind.STRING || t.kind() == Kind.NAME;
  }

  /** Whether the token after the lookahead is '=>' (a key rather than a value). */
  private boolean arrowFollows() throws SyntaxException {
    Token key = take();
    boolean arrow = peek().kind() == Kind.ARROW;
    pushBack(key);
    return arrow;
  }

  private Token pushedBack;

  private void pushBack(Token t) {
    pushedBack = lookahead;
    lookahead = t;
  }

  private void pair(Map<String, Object> into) throws SyntaxException {
    Token key = take();
    if (!isKeyStart(key)) {
      throw lexer.error(
          key.start(),
          "expected an option name (KEY or 'key'), found " + key.describe(),
          isEnd(key));
    }
    String name =
        key.kind() == Kind.STRING ? ((ShellString) key.value()).text() : (String) key.value();
    // A quoted name is shown as written (escaped), so that a newline inside it cannot break the
    // one-line message.
    expect(
        Kind.ARROW,
        "'=>' after the option name "
            + (key.kind() == Kind.STRING ? Literals.render(key.value()) : name));
    skipNewlines();
    into.put(name, value());
  }

  private Object value() throws SyntaxException {
    Token t = take();
    switch (t.kind()) {
      case STRING:
      case INTEGER:
        return t.value();
      case NAME:
        return constant(t);
      case LBRACKET:
        return array();
      case LBRACE:
        return hash();
      default:
        throw lexer.error(
            t.start(),
            "expected a value (a 'string', a number, [an, array] or {A => hash}), found "
                + t.describe(),
            isEnd(t));
    }
  }

  private Object constant(Token t) throws SyntaxException {
    String name = (String) t.value();
    switch (name) {
      case "true":
        return Boolean.TRUE;
      case "false":
        return Boolean.FALSE;
      case "nil":
        return null;
      default:
        break;
    }
    if (Character.isUpperCase(name.charAt(0))) {
      return ShellString.of(name);
    }
    throw lexer.error(
        t.start(), "unknown name '" + name + "'; quote strings, as in '" + name + "'", false);
  }

  private List<Object> array() throws SyntaxException {
    depth++;
    List<Object> items = new ArrayList<>();
    while (peek().kind() != Kind.RBRACKET) {
      items.add(value());
      if (peek().kind() == Kind.COMMA) {
        take();
      } else if (peek().kind() != Kind.RBRACKET) {
        Token t = peek();
        throw lexer.error(
            t.start(), "expected ',' or ']' in the array, found " + t.describe(), isEnd(t));
      }
    }
    take();
    depth--;
    return items;
  }

  private Map<String, Object> hash() throws SyntaxException {
    depth++;
    Map<String, Object> map = new LinkedHashMap<>();
    while (peek().kind() != Kind.RBRACE) {
      pair(map);
      if (peek().kind() == Kind.COMMA) {
        take();
      } else if (peek().kind() != Kind.RBRACE) {
        Token t = peek();
        throw lexer.error(
            t.start(), "expected ',' or '}' in the hash, found " + t.describe(), isEnd(t));
      }
    }
    take();
    depth--;
    return map;
  }

  private void expect(Kind kind, String what) throws SyntaxException {
    Token t = take();
    if (t.kind() != kind) {
      throw lexer.error(t.start(), "expected " + what + ", found " + t.describe(), isEnd(t));
    }
  }

  private void skipNewlines() throws SyntaxException {
    while (peek().kind() == Kind.NEWLINE) {
      take();
    }
  }

  /** The input stopped where more was needed: an interactive editor should read another line. */
  private boolean isEnd(Token t) {
    return t.kind() == Kind.EOF;
  }

  private Token peek() throws SyntaxException {
    if (lookahead == null) {
      lookahead = read();
    }
    return lookahead;
  }

  private Token take() throws SyntaxException {
    Token t = peek();
    lookahead = pushedBack;
    pushedBack = null;
    return t;
  }

  private Token read() throws SyntaxException {
    Token t = lexer.next();
    while (depth > 0 && t.kind() == Kind.NEWLINE) {
      t = lexer.next();
    }
    return t;
  }
}
