package dev.basalt.filter;

import dev.basalt.filter.FilterToken.Kind;
import java.util.Arrays;

/**
 * Splits a filter string into tokens on demand, so that errors are reported left to right: a
 * problem early in the input is found before an unterminated string later on.
 *
 * <p>Tokens are parentheses, commas, quoted strings ({@code 'it''s'}: a quote inside is doubled)
 * and words: runs of any other characters up to whitespace or one of {@code ( ) , '}. Words are
 * filter names, the operators AND, OR, SKIP and WHILE, and unquoted arguments (numbers, booleans,
 * compare operators); the parser decides which from where they stand.
 */
final class FilterTokenizer {
  private final String input;
  private int pos;
  private FilterToken peeked;

  FilterTokenizer(String input) {
    this.input = input;
  }

  FilterToken peek() {
    if (peeked == null) {
      peeked = read();
    }
    return peeked;
  }

  FilterToken next() {
    FilterToken t = peek();
    peeked = null;
    return t;
  }

  private FilterToken read() {
    while (pos < input.length() && Character.isWhitespace(input.charAt(pos))) {
      pos++;
    }
    if (pos == input.length()) {
      return plain(Kind.END, pos, pos);
    }
    switch (input.charAt(pos)) {
      case '(':
        return plain(Kind.LPAREN, pos, ++pos);
      case ')':
        return plain(Kind.RPAREN, pos, ++pos);
      case ',':
        return plain(Kind.COMMA, pos, ++pos);
      case '\'':
        return quoted();
      default:
        return word();
    }
  }

  private FilterToken plain(Kind kind, int start, int end) {
    String s = input.substring(start, end);
    return new FilterToken(kind, start, end, s, s, null);
  }

  private FilterToken word() {
    int start = pos;
    while (pos < input.length() && !endsWord(input.charAt(pos))) {
      pos++;
    }
    return plain(Kind.WORD, start, pos);
  }

  static boolean endsWord(char c) {
    return Character.isWhitespace(c) || c == '(' || c == ')' || c == ',' || c == '\'';
  }

  private FilterToken quoted() {
    int start = pos;
    StringBuilder content = new StringBuilder();
    int[] offsets = new int[16];
    int i = start + 1;
    while (true) {
      if (i >= input.length()) {
        throw new FilterParseException(
            "unterminated quoted string (a quote inside a string is written '')", input, start);
      }
      char c = input.charAt(i);
      boolean doubled = c == '\'' && i + 1 < input.length() && input.charAt(i + 1) == '\'';
      if (c == '\'' && !doubled) {
        break;
      }
      if (content.length() == offsets.length) {
        offsets = Arrays.copyOf(offsets, offsets.length * 2);
      }
      offsets[content.length()] = i;
      content.append(c);
      i += doubled ? 2 : 1;
    }
    pos = i + 1;
    return new FilterToken(
        Kind.QUOTED,
        start,
        pos,
        input.substring(start, pos),
        content.toString(),
        Arrays.copyOf(offsets, content.length()));
  }
}
