package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatementParserTest {
  private static ShellString s(String text) {
    return ShellString.of(text);
  }

  private static Statement one(String src) throws SyntaxException {
    List<Statement> all = StatementParser.parseAll(src);
    assertThat(all).hasSize(1);
    return all.get(0);
  }

  private static SyntaxException error(String src) {
    try {
      StatementParser.parseAll(src);
    } catch (SyntaxException e) {
      return e;
    }
    throw new AssertionError("parsed: " + src);
  }

  @Test
  void positionalArgumentsAndATrailingHash() throws Exception {
    Statement st = one("get 't1', 'r1', COLUMN => 'cf:a', VERSIONS => 3");
    assertThat(st.command()).isEqualTo("get");
    Map<String, Object> opts = new LinkedHashMap<>();
    opts.put("COLUMN", s("cf:a"));
    opts.put("VERSIONS", 3L);
    assertThat(st.args()).containsExactly(s("t1"), s("r1"), opts);
  }

  @Test
  void hashesArraysNestingAndConstants() throws Exception {
    Statement st =
        one(
            "create 't1', {NAME => 'cf', VERSIONS => 3, METADATA => {'k' => 'v'}}, SPLITS => ['a','m',]");
    assertThat(st.args()).hasSize(3);
    @SuppressWarnings("unchecked")
    Map<String, Object> family = (Map<String, Object>) st.args().get(1);
    assertThat(family).containsEntry("NAME", s("cf")).containsEntry("VERSIONS", 3L);
    assertThat(family.get("METADATA")).isEqualTo(Map.of("k", s("v")));
    assertThat(st.args().get(2)).isEqualTo(Map.of("SPLITS", List.of(s("a"), s("m"))));
    Statement c = one("scan 't', {REVERSED => true, RAW => false, X => nil, KEEP => TRUE_CONST}");
    @SuppressWarnings("unchecked")
    Map<String, Object> h = (Map<String, Object>) c.args().get(1);
    assertThat(h.get("REVERSED")).isEqualTo(true);
    assertThat(h.get("RAW")).isEqualTo(false);
    assertThat(h).containsKey("X");
    assertThat(h.get("X")).isNull();
    assertThat(h.get("KEEP")).isEqualTo(s("TRUE_CONST"));
  }

  @Test
  void doubleQuotedEscapesGiveBytes() throws Exception {
    Statement st = one("put 't', \"r\\x00\\xFF\\x7\", 'cf:q', \"a\\tb\\n\\\\\\\"\\101\\u00e9\"");
    assertThat(((ShellString) st.args().get(1)).bytes())
        .containsExactly('r', 0x00, (byte) 0xFF, 0x07);
    assertThat(((ShellString) st.args().get(3)).bytes())
        .containsExactly('a', '\t', 'b', '\n', '\\', '"', 'A', (byte) 0xC3, (byte) 0xA9);
  }

  @Test
  void singleQuotesKeepBackslashesAsRubyDoes() throws Exception {
    Statement st = one("put 't', 'r\\x00', 'it\\'s', 'a\\\\b'");
    assertThat(((ShellString) st.args().get(1)).text()).isEqualTo("r\\x00");
    assertThat(((ShellString) st.args().get(2)).text()).isEqualTo("it's");
    assertThat(((ShellString) st.args().get(3)).text()).isEqualTo("a\\b");
  }

  @Test
  void numbersParenthesesSeparatorsAndComments() throws Exception {
    List<Statement> all =
        StatementParser.parseAll(
            "put('t', 'r', 'cf:q', 'v', -1_000) # a comment\n\n list;exists 't' ; version\n");
    assertThat(all)
        .extracting(Statement::command)
        .containsExactly("put", "list", "exists", "version");
    assertThat(all.get(0).args().get(4)).isEqualTo(-1000L);
  }

  @Test
  void newlinesInsideBracketsAndAfterCommasContinueTheStatement() throws Exception {
    Statement st = one("scan 't1',\n  {COLUMNS => [\n 'cf:a',\n 'cf:b'],\n LIMIT =>\n 10}");
    assertThat(st.args()).hasSize(2);
  }

  @Test
  void errorsSayWhereAndWhatWasExpected() {
    SyntaxException e = error("scan 't1', {LIMIT => }");
    assertThat(e.getMessage())
        .isEqualTo(
            "column 22: expected a value (a 'string', a number, [an, array] or {A => hash}),"
                + " found '}'");
    assertThat(e.incomplete()).isFalse();
    assertThat(error("scan 't1' 'x'").getMessage())
        .isEqualTo("column 11: expected ',' or the end of the statement, found a string");
    assertThat(error("list\nscan 't1', {A = 1}").getMessage())
        .isEqualTo("line 2, column 15: unexpected '='; options are written KEY => value");
    assertThat(error("get 't', 'r', COLUMN => 'a', 'b'").getMessage())
        .contains("column 30: positional arguments must come before");
    assertThat(error("scan 't', {LIMIT: 1}").getMessage()).contains("KEY => value, not KEY:");
    assertThat(error("scan foo").getMessage()).contains("unknown name 'foo'; quote strings");
    assertThat(error("put 't', \"\\xZZ\"").getMessage())
        .contains("column 11: \\x must be followed");
    assertThat(error("scan 't', {'a\nb' 1}").getMessage())
        .isEqualTo(
            "line 2, column 4: expected '=>' after the option name \"a\\x0Ab\", found the number 1");
    assertThat(error("put 't', \"\\u+0e9\"").getMessage())
        .contains("column 11: \\u must be followed by four hex digits");
    assertThat(error("put 't', \"\\u-001\"").getMessage())
        .contains("column 11: \\u must be followed by four hex digits");
    assertThat(error("put 't', \"\\u12\"").getMessage())
        .contains("column 11: \\u must be followed by four hex digits");
    assertThat(error("123").getMessage())
        .contains("expected a command name (such as scan or put), found the number 123");
    assertThat(error("scan 't', {LIMIT => 1.5}").getMessage()).contains("whole numbers");
    assertThat(error("x 99999999999999999999").getMessage()).contains("out of range");
  }

  @Test
  void inputThatStopsEarlyIsIncomplete() {
    for (String src :
        List.of(
            "scan 't1', {LIMIT => 1",
            "put 't', 'r",
            "get 't',",
            "scan 't', {A =>",
            "list(",
            "x [1, 2",
            "scan 't1', \\")) {
      SyntaxException e = error(src);
      assertThat(e.incomplete()).as(src).isTrue();
    }
    assertThat(error("scan 't1', }").incomplete()).isFalse();
  }

  @Test
  void statementsAreParsedOneAtATime() throws Exception {
    StatementParser p = new StatementParser("list; scan 't', {; version");
    assertThat(p.next().command()).isEqualTo("list");
    assertThatThrownBy(p::next).isInstanceOf(SyntaxException.class);
  }
}
