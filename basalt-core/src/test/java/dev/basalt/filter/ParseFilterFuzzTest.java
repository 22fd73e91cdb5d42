package dev.basalt.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;

/**
 * Whatever the input, the parser returns a filter or throws a {@link FilterParseException} whose
 * position lies in the input and whose caret line points there: random text, random sequences of
 * the language's own tokens, and mutations of valid expressions. Valid expression trees, printed
 * with random spacing and redundant parentheses, parse back to the same tree; byte strings survive
 * the round trip through the shell's {@code \xNN} notation.
 */
class ParseFilterFuzzTest {

  /** Valid expressions the mutations start from: every filter and every operator. */
  private static final List<String> SEEDS =
      List.of(
          "PrefixFilter('user1') AND ColumnPrefixFilter('a') OR ValueFilter(=, 'binary:x')",
          "KeyOnlyFilter(true) AND FirstKeyOnlyFilter()",
          "SKIP ValueFilter(!=, 'binary:0') OR WHILE RowFilter(<, 'binaryprefix:r\\x00')",
          "MultipleColumnPrefixFilter('a', 'b''c') AND ColumnCountGetFilter(3)",
          "(PageFilter(10) OR ColumnPaginationFilter(2, 1)) AND InclusiveStopFilter('z')",
          "TimestampsFilter(1, 2, 3) AND FamilyFilter(>=, 'substring:f')",
          "QualifierFilter(=, 'regexstring:^q[0-9]+$') AND ColumnRangeFilter('a', true, '', false)",
          "DependentColumnFilter('f', 'q', true, <=, 'binary:5')",
          "SingleColumnValueFilter('f', 'q', =, 'binary:v', true, false)",
          "SingleColumnValueExcludeFilter('f', 'q', NOT_EQUAL, 'substring:v')",
          "ColumnValueFilter('f', 'q', >, 'binary:\\xFF') AND ColumnPaginationFilter(1, 'q')",
          "((SKIP (WHILE PrefixFilter('é'))))");

  /** Pieces of the language (and a little noise) for random token soups. */
  private static final List<String> FRAGMENTS = fragments();

  private static List<String> fragments() {
    List<String> f = new ArrayList<>(ParseFilter.supportedFilters());
    f.addAll(
        List.of(
            "AND",
            "OR",
            "SKIP",
            "WHILE",
            "and",
            "(",
            ")",
            ",",
            "'",
            "''",
            "'a'",
            "'binary:x'",
            "'binaryprefix:'",
            "'regexstring:a.*'",
            "'regexstring:('",
            "'substring:q'",
            "'long:1'",
            "'\\x00'",
            "'\\x'",
            "'\\xG0'",
            "'f'",
            "'q'",
            "1",
            "-1",
            "0",
            "-",
            "99999999999",
            "9223372036854775808",
            "true",
            "FALSE",
            "yes",
            "=",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            "==",
            "LESS",
            "equal",
            "NO_OP",
            " ",
            " ",
            " ",
            "\t",
            "\n",
            "é",
            "\u0000",
            "\uD800",
            "x",
            ":",
            "\\"));
    return List.copyOf(f);
  }

  @Property(tries = 1000)
  void randomTextParsesOrFailsCleanly(@ForAll("anyText") String input) {
    parsesOrFailsCleanly(input);
  }

  @Property(tries = 2000)
  void tokenSoupsParseOrFailCleanly(@ForAll("tokenSoups") String input) {
    parsesOrFailsCleanly(input);
  }

  @Property(tries = 2000)
  void mutatedExpressionsParseOrFailCleanly(@ForAll("mutants") String input) {
    parsesOrFailsCleanly(input);
  }

  @Property(tries = 500)
  void randomBytesParseOrFailCleanly(@ForAll("byteSoups") byte[] input) {
    try {
      assertThat(ParseFilter.parse(input)).isNotNull();
    } catch (FilterParseException e) {
      assertThat(e.getPosition()).isBetween(0, input.length);
    }
  }

  @Property(tries = 500)
  void expressionTreesParseBackToTheirShape(@ForAll("trees") Tuple2<String, String> tree) {
    assertThat(FilterShapes.parse(tree.get1())).as(tree.get1()).isEqualTo(tree.get2());
  }

  @Property(tries = 500)
  void byteStringsRoundTripThroughTheShellNotation(@ForAll byte[] key) {
    String literal = "'" + Bytes.toStringBinary(key).replace("'", "''") + "'";
    PrefixFilter p = (PrefixFilter) ParseFilter.parse("PrefixFilter(" + literal + ")");
    assertThat(p.getPrefix()).isEqualTo(key);

    String comparator = "'binary:" + literal.substring(1);
    RowFilter r = (RowFilter) ParseFilter.parse("RowFilter(=, " + comparator + ")");
    assertThat(r.getComparator()).isEqualTo(new BinaryComparator(key));
  }

  @Property(tries = 500)
  void rawBytesSurviveByteInput(@ForAll byte[] key) {
    // Quotes doubled and backslashes escaped; every other byte goes in as it is.
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    in.writeBytes(Bytes.toBytes("InclusiveStopFilter('"));
    for (byte x : key) {
      if (x == '\\') {
        in.writeBytes(Bytes.toBytes("\\x5C"));
      } else {
        in.write(x);
        if (x == '\'') {
          in.write(x);
        }
      }
    }
    in.writeBytes(Bytes.toBytes("')"));
    InclusiveStopFilter f = (InclusiveStopFilter) ParseFilter.parse(in.toByteArray());
    assertThat(f.getStopRowKey()).isEqualTo(key);
  }

