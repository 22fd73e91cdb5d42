package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** put, get, delete, deleteall, incr, get_counter, append against a real server. */
class DataCommandsTest extends ShellTestBase {
  @BeforeAll
  void createTable() {
    shell.ok("create 'dml1', {NAME => 'cf', VERSIONS => 5}, 'cf2'");
  }

  @Test
  void putAndGetWithTimestampsVersionsColumnsAndTimeRanges() {
    shell.ok(
        "put 'dml1', 'r1', 'cf:a', 'v1', 1700000000000\n"
            + "put 'dml1', 'r1', 'cf:a', 'v2', 1700000001000\n"
            + "put 'dml1', 'r1', 'cf:b', 'b1', 1700000000500\n"
            + "put 'dml1', 'r1', 'cf2:c', 42, 1700000000000");
    assertThat(shell.ok("get 'dml1', 'r1'"))
        .isEqualTo(
            "COLUMN  CELL\n"
                + " cf:a timestamp=2023-11-14T22:13:21, value=v2\n"
                + " cf:b timestamp=2023-11-14T22:13:20.500, value=b1\n"
                + " cf2:c timestamp=2023-11-14T22:13:20, value=42\n"
                + "1 row(s)\n");
    assertThat(shell.ok("get 'dml1', 'r1', 'cf:a'"))
        .isEqualTo("COLUMN  CELL\n cf:a timestamp=2023-11-14T22:13:21, value=v2\n1 row(s)\n");
    assertThat(shell.ok("get 'dml1', 'r1', ['cf:b', 'cf2']"))
        .isEqualTo(
            "COLUMN  CELL\n"
                + " cf:b timestamp=2023-11-14T22:13:20.500, value=b1\n"
                + " cf2:c timestamp=2023-11-14T22:13:20, value=42\n"
                + "1 row(s)\n");
    assertThat(shell.ok("get 'dml1', 'r1', {COLUMN => 'cf:a', VERSIONS => 3}"))
        .isEqualTo(
            "COLUMN  CELL\n"
                + " cf:a timestamp=2023-11-14T22:13:21, value=v2\n"
                + " cf:a timestamp=2023-11-14T22:13:20, value=v1\n"
                + "1 row(s)\n");
    assertThat(shell.ok("get 'dml1', 'r1', {COLUMNS => ['cf:a'], TIMESTAMP => 1700000000000}"))
        .isEqualTo("COLUMN  CELL\n cf:a timestamp=2023-11-14T22:13:20, value=v1\n1 row(s)\n");
    assertThat(
            shell.ok(
                "get 'dml1', 'r1', {COLUMN => 'cf', TIMERANGE => [1700000000000, 1700000000600],"
                    + " VERSIONS => 5}"))
        .isEqualTo(
            "COLUMN  CELL\n"
                + " cf:a timestamp=2023-11-14T22:13:20, value=v1\n"
                + " cf:b timestamp=2023-11-14T22:13:20.500, value=b1\n"
                + "1 row(s)\n");
    assertThat(shell.ok("get 'dml1', 'r1', {FILTER => \"ValueFilter(=, 'binary:b1')\"}"))
        .isEqualTo("COLUMN  CELL\n cf:b timestamp=2023-11-14T22:13:20.500, value=b1\n1 row(s)\n");
    assertThat(shell.ok("get 'dml1', 'nothing'")).isEqualTo("COLUMN  CELL\n0 row(s)\n");
  }

  @Test
  void binaryRowsAndValuesAreEscapedLikeToStringBinary() {
    shell.ok("put 'dml1', \"b\\x00\\xFF\", \"cf:\\x01\", \"\\x00v\\n\", 5");
    assertThat(shell.ok("get 'dml1', \"b\\x00\\xFF\""))
        .isEqualTo(
            "COLUMN  CELL\n cf:\\x01 timestamp=1970-01-01T00:00:00.005, value=\\x00v\\x0A\n1 row(s)\n");
    // single quotes keep the backslash: a different row
    assertThat(shell.ok("get 'dml1', 'b\\x00\\xFF'")).endsWith("0 row(s)\n");
  }

