package dev.basalt.filter;

import dev.basalt.filter.FilterToken.Kind;
import java.util.List;
import java.util.Locale;

/**
 * The arguments of one filter expression, read as the types its constructor takes. Each accessor
 * checks the argument's form and range and otherwise throws a {@link FilterParseException} that
 * names the filter and the parameter and points at the argument.
 *
 * <p>Quoted arguments are byte strings or comparators; unquoted ones are numbers ({@code -?[0-9]+}
 * in decimal), booleans ({@code true}/{@code false} in any letter case, as HBase) and compare
 * operators. A quoted number or an unquoted string is an error rather than a guess.
 */
final class FilterArguments {
  /** A compare operator and the comparator after it. */
  record Comparison(CompareOperator op, ByteArrayComparable comparator) {}

  private final String filter;
  private final List<FilterToken> args;
  private final FilterToken close;
  private final FilterLiterals literals;
  private final String input;

  /**
   * @param filter the filter's name, for messages
   * @param close the closing parenthesis, where missing arguments are reported
   */
  FilterArguments(
      String filter,
      List<FilterToken> args,
      FilterToken close,
      FilterLiterals literals,
      String input) {
    this.filter = filter;
    this.args = List.copyOf(args);
    this.close = close;
    this.literals = literals;
    this.input = input;
  }

  int size() {
    return args.size();
  }

  /** The argument's token; {@code i} must be below {@link #size()}. */
  FilterToken token(int i) {
    return args.get(i);
  }

  /** Where an argument count problem is reported when arguments are missing. */
  int closePosition() {
    return close.start();
  }

  boolean isQuoted(int i) {
    return args.get(i).kind() == Kind.QUOTED;
  }

  /** A byte string; {@code \xNN} escapes apply. */
  byte[] bytes(int i, String param) {
    return literals.bytes(quoted(i, param), 0);
  }

  /** A byte string, or null for an empty one (an open bound, as in HBase). */
  byte[] bytesOrNull(int i, String param) {
    byte[] b = bytes(i, param);
    return b.length == 0 ? null : b;
  }

  int intArg(int i, String param, int min) {
    return (int) number(i, param, min, Integer.MAX_VALUE);
  }

  long longArg(int i, String param, long min) {
    return number(i, param, min, Long.MAX_VALUE);
  }

  boolean bool(int i, String param) {
    FilterToken t = args.get(i);
    String word = t.kind() == Kind.WORD ? asciiLower(t.source()) : null;
    if ("true".equals(word) || "false".equals(word)) {
      return word.equals("true");
    }
    throw error(param + " must be true or false, got " + t.describe(), t.start());
  }

  /** The compare operator at {@code opIndex} and the comparator right after it. */
  Comparison comparison(int opIndex) {
    CompareOperator op = operator(opIndex);
    FilterToken t = quoted(opIndex + 1, "the comparator ('type:value')");
    ByteArrayComparable comparator = ComparatorSyntax.parse(t, literals, filter, input);
    boolean matcher =
        comparator instanceof RegexStringComparator || comparator instanceof SubstringComparator;
    if (matcher && op != CompareOperator.EQUAL && op != CompareOperator.NOT_EQUAL) {
      // As HBase: these comparators answer match or no match, which has no order.
      throw error(
          "a "
              + t.content().substring(0, t.content().indexOf(':'))
              + " comparator only works with = or !=, got "
              + args.get(opIndex).source(),
          args.get(opIndex).start());
    }
    return new Comparison(op, comparator);
  }

  private CompareOperator operator(int i) {
    FilterToken t = args.get(i);
    CompareOperator op = t.kind() == Kind.WORD ? CompareOperatorSyntax.parse(t.source()) : null;
    if (op != null) {
      return op;
    }
    String hint =
        t.kind() == Kind.QUOTED
            ? " (write it without quotes)"
            : "NO_OP".equals(asciiUpper(t.source()))
                ? " (NO_OP has no use in a filter string)"
                : "";
    throw error(
        "expected a compare operator, one of "
            + CompareOperatorSyntax.FORMS
            + ", got "
            + t.describe()
            + hint,
        t.start());
  }

  private FilterToken quoted(int i, String param) {
    FilterToken t = args.get(i);
    if (t.kind() != Kind.QUOTED) {
      throw error(param + " must be a quoted string, got " + t.describe(), t.start());
    }
    return t;
  }

  private long number(int i, String param, long min, long max) {
    FilterToken t = args.get(i);
    String s = t.source();
    if (t.kind() != Kind.WORD || !isDecimal(s)) {
      throw error(param + " must be a whole number, got " + t.describe(), t.start());
    }
    long v;
    try {
      v = Long.parseLong(s);
    } catch (NumberFormatException e) {
      // Digits only, so the number overflowed a long: below min or above max.
      v = s.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
      if (min == Long.MIN_VALUE || max == Long.MAX_VALUE && v == Long.MAX_VALUE) {
        throw error(param + " does not fit in a long, got " + s, t.start());
      }
    }
    if (v < min) {
      throw error(param + " must be at least " + min + ", got " + s, t.start());
    }
    if (v > max) {
      throw error(param + " is out of range (at most " + max + "), got " + s, t.start());
    }
    return v;
  }

  /** HBase's number form: an optional minus and ASCII digits (no plus, no other scripts). */
  private static boolean isDecimal(String s) {
    int i = s.startsWith("-") ? 1 : 0;
    if (i == s.length()) {
      return false;
    }
    for (; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** Lower case for ASCII words; null for others, so Unicode case folding never matches. */
  private static String asciiLower(String s) {
    return isAscii(s) ? s.toLowerCase(Locale.ROOT) : null;
  }

  private static String asciiUpper(String s) {
    return isAscii(s) ? s.toUpperCase(Locale.ROOT) : null;
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** An error about the argument list as a whole: "Name takes ...". */
  FilterParseException countError(String reason, int position) {
    return new FilterParseException(filter + " " + reason, input, position);
  }

  FilterParseException error(String reason, int position) {
    return new FilterParseException(filter + ": " + reason, input, position);
  }
}