  /** The property every input must meet: a filter, or a parse error that points into the input. */
  private static void parsesOrFailsCleanly(String input) {
    Filter f;
    try {
      f = ParseFilter.parse(input);
    } catch (FilterParseException e) {
      assertThat(e.getPosition()).isBetween(0, input.length());
      assertThat(e.getInput()).isSameAs(input);
      assertThat(e.getMessage()).startsWith(e.getReason() + " at position " + e.getPosition());
      String caretLine = e.getMessage().substring(e.getMessage().lastIndexOf('\n') + 1);
      assertThat(caretLine).endsWith("^");
      assertThat(caretLine.substring(0, caretLine.length() - 1)).isBlank();
      if (input.indexOf('\n') < 0 && input.length() <= 100) {
        // Unwindowed single lines: the caret sits exactly under the position.
        assertThat(caretLine).hasSize(e.getPosition() + 3);
      }
      return;
    }
    assertThat(f).isNotNull();
  }

  @Provide
  Arbitrary<String> anyText() {
    return Arbitraries.strings().all().ofMaxLength(60);
  }

  @Provide
  Arbitrary<String> tokenSoups() {
    return Arbitraries.of(FRAGMENTS).list().ofMaxSize(16).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<byte[]> byteSoups() {
    return tokenSoups().map(s -> s.getBytes(StandardCharsets.UTF_8));
  }

  @Provide
  Arbitrary<String> mutants() {
    return Arbitraries.randomValue(ParseFilterFuzzTest::mutate);
  }

  @Provide
  Arbitrary<Tuple2<String, String>> trees() {
    return Arbitraries.randomValue(r -> tree(r, 4));
  }

  /** A seed with one to three random edits: deletions, insertions, replacements, cuts. */
  private static String mutate(Random r) {
    StringBuilder s = new StringBuilder(SEEDS.get(r.nextInt(SEEDS.size())));
    int edits = 1 + r.nextInt(3);
    for (int i = 0; i < edits; i++) {
      int at = r.nextInt(4) == 0 ? r.nextInt(s.length() + 1) : boundary(s, r);
      switch (r.nextInt(5)) {
        case 0:
          s.delete(at, Math.min(s.length(), at + 1 + r.nextInt(5)));
          break;
        case 1:
          s.insert(at, FRAGMENTS.get(r.nextInt(FRAGMENTS.size())));
          break;
        case 2:
          if (at < s.length()) {
            String chars = "()',\\x: ='\u0000é";
            s.setCharAt(at, chars.charAt(r.nextInt(chars.length())));
          }
          break;
        case 3:
          int end = Math.min(s.length(), at + r.nextInt(12));
          s.insert(at, s.substring(at, end));
          break;
        default:
          s.setLength(at);
          break;
      }
    }
    return s.toString();
  }

  /**
   * A random position next to punctuation, so edits mostly hit the structure rather than the long
   * filter names (which would only ever give "unknown filter").
   */
  private static int boundary(CharSequence s, Random r) {
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < s.length(); i++) {
      if ("(),' =".indexOf(s.charAt(i)) >= 0) {
        at.add(i + r.nextInt(2));
      }
    }
    return at.isEmpty() ? s.length() : at.get(r.nextInt(at.size()));
  }

  /**
   * A random expression tree: its text and its shape as {@link FilterShapes} prints it. Nested
   * lists are parenthesised (otherwise they would merge with, or bind differently to, their
   * parent); other operands sometimes get redundant parentheses.
   */
  private static Tuple2<String, String> tree(Random r, int depth) {
    int kind = depth == 0 ? 0 : r.nextInt(6);
    if (kind == 0) {
      String prefix = String.valueOf((char) ('a' + r.nextInt(5)));
      String text =
          r.nextBoolean()
              ? "PrefixFilter('" + prefix + "')"
              : "PrefixFilter" + space(r) + "(" + space(r) + "'" + prefix + "'" + space(r) + ")";
      return Tuple.of(text, prefix);
    }
    if (kind == 1 || kind == 2) {
      boolean and = kind == 1;
      String op = and ? "AND" : "OR";
      StringJoiner text = new StringJoiner(" " + space(r) + op + " " + space(r));
      StringJoiner shape = new StringJoiner(", ", op + "(", ")");
      int n = 2 + r.nextInt(3);
      for (int i = 0; i < n; i++) {
        Tuple2<String, String> child = tree(r, depth - 1);
        text.add(
            child.get2().startsWith("AND(") || child.get2().startsWith("OR(")
                ? "(" + child.get1() + ")"
                : child.get1());
        shape.add(child.get2());
      }
      return Tuple.of(text.toString(), shape.toString());
    }
    if (kind == 3 || kind == 4) {
      String op = kind == 3 ? "SKIP" : "WHILE";
      Tuple2<String, String> child = tree(r, depth - 1);
      boolean list = child.get2().startsWith("AND(") || child.get2().startsWith("OR(");
      String operand = list || r.nextBoolean() ? "(" + child.get1() + ")" : child.get1();
      String gap = operand.startsWith("(") && r.nextBoolean() ? "" : " " + space(r);
      return Tuple.of(op + gap + operand, op + "(" + child.get2() + ")");
    }
    Tuple2<String, String> child = tree(r, depth - 1);
    return Tuple.of("(" + space(r) + child.get1() + space(r) + ")", child.get2());
  }

  private static String space(Random r) {
    return new String[] {"", "", " ", "\t", "\n  "}[r.nextInt(5)];
  }
}
