package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/basalt shell's command line: -e, scripts, standard input, exit codes, -z, --config. */
class ShellMainTest {
  record Run(int code, String out, String err) {}

  private static Run run(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        ShellMain.run(
            args,
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static String z() {
    return "127.0.0.1:" + TestCluster.get().zooKeeperPort();
  }

  @Test
  void executeRunsCommandsAndExitsZero() {
    Run r =
        run(
            "",
            "-z",
            z(),
            "-e",
            "create 'main1', 'cf'; put 'main1', 'r', 'cf:q', 'v', 7; scan 'main1'");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .matches(
            "Created table main1\nTook \\d+\\.\\d{4} seconds\nTook \\d+\\.\\d{4} seconds\n"
                + "ROW  COLUMN\\+CELL\n r column=cf:q, timestamp=\\S+, value=v\n1 row\\(s\\)\n"
                + "Took \\d+\\.\\d{4} seconds\n");
  }

  @Test
  void aFailingCommandStopsTheRunWithExitCodeOne() {
    Run r = run("", "-z", z(), "-e", "get 'main_nope', 'r'; version");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo("ERROR: table 'main_nope' does not exist; 'list' shows the tables\n");
  }

  @Test
  void debugAddsTheStackTrace() {
    Run r = run("", "-z", z(), "--debug", "-e", "get 'main_nope', 'r'");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("ERROR: table 'main_nope' does not exist; 'list' shows the tables\n")
        .contains("TableNotFoundException")
        .contains("\tat ");
  }

  @Test
  void aScriptOnStandardInputOrInAFile(@TempDir Path dir) throws Exception {
    String script =
        "create 'main2', 'cf'\nput 'main2', 'r1', 'cf:q', 'v'\n# a comment\ncount 'main2'\n";
    Run r = run(script, "-z", z());
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("Created table main2\n").contains("1 row(s)\n");
    Path file = dir.resolve("script.txt");
    Files.writeString(file, "count 'main2'\nscan 'main2', {LIMIT =>\n 1}\n");
    Run f = run("", "-z", z(), file.toString());
    assertThat(f.code()).isZero();
    assertThat(f.out()).contains("ROW  COLUMN+CELL\n r1 column=cf:q");
    Run bad = run("version\nscan 'main2' {\n", "-z", z());
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err())
        .isEqualTo(
            "ERROR: syntax error at line 2, column 14: expected ',' or the end of the statement, found '{'\n");
  }

  @Test
  void configurationFileAndSettings(@TempDir Path dir) throws Exception {
    Path site = dir.resolve("hbase-site.xml");
    Files.writeString(
        site,
        "<configuration>\n"
            + "<property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>\n"
            + "<property><name>hbase.zookeeper.property.clientPort</name><value>"
            + TestCluster.get().zooKeeperPort()
            + "</value></property>\n"
            + "</configuration>\n");
    Run r =
        run(
            "",
            "--config",
            site.toString(),
            "-D",
            "hbase.shell.timestamp.format.epoch=true",
            "-e",
            "create 'main3', 'cf'; put 'main3', 'r', 'cf:q', 'v', 1234; get 'main3', 'r'");
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).contains(" cf:q timestamp=1234, value=v\n");
    Run missing = run("", "--config", dir.resolve("none.xml").toString(), "-e", "version");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("cannot read the configuration file");
  }

  @Test
  void badCommandLinesExitWithTwo() {
    Run r = run("", "--frobnicate");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("Unknown option: '--frobnicate'");
    Run bad = run("", "-z", "localhost:notaport", "-e", "version");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("-z expects HOST:PORT");
  }

  @Test
  void anUnreachableClusterIsOneLineThatSaysWhatToDo() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    long start = System.nanoTime();
    Run r = run("", "-z", "127.0.0.1:" + port, "-e", "list");
    // the shell's default of 3 ZooKeeper retries keeps this short
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("ERROR: cannot reach the cluster at 127.0.0.1:" + port + " (")
        .endsWith(
            "is it running? Start one with bin/basalt standalone, or point -z HOST:PORT at it\n");
    assertThat(r.err().split("\n")).hasSize(1);
    assertThat((System.nanoTime() - start) / 1e9).isLessThan(30);
  }
}
