package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void writesAndParsesBack() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", "quote \" backslash \\ newline \n tab \t bell \u0007 é");
    m.put("i", 42L);
    m.put("d", 2.5);
    m.put("neg", -1.0E-5);
    m.put("t", true);
    m.put("n", null);
    m.put("list", List.of(1L, "two", List.of(), Map.of()));
    String text = Json.write(m);
    assertThat(Json.parse(text)).isEqualTo(m);
  }

  @Test
  void nonFiniteNumbersBecomeNull() {
    assertThat(Json.write(List.of(Double.NaN, Double.POSITIVE_INFINITY)))
        .isEqualTo("[\n  null,\n  null\n]");
  }

  @Test
  void parsesCompactJsonWithUnicodeEscapes() {
    assertThat(Json.parse("{\"a\":[1,2.0,\"\\u00e9\\/\"],\"b\":{}}"))
        .isEqualTo(Map.of("a", List.of(1L, 2.0, "é/"), "b", Map.of()));
  }

  @Test
  void errorsSayWhere() {
    assertThatThrownBy(() -> Json.parse("{\"a\" 1}")).hasMessage("JSON at offset 5: expected ':'");
    assertThatThrownBy(() -> Json.parse("[1, 2")).hasMessage("JSON at offset 5: expected ']'");
    assertThatThrownBy(() -> Json.parse("\"abc")).hasMessageContaining("unterminated string");
    assertThatThrownBy(() -> Json.parse("1 2")).hasMessageContaining("unexpected text");
    assertThatThrownBy(() -> Json.parse("-")).hasMessageContaining("bad number '-'");
    assertThatThrownBy(() -> Json.parse("")).hasMessageContaining("unexpected end");
  }
}
