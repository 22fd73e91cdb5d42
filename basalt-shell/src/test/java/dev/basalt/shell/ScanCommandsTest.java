package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** scan and count with their options against a real server. */
class ScanCommandsTest extends ShellTestBase {
  @BeforeAll
  void createAndFillTable() {
    StringBuilder puts =
        new StringBuilder("create 'scan1', {NAME => 'cf', VERSIONS => 3}, SPLITS => ['r3']\n");
    for (int i = 1; i <= 5; i++) {
      puts.append("put 'scan1', 'r")
          .append(i)
          .append("', 'cf:a', 'a")
          .append(i)
          .append("', 1000\n");
      puts.append("put 'scan1', 'r")
          .append(i)
          .append("', 'cf:b', 'b")
          .append(i)
          .append("', 1000\n");
    }
    puts.append("put 'scan1', 'r1', 'cf:a', 'a1-new', 2000\n");
    puts.append("put 'scan1', 'x1', 'cf:a', 'x', 1000\n");
    shell.ok(puts.toString());
  }

  private static String row(String key, String col, String ts, String value) {
    return " "
        + key
        + " column=cf:"
        + col
        + ", timestamp=1970-01-01T00:00:0"
        + ts
        + ", value="
        + value
        + "\n";
  }

  @Test
  void scanPrintsEveryCellOfEveryRowAcrossRegions() {
    assertThat(shell.ok("scan 'scan1', {COLUMNS => 'cf:a'}"))
        .isEqualTo(
            "ROW  COLUMN+CELL\n"
                + row("r1", "a", "2", "a1-new")
                + row("r2", "a", "1", "a2")
                + row("r3", "a", "1", "a3")
                + row("r4", "a", "1", "a4")
                + row("r5", "a", "1", "a5")
                + row("x1", "a", "1", "x")
                + "6 row(s)\n");
  }

  @Test
  void rowBoundsPrefixesLimitsAndReversal() {
    assertThat(shell.ok("scan 'scan1', {STARTROW => 'r2', STOPROW => 'r4', COLUMNS => ['cf:b']}"))
        .isEqualTo(
            "ROW  COLUMN+CELL\n"
                + row("r2", "b", "1", "b2")
                + row("r3", "b", "1", "b3")
                + "2 row(s)\n");
    assertThat(shell.ok("scan 'scan1', {ROWPREFIXFILTER => 'x'}"))
        .isEqualTo("ROW  COLUMN+CELL\n" + row("x1", "a", "1", "x") + "1 row(s)\n");
    assertThat(shell.ok("scan 'scan1', {LIMIT => 2, COLUMN => 'cf:b'}"))
        .isEqualTo(
            "ROW  COLUMN+CELL\n"
                + row("r1", "b", "1", "b1")
                + row("r2", "b", "1", "b2")
                + "2 row(s)\n");
    assertThat(
            shell.ok(
                "scan 'scan1', {REVERSED => true, LIMIT => 3, COLUMNS => 'cf:b', STARTROW => 'r4'}"))
        .isEqualTo(
            "ROW  COLUMN+CELL\n"
                + row("r4", "b", "1", "b4")
                + row("r3", "b", "1", "b3")
                + row("r2", "b", "1", "b2")
                + "3 row(s)\n");
  }

  @Test
  void versionsTimeRangesFiltersRawAndCache() {
    assertThat(
            shell.ok(
                "scan 'scan1', {STARTROW => 'r1', STOPROW => 'r2', COLUMNS => 'cf:a', VERSIONS => 3}"))
        .isEqualTo(
            "ROW  COLUMN+CELL\n"
                + row("r1", "a", "2", "a1-new")
                + row("r1", "a", "1", "a1")
                + "1 row(s)\n");
    assertThat(shell.ok("scan 'scan1', {TIMERANGE => [1500, 3000]}"))
        .isEqualTo("ROW  COLUMN+CELL\n" + row("r1", "a", "2", "a1-new") + "1 row(s)\n");
    assertThat(shell.ok("scan 'scan1', {TIMESTAMP => 2000}"))
        .isEqualTo("ROW  COLUMN+CELL\n" + row("r1", "a", "2", "a1-new") + "1 row(s)\n");
    assertThat(
            shell.ok(
                "scan 'scan1', {FILTER => \"PrefixFilter('r') AND ValueFilter(=, 'substring:5')\","
                    + " CACHE => 1}"))
        .isEqualTo(
            "ROW  COLUMN+CELL\n"
                + row("r5", "a", "1", "a5")
                + row("r5", "b", "1", "b5")
                + "1 row(s)\n");
    shell.ok(
        "create 'scan2', 'cf'; put 'scan2', 'k', 'cf:q', 'v', 100; delete 'scan2', 'k', 'cf:q', 200");
    assertThat(shell.ok("scan 'scan2'")).isEqualTo("ROW  COLUMN+CELL\n0 row(s)\n");
    assertThat(shell.ok("scan 'scan2', {RAW => true, VERSIONS => 5}"))
        .isEqualTo(
            "ROW  COLUMN+CELL\n"
                + " k column=cf:q, timestamp=1970-01-01T00:00:00.200, type=DeleteColumn\n"
                + " k column=cf:q, timestamp=1970-01-01T00:00:00.100, value=v\n"
                + "1 row(s)\n");
    assertThat(shell.ok("scan 'scan1', {LIMIT => 1, COLUMNS => 'cf:a', MAXLENGTH => 14}"))
        .isEqualTo("ROW  COLUMN+CELL\n r1 column=cf:a, timestamp=1970\n1 row(s)\n");
  }

  @Test
  void countPrintsProgressEveryIntervalRows() {
    assertThat(shell.ok("count 'scan1'")).isEqualTo("6 row(s)\n");
    assertThat(shell.ok("count 'scan1', INTERVAL => 2, CACHE => 1"))
        .isEqualTo(
            "Current count: 2, row: r2\n"
                + "Current count: 4, row: r4\n"
                + "Current count: 6, row: x1\n"
                + "6 row(s)\n");
    assertThat(shell.ok("count 'scan1', {FILTER => \"ValueFilter(=, 'binary:b3')\"}"))
        .isEqualTo("1 row(s)\n");
    assertThat(shell.ok("count 'scan1', {STARTROW => 'r2', STOPROW => 'r5'}"))
        .isEqualTo("3 row(s)\n");
    assertThat(shell.run("count 'scan1', INTERVAL => 0").err())
        .isEqualTo("ERROR: count: INTERVAL must be at least 1\n");
  }

  @Test
  void badOptionsAreOneLineErrors() {
    assertThat(shell.run("scan 'scan1', {TIMERANGE => [3000, 1500]}").err())
        .startsWith("ERROR: scan: bad TIMERANGE [3000, 1500]: ");
    assertThat(shell.run("scan 'scan1', {LIMT => 1}").err())
        .isEqualTo("ERROR: scan: unknown option LIMT; did you mean LIMIT?\n");
    assertThat(shell.run("scan 'scan1', {COLUMNS => 5}").err())
        .isEqualTo("ERROR: scan: COLUMNS must be a string or an array of strings, got 5\n");
    assertThat(shell.run("scan 'scan1', 'cf:a'").err())
        .isEqualTo(
            "ERROR: scan: argument 2 must be a hash of options such as {LIMIT => 10}, got \"cf:a\"\n");
    assertThat(shell.run("scan 'nope'").err())
        .isEqualTo("ERROR: table 'nope' does not exist; 'list' shows the tables\n");
  }
}
