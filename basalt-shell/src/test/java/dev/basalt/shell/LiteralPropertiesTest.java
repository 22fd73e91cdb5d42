package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Rendered values parse back to themselves; any input either parses or fails at a position. */
class LiteralPropertiesTest {
  @Property(tries = 300)
  void renderedValuesParseBackToThemselves(@ForAll("values") List<Object> args) throws Exception {
    StringBuilder src = new StringBuilder("cmd ");
    for (int i = 0; i < args.size(); i++) {
      src.append(i == 0 ? "" : ", ").append(Literals.render(args.get(i)));
    }
    List<Statement> parsed = StatementParser.parseAll(src.toString());
    assertThat(parsed).hasSize(1);
    assertThat(parsed.get(0).args()).isEqualTo(args);
  }

  @Property(tries = 500)
  void anyInputParsesOrFailsAtAPositionInside(@ForAll("noise") String src) {
    try {
      StatementParser.parseAll(src);
    } catch (SyntaxException e) {
      assertThat(e.offset()).isBetween(0, src.length());
      assertThat(e.getMessage()).matches("(line \\d+, )?column \\d+: .+");
    }
  }

  @Provide
  Arbitrary<List<Object>> values() {
    return value(3).list().ofMaxSize(4);
  }

  private Arbitrary<Object> value(int depth) {
    Arbitrary<Object> leaf =
        Arbitraries.oneOf(
            Arbitraries.bytes()
                .array(byte[].class)
                .ofMaxSize(12)
                .map(b -> (Object) new ShellString(b)),
            Arbitraries.strings().ofMaxLength(10).map(s -> (Object) ShellString.of(s)),
            Arbitraries.longs().map(l -> (Object) l),
            Arbitraries.of(true, false).map(b -> (Object) b));
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<Object> list =
        value(depth - 1).list().ofMaxSize(3).map(l -> (Object) new ArrayList<>(l));
    Arbitrary<Object> map =
        Arbitraries.maps(
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6), value(depth - 1))
            .ofMaxSize(3)
            .map(m -> (Object) new LinkedHashMap<String, Object>(m));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, leaf),
        net.jqwik.api.Tuple.of(1, list),
        net.jqwik.api.Tuple.of(1, map));
  }

  @Provide
  Arbitrary<String> noise() {
    Arbitrary<String> pieces =
        Arbitraries.of(
            "scan", "'t1'", "\"a\\x0", ",", " ", "=>", "{", "}", "[", "]", "(", ")", ";", "\n",
            "LIMIT", "10", "-3", "#c", "\\", "'", "\"", "=", ":", "x", "1.5", "nil");
    return pieces.list().ofMaxSize(12).map(l -> String.join("", l));
  }

  @Example
  void mapsKeepTheirOrder() throws Exception {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("Z", 1L);
    m.put("A", 2L);
    Statement st = StatementParser.parseAll("x " + Literals.render(m)).get(0);
    assertThat(((Map<?, ?>) st.args().get(0)).keySet().toString()).isEqualTo("[Z, A]");
  }
}
