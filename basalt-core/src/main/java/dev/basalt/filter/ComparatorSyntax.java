package dev.basalt.filter;

import java.util.List;
import java.util.Locale;
import java.util.regex.PatternSyntaxException;

/**
 * Comparators written as {@code 'type:value'} (split at the first colon), with HBase's four type
 * names: {@code binary} ({@link BinaryComparator}), {@code binaryprefix} ({@link
 * BinaryPrefixComparator}), {@code regexstring} ({@link RegexStringComparator}) and {@code
 * substring} ({@link SubstringComparator}). Binary values are byte strings ({@code \xNN} escapes
 * apply); regular expressions and substrings are text.
 *
 * <p>Basalt's other comparators (long, bit, null, binary component) have no string form in HBase
 * and none here either: an unknown type is an error naming the four above. They are built in code.
 */
final class ComparatorSyntax {
  static final List<String> TYPES = List.of("binary", "binaryprefix", "regexstring", "substring");

  private ComparatorSyntax() {}

  /**
   * @param t the quoted argument
   * @param filter the filter it belongs to, for messages
   */
  static ByteArrayComparable parse(
      FilterToken t, FilterLiterals literals, String filter, String input) {
    String content = t.content();
    int colon = content.indexOf(':');
    if (colon < 0) {
      throw new FilterParseException(
          filter
              + ": a comparator is written 'type:value' with type one of "
              + types()
              + ", got "
              + t.describe(),
          input,
          t.start());
    }
    String type = content.substring(0, colon);
    int from = colon + 1;
    switch (type) {
      case "binary":
        return new BinaryComparator(literals.bytes(t, from));
      case "binaryprefix":
        return new BinaryPrefixComparator(literals.bytes(t, from));
      case "substring":
        return new SubstringComparator(literals.text(t, from));
      case "regexstring":
        return regex(t, literals, from, input);
      default:
        boolean caseOnly = TYPES.contains(type.toLowerCase(Locale.ROOT));
        throw new FilterParseException(
            filter
                + ": unknown comparator type '"
                + type
                + "', expected one of "
                + types()
                + (caseOnly ? " (comparator types are lower case)" : ""),
            input,
            t.contentOffset(0));
    }
  }

  private static ByteArrayComparable regex(
      FilterToken t, FilterLiterals literals, int from, String input) {
    try {
      return new RegexStringComparator(literals.text(t, from));
    } catch (IllegalArgumentException e) {
      // Point at the character the regex engine complains about when offsets allow it.
      int at = from;
      if (e.getCause() instanceof PatternSyntaxException && literals.textKeepsOffsets()) {
        int index = ((PatternSyntaxException) e.getCause()).getIndex();
        if (index >= 0) {
          at = Math.min(from + index, t.content().length());
        }
      }
      throw new FilterParseException(e.getMessage(), input, t.contentOffset(at));
    }
  }

  private static String types() {
    return String.join(", ", TYPES);
  }
}
