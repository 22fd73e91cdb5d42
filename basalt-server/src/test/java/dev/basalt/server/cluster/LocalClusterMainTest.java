package dev.basalt.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bin/basalt local-cluster}: refusals of a bad command line, and a real run as a child
 * process (its own children: ZooKeeper, a master, two region servers) that prints the client
 * settings, writes its ready file, and on SIGTERM stops every process it started.
 */
class LocalClusterMainTest {
  @TempDir Path dir;

  private record Run(int exitCode, String err) {}

  private static Run run(String... args) {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setErr(capture);
      int code = new CommandLine(new LocalClusterMain(System.out)).execute(args);
      return new Run(code, err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(saved);
    }
  }

  @Test
  void aBadCommandLineStartsNothing() {
    Path root = dir.resolve("root");
    Run none = run("--regionservers", "0", "--root", root.toString());
    assertThat(none.exitCode()).isEqualTo(2);
    assertThat(none.err())
        .contains("--regionservers 0: a cluster needs at least one region server");

    Run badSetting = run("--root", root.toString(), "-D", "hbase.regionserver.port=many");
    assertThat(badSetting.exitCode()).isEqualTo(2);
    assertThat(badSetting.err()).contains("hbase.regionserver.port");

    Run tooMany = run("--root", root.toString(), "--masters", "10");
    assertThat(tooMany.exitCode()).isEqualTo(2);
    assertThat(tooMany.err()).contains("masters = 10");
    assertThat(root).doesNotExist();

    // another file system's URI is refused, not taken for a local directory named "hdfs:"
    Run hdfs = run("--root", "hdfs://127.0.0.1:1/lc");
    assertThat(hdfs.exitCode()).isEqualTo(2);
    assertThat(hdfs.err())
        .contains("--root hdfs://127.0.0.1:1/lc: local-cluster runs on a local directory")
        .contains("-D hbase.rootdir=hdfs://127.0.0.1:1/lc");
    assertThat(Path.of("hdfs:")).doesNotExist();
  }

  @Test
  void aFileUriRootIsTheLocalDirectory() {
    assertThat(LocalClusterMain.localRoot(dir.toUri().toString())).isEqualTo(dir);
    assertThat(LocalClusterMain.localRoot("some/dir")).isEqualTo(Path.of("some/dir"));
  }

  /** local-cluster as a child process, its output in {@code out}. */
  private static Process launch(Path root, Path ready, Path out) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            LocalClusterMain.class.getName(),
            "--regionservers",
            "2",
            "--root",
            root.toString(),
            "--ready-file",
            ready.toString()));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
  }

  /** The processes whose command line names {@code root}: the cluster's children. */
  private static List<ProcessHandle> childrenOf(Path root) {
    return ProcessHandle.allProcesses()
        .filter(h -> h.info().commandLine().map(c -> c.contains(root.toString())).orElse(false))
        .toList();
  }

  @Test
  void aStopDuringTheStartLeavesNoProcessBehind() throws Exception {
    Path root = dir.resolve("cut-short");
    Path out = dir.resolve("cut-short.out");
    Process p = launch(root, dir.resolve("cut-short.ready"), out);
    try {
      Path masterOut = root.resolve("logs/master-1.out");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(masterOut)) { // ZooKeeper is up, the master is starting
        assertThat(p.isAlive()).as(Files.readString(out)).isTrue();
        assertThat(System.nanoTime()).as("a master launched within 120 s").isLessThan(deadline);
        Thread.sleep(20);
      }
      p.destroy(); // SIGTERM in the middle of the start
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("ended within 120 s").isTrue();
      assertThat(childrenOf(root)).as(Files.readString(out)).isEmpty();
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void runsTheClusterAsChildProcessesAndStopsThemAllOnSigterm() throws Exception {
    Path root = dir.resolve("cluster");
    Path ready = dir.resolve("ready");
    Path out = dir.resolve("local-cluster.out");
    Process p = launch(root, ready, out);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(ready)) {
        assertThat(p.isAlive()).as(Files.readString(out)).isTrue();
        assertThat(System.nanoTime()).as("ready within 120 s").isLessThan(deadline);
        Thread.sleep(50);
      }
      Properties r = new Properties();
      try (var in = Files.newBufferedReader(ready)) {
        r.load(in);
      }
      String zk = r.getProperty("zookeeper");
      assertThat(zk).startsWith("127.0.0.1:");
      assertThat(r.getProperty("bootstrap")).matches("127\\.0\\.0\\.1:\\d+");
      assertThat(r.getProperty("logs")).isEqualTo(root.resolve("logs").toString());
      try (Socket s = new Socket("127.0.0.1", Integer.parseInt(zk.substring(10)))) {
        assertThat(s.isConnected()).isTrue();
      }

      String printed = Files.readString(out);
      assertThat(printed)
          .contains("hbase.zookeeper.quorum=127.0.0.1")
          .contains("hbase.zookeeper.property.clientPort=" + zk.substring(10))
          .contains("hbase.client.bootstrap.servers=" + r.getProperty("bootstrap"))
          .contains("bin/basalt shell -z " + zk)
          .contains("logs:  " + root.resolve("logs"));
      List<Long> pids = new ArrayList<>();
      Matcher m =
          Pattern.compile("(?m)^  (zookeeper|master-1|regionserver-[12]) .* pid (\\d+)")
              .matcher(printed);
      while (m.find()) {
        pids.add(Long.parseLong(m.group(2)));
      }
      assertThat(pids).as(printed).hasSize(4);
      assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());
      for (String log :
          List.of("zookeeper.out", "master-1.out", "regionserver-1.out", "regionserver-2.out")) {
        assertThat(root.resolve("logs").resolve(log)).exists();
      }

      p.destroy(); // SIGTERM
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("stopped within 120 s").isTrue();
      assertThat(Files.readString(out)).contains("basalt: stopped");
      for (long pid : pids) {
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
            .as("process %d ended", pid)
            .isFalse();
      }
    } finally {
      p.destroyForcibly();
    }
  }
}
