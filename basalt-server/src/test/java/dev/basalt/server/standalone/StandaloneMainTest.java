package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The exit codes and messages of {@code bin/basalt standalone} when it cannot start. */
class StandaloneMainTest {
  @TempDir Path dir;

  @Test
  void aDataDirectoryThatIsAFileIsNamedWithWhatIsWrong() throws Exception {
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
    Run run = runOnFreePorts("--root", file.toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err().trim())
        .isEqualTo("basalt: could not start: " + file + ": already exists and is not a directory");
  }

  @Test
  void aMissingConfigurationFileIsABadCommandLine() throws Exception {
    Path missing = dir.resolve("basalt-site.xml");
    Run run = run("-c", missing.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(missing + " does not exist");
  }

  @Test
  void aConfigurationFileThatIsADirectoryIsNamed() throws Exception {
    Run run = run("-c", dir.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().trim()).isEqualTo("basalt: configuration file " + dir + " is a directory");
  }

  @Test
  void settingsThatContradictEachOtherAreABadConfiguration() {
    Run run =
        runOnFreePorts(
            "--root",
            dir.resolve("data").toString(),
            "-D",
            "hbase.hstore.compaction.min=5",
            "-D",
            "hbase.hstore.compaction.max=3");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().trim())
        .isEqualTo(
            "basalt: hbase.hstore.compaction.max = 3 is below hbase.hstore.compaction.min = 5");
  }

  @Test
  void aBadSettingNamesItsKey() throws Exception {
    Run run = run("--root", dir.toString(), "-D", "hbase.regionserver.port=many");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("hbase.regionserver.port");
  }

  /** A start that gets past the command line must not take the default ports of a real server. */
  private static Run runOnFreePorts(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    for (String port :
        List.of(
            "hbase.master.port",
            "hbase.regionserver.port",
            "hbase.zookeeper.property.clientPort")) {
      all.add("-D");
      all.add(port + "=0");
    }
    return run(all.toArray(String[]::new));
  }

  private static Run run(String... args) {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setErr(capture);
      int code = new CommandLine(new StandaloneMain()).execute(args);
      return new Run(code, err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(saved);
    }
  }

  private record Run(int exitCode, String err) {}
}
