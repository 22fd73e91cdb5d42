package dev.basalt.filter;

import dev.basalt.filter.FilterToken.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive descent over the grammar in {@link ParseFilter}: one method per rule, OR over AND over
 * the unary SKIP and WHILE over parenthesised expressions and simple filters. Operands of one
 * operator at one level become one {@link FilterList} (as HBase builds them); parentheses start a
 * new level.
 */
final class FilterExpressionParser {
  /** Deeper nesting is rejected rather than risking the parser's (and the scanner's) stack. */
  static final int MAX_DEPTH = 100;

  private final String input;
  private final FilterTokenizer tokens;
  private final FilterLiterals literals;
  private int depth;

  FilterExpressionParser(String input, boolean rawBytes) {
    this.input = input;
    this.tokens = new FilterTokenizer(input);
    this.literals = new FilterLiterals(input, rawBytes);
  }

  Filter parse() {
    if (tokens.peek().kind() == Kind.END) {
      throw error("the filter string is empty", tokens.peek().start());
    }
    Filter f = orExpression(null);
    FilterToken t = tokens.next();
    if (t.kind() != Kind.END) {
      throw misplaced(t, "the end of the input");
    }
    return f;
  }

  /**
   * @param after the token before the expression (an operator or '('), for messages; null at the
   *     start
   */
  private Filter orExpression(FilterToken after) {
    Filter first = andExpression(after);
    if (!tokens.peek().isWord("OR")) {
      return first;
    }
    List<Filter> operands = new ArrayList<>();
    operands.add(first);
    while (tokens.peek().isWord("OR")) {
      operands.add(andExpression(tokens.next()));
    }
    return new FilterList(FilterList.Operator.MUST_PASS_ONE, operands);
  }

  private Filter andExpression(FilterToken after) {
    Filter first = unary(after);
    if (!tokens.peek().isWord("AND")) {
      return first;
    }
    List<Filter> operands = new ArrayList<>();
    operands.add(first);
    while (tokens.peek().isWord("AND")) {
      operands.add(unary(tokens.next()));
    }
    return new FilterList(FilterList.Operator.MUST_PASS_ALL, operands);
  }

  private Filter unary(FilterToken after) {
    FilterToken t = tokens.peek();
    boolean skip = t.isWord("SKIP");
    if (!skip && !t.isWord("WHILE")) {
      return primary(after);
    }
    tokens.next();
    enter(t);
    Filter operand = unary(t);
    depth--;
    return skip ? new SkipFilter(operand) : new WhileMatchFilter(operand);
  }

  private Filter primary(FilterToken after) {
    FilterToken t = tokens.next();
    if (t.kind() == Kind.LPAREN) {
      enter(t);
      Filter f = orExpression(t);
      FilterToken close = tokens.next();
      if (close.kind() == Kind.END) {
        throw error("unbalanced parentheses: this '(' is never closed", t.start());
      }
      if (close.kind() != Kind.RPAREN) {
        throw misplaced(close, "')'");
      }
      depth--;
      return f;
    }
    if (t.kind() == Kind.WORD && !isOperator(t)) {
      return simpleFilter(t);
    }
    String where = after == null ? "" : " after " + after.describe();
    throw error("expected a filter" + where + ", got " + t.describe(), t.start());
  }

  private Filter simpleFilter(FilterToken name) {
    String filter = name.source();
    FilterCatalog.Spec spec = FilterCatalog.find(filter);
    if (spec == null) {
      throw error(
          "unknown filter '" + filter + "'" + FilterCatalog.hintFor(filter) + operatorCase(filter),
          name.start());
    }
    FilterToken open = tokens.next();
    if (open.kind() != Kind.LPAREN) {
      throw error(
          "expected '(' after " + filter + ", got " + open.describe() + "; usage: " + spec.usage,
          open.start());
    }
    List<FilterToken> args = new ArrayList<>();
    FilterToken close = tokens.peek().kind() == Kind.RPAREN ? tokens.next() : null;
    while (close == null) {
      FilterToken arg = tokens.next();
      if (arg.kind() != Kind.WORD && arg.kind() != Kind.QUOTED) {
        throw argumentListError(filter, open, arg, "argument " + (args.size() + 1));
      }
      args.add(arg);
      FilterToken separator = tokens.next();
      if (separator.kind() == Kind.RPAREN) {
        close = separator;
      } else if (separator.kind() != Kind.COMMA) {
        FilterParseException e =
            argumentListError(filter, open, separator, "',' or ')' after " + arg.describe());
        // Text right after a closing quote is most likely an undoubled quote inside a string.
        boolean glued = arg.kind() == Kind.QUOTED && separator.start() == arg.end();
        throw glued && separator.kind() != Kind.END
            ? error(e.getReason() + " (a quote inside a string is written '')", e.getPosition())
            : e;
      }
    }
    FilterArguments arguments = new FilterArguments(filter, args, close, literals, input);
    try {
      return spec.create(arguments);
    } catch (FilterParseException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      // A constructor's own check (e.g. repeated prefixes): its message already names the filter.
      throw error(e.getMessage(), name.start());
    }
  }

  private FilterParseException argumentListError(
      String filter, FilterToken open, FilterToken found, String expected) {
    if (found.kind() == Kind.END) {
      return error(
          "unbalanced parentheses: the argument list of " + filter + " is never closed",
          open.start());
    }
    return error(
        "expected " + expected + " in the arguments of " + filter + ", got " + found.describe(),
        found.start());
  }

  /** A token where an operator or the end of a (parenthesised) expression should be. */
  private FilterParseException misplaced(FilterToken t, String end) {
    if (t.kind() == Kind.RPAREN) {
      return error("unbalanced parentheses: this ')' has no matching '('", t.start());
    }
    String hint = t.kind() == Kind.WORD ? operatorCase(t.source()) : "";
    return error(
        "expected AND, OR or " + end + " after a filter, got " + t.describe() + hint, t.start());
  }

  /** A hint for an operator written in the wrong case (HBase's operators are upper case only). */
  private static String operatorCase(String word) {
    for (String op : new String[] {"AND", "OR", "SKIP", "WHILE"}) {
      if (op.equalsIgnoreCase(word) && !op.equals(word)) {
        return " (the operators AND, OR, SKIP and WHILE are upper case)";
      }
    }
    return "";
  }

  private static boolean isOperator(FilterToken t) {
    return t.isWord("AND") || t.isWord("OR") || t.isWord("SKIP") || t.isWord("WHILE");
  }

  private void enter(FilterToken t) {
    if (++depth > MAX_DEPTH) {
      throw error("filters nested more than " + MAX_DEPTH + " levels deep", t.start());
    }
  }

  private FilterParseException error(String reason, int position) {
    return new FilterParseException(reason, input, position);
  }
}
