package dev.basalt.filter;

import java.util.Locale;
import java.util.Map;

/**
 * The compare operators of the filter language: HBase's symbols, and (a Basalt addition) the {@link
 * CompareOperator} names that HBase's documentation lists beside them, in any letter case. {@code
 * NO_OP} is left out, as HBase's parser leaves it out: in a filter string it could only reject
 * everything.
 */
final class CompareOperatorSyntax {
  /** The accepted forms, for messages and help. */
  static final String FORMS =
      "<, <=, =, !=, >=, > (or LESS, LESS_OR_EQUAL, EQUAL, NOT_EQUAL, GREATER_OR_EQUAL, GREATER)";

  private static final Map<String, CompareOperator> SYMBOLS =
      Map.of(
          "<", CompareOperator.LESS,
          "<=", CompareOperator.LESS_OR_EQUAL,
          "=", CompareOperator.EQUAL,
          "!=", CompareOperator.NOT_EQUAL,
          ">=", CompareOperator.GREATER_OR_EQUAL,
          ">", CompareOperator.GREATER);

  private CompareOperatorSyntax() {}

  /** The operator a word stands for, or null. */
  static CompareOperator parse(String word) {
    CompareOperator op = SYMBOLS.get(word);
    if (op != null || !isAsciiLetters(word)) {
      return op;
    }
    // Only ASCII letters and '_' reach toUpperCase, so no locale or Unicode case rule applies.
    for (CompareOperator candidate : SYMBOLS.values()) {
      if (candidate.name().equals(word.toUpperCase(Locale.ROOT))) {
        return candidate;
      }
    }
    return null;
  }

  private static boolean isAsciiLetters(String word) {
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_')) {
        return false;
      }
    }
    return true;
  }
}