  @Test
  void deleteRemovesEveryVersionOfAColumnAndDeleteallRowsFamiliesAndPrefixes() {
    shell.ok(
        "put 'dml1', 'd1', 'cf:a', 'x', 10; put 'dml1', 'd1', 'cf:a', 'y', 20;"
            + " put 'dml1', 'd1', 'cf:b', 'z', 10; put 'dml1', 'd1', 'cf2:c', 'w', 10");
    shell.ok("delete 'dml1', 'd1', 'cf:a'");
    assertThat(shell.ok("get 'dml1', 'd1', {COLUMN => 'cf', VERSIONS => 5}"))
        .isEqualTo("COLUMN  CELL\n cf:b timestamp=1970-01-01T00:00:00.010, value=z\n1 row(s)\n");
    shell.ok("deleteall 'dml1', 'd1', 'cf2'");
    assertThat(shell.ok("get 'dml1', 'd1'")).doesNotContain("cf2:c").contains("cf:b");
    shell.ok("put 'dml1', 'd2', 'cf:a', 'x', 10; put 'dml1', 'd2', 'cf:a', 'y', 30");
    shell.ok("delete 'dml1', 'd2', 'cf:a', 20");
    assertThat(shell.ok("get 'dml1', 'd2', {COLUMN => 'cf:a', VERSIONS => 5}"))
        .isEqualTo("COLUMN  CELL\n cf:a timestamp=1970-01-01T00:00:00.030, value=y\n1 row(s)\n");
    shell.ok("deleteall 'dml1', 'd1'; deleteall 'dml1', 'd2', 'cf:a'");
    assertThat(shell.ok("get 'dml1', 'd1'; get 'dml1', 'd2'"))
        .isEqualTo("COLUMN  CELL\n0 row(s)\nCOLUMN  CELL\n0 row(s)\n");
    shell.ok(
        "put 'dml1', 'p-1', 'cf:a', '1'; put 'dml1', 'p-2', 'cf:a', '2'; put 'dml1', 'q', 'cf:a', '3'");
    shell.ok("deleteall 'dml1', {ROWPREFIXFILTER => 'p-', CACHE => 1}");
    assertThat(shell.ok("count 'dml1', ROWPREFIXFILTER => 'p-'")).isEqualTo("0 row(s)\n");
    assertThat(shell.ok("get 'dml1', 'q'")).endsWith("1 row(s)\n");
  }

  @Test
  void countersAndAppends() {
    assertThat(shell.ok("incr 'dml1', 'c1', 'cf:hits'")).isEqualTo("COUNTER VALUE = 1\n");
    assertThat(shell.ok("incr 'dml1', 'c1', 'cf:hits', 41")).isEqualTo("COUNTER VALUE = 42\n");
    assertThat(shell.ok("incr 'dml1', 'c1', 'cf:hits', -2")).isEqualTo("COUNTER VALUE = 40\n");
    assertThat(shell.ok("get_counter 'dml1', 'c1', 'cf:hits'")).isEqualTo("COUNTER VALUE = 40\n");
    assertThat(shell.ok("get_counter 'dml1', 'c1', 'cf:none'"))
        .isEqualTo("No counter found at specified coordinates\n");
    shell.ok("put 'dml1', 'c1', 'cf:text', 'abc'");
    assertThat(shell.run("get_counter 'dml1', 'c1', 'cf:text'").err())
        .isEqualTo(
            "ERROR: get_counter: the cell holds 3 bytes, not a counter (8 bytes); read it with get\n");
    assertThat(shell.run("incr 'dml1', 'c1', 'cf'").err())
        .isEqualTo("ERROR: incr: give both family and qualifier, as in 'cf:counter'\n");
    assertThat(shell.ok("append 'dml1', 'a1', 'cf:s', 'ab'")).isEqualTo("CURRENT VALUE = ab\n");
    assertThat(shell.ok("append 'dml1', 'a1', 'cf:s', \"\\x00d\""))
        .isEqualTo("CURRENT VALUE = ab\\x00d\n");
  }

  @Test
  void wrongArgumentsAreOneLineErrors() {
    assertThat(shell.run("put 'dml1', 'r1', 'cf:a'").err())
        .isEqualTo(
            "ERROR: put takes 4 to 5 arguments (got 3); usage: put 't1', 'row', 'cf:q', 'value' [,"
                + " timestamp]\n");
    assertThat(shell.run("put 'dml1', 'r1', 'cf:a', 'v', 'later'").err())
        .isEqualTo("ERROR: put: argument 5 must be a timestamp (a whole number), got \"later\"\n");
    assertThat(shell.run("put 'dml1', 'r1', 'nofamily:a', 'v'").err())
        .startsWith(
            "ERROR: column family 'nofamily' does not exist in table 'dml1'; 'describe 'dml1'' shows its families");
    assertThat(shell.run("get 'dml1', 'r1', {FILTER => \"NoSuchFilter(1)\"}").err())
        .startsWith("ERROR: get: bad FILTER \"NoSuchFilter(1)\": ");
    assertThat(shell.run("get 'dml1', 'r1', {VERSIONS => 'many'}").err())
        .isEqualTo("ERROR: get: VERSIONS must be a whole number, got \"many\"\n");
    assertThat(shell.run("get 'dml1', 'r1', {TIMERANGE => [1]}").err())
        .isEqualTo(
            "ERROR: get: TIMERANGE must be [from, to], two timestamps in milliseconds, got [1]\n");
    assertThat(shell.run("get 'dml1', 'r1', {TIMERANGE => [5, 1]}").err())
        .startsWith("ERROR: get: bad TIMERANGE [5, 1]: ");
  }
}
