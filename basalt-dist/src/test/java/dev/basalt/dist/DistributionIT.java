package dev.basalt.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary distribution as a user gets it: the tar.gz unpacked into a temp dir, its programs
 * started through its own bin/basalt with nothing but a JDK (no Maven: MVN names a missing file,
 * and the unpacked tree has no sources to build).
 */
class DistributionIT {
  @TempDir static Path dir;
  static Path home;
  static final List<Process> started = new ArrayList<>();

  @BeforeAll
  static void unpack() throws Exception {
    Path tarball = Path.of(System.getProperty("basalt.dist.tarball"));
    assertThat(tarball).as("mvn package builds the distribution first").isRegularFile();
    Path into = Files.createDirectories(dir.resolve("install"));
    Output tar =
        run(
            new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", into.toString()),
            Duration.UNPACK);
    assertThat(tar.exitCode()).as(tar.text()).isZero();
    home = into.resolve("basalt-" + System.getProperty("basalt.dist.version"));
  }

  @AfterAll
  static void stopLeftovers() {
    started.forEach(Process::destroyForcibly);
  }

  @Test
  void holdsTheLayoutAndTwoSeparateClassPaths() throws IOException {
    for (String f :
        List.of(
            "LICENSE",
            "NOTICE",
            "README.md",
            "conf/basalt-site.xml",
            "conf/logback.xml",
            "docs/CONFIGURATION.md")) {
      assertThat(home.resolve(f)).isRegularFile();
    }
    assertThat(Files.isExecutable(home.resolve("bin/basalt"))).isTrue();
    assertThat(jars(home.resolve("lib")))
        .anyMatch(j -> j.startsWith("basalt-server-"))
        .anyMatch(j -> j.startsWith("basalt-core-"))
        .anyMatch(j -> j.startsWith("hbase-protocol-shaded-"))
        .anyMatch(j -> j.startsWith("logback-classic-"))
        .anyMatch(j -> j.startsWith("basalt-hdfs-"))
        .anyMatch(j -> j.startsWith("hadoop-client-api-"))
        .anyMatch(j -> j.startsWith("hadoop-client-runtime-"))
        .noneMatch(j -> j.startsWith("hbase-shaded-client-"));
    assertThat(jars(home.resolve("lib/shell")))
        .anyMatch(j -> j.startsWith("basalt-shell-"))
        .anyMatch(j -> j.startsWith("hbase-shaded-client-"))
        .anyMatch(j -> j.startsWith("picocli-"))
        .noneMatch(j -> j.startsWith("hbase-protocol-shaded-"))
        .noneMatch(j -> j.startsWith("basalt-server-"));
  }

  @Test
  void standaloneStartsFromTheTarballAndTheShellTalksToIt() throws Exception {
    Path root = dir.resolve("data");
    Path logs = dir.resolve("logs");
    Path ready = dir.resolve("standalone.ready");
    ProcessBuilder pb =
        basalt(
            "standalone",
            "--root",
            root.toString(),
            "--ready-file",
            ready.toString(),
            "-D",
            "hbase.master.port=0",
            "-D",
            "hbase.regionserver.port=0",
            "-D",
            "hbase.zookeeper.property.clientPort=0");
    pb.environment().put("BASALT_LOG_DIR", logs.toString());
    Process server = start(pb, ready, dir.resolve("standalone.out"));
    Properties addresses = readyFile(ready);
    assertAccepts(addresses.getProperty("zookeeper"));
    assertAccepts(addresses.getProperty("bootstrap"));

    Output shell =
        run(
            basalt(
                "shell",
                "-z",
                addresses.getProperty("zookeeper"),
                "-e",
                "create 'dist', 'cf'; put 'dist', 'r1', 'cf:q', 'v1'; scan 'dist'; list"),
            Duration.SHELL);
    assertThat(shell.exitCode()).as(shell.text()).isZero();
    assertThat(shell.text()).contains("column=cf:q", "value=v1", "dist");

    Path log = logs.resolve("basalt-standalone.log");
    assertThat(Files.readString(log)).contains("Basalt standalone is up");
    stop(server);
    assertThat(Files.readString(log)).contains("Basalt standalone stopped");
  }

  @Test
  void zookeeperServesAndLogsUnderItsDataDirectory() throws Exception {
    Path root = dir.resolve("zk-root");
    Path ready = dir.resolve("zookeeper.ready");
    Process zk =
        start(
            basalt(
                "zookeeper",
                "--port",
                "0",
                "-D",
                "hbase.rootdir=" + root,
                "--ready-file",
                ready.toString()),
            ready,
            dir.resolve("zookeeper.out"));
    assertAccepts(readyFile(ready).getProperty("zookeeper"));
    assertThat(root.resolve("zookeeper/version-2")).isDirectory();
    // no BASALT_LOG_DIR: logs/ under the data directory, named after the command
    assertThat(Files.readString(root.resolve("logs/basalt-zookeeper.log")))
        .contains("embedded ZooKeeper serving");
    stop(zk);
  }

  @Test
  void anUnknownCommandPrintsTheUsage() throws Exception {
    Output out = run(basalt("no-such-command"), Duration.SHELL);
    assertThat(out.exitCode()).isEqualTo(2);
    assertThat(out.text())
        .contains("unknown command 'no-such-command'", "usage: bin/basalt COMMAND")
        .contains("standalone", "zookeeper", "shell");
  }

  /** bin/basalt of the unpacked tree, with a JDK and no Maven. */
  private static ProcessBuilder basalt(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/basalt").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Map<String, String> env = pb.environment();
    env.remove("JAVA_HOME");
    env.remove("BASALT_OPTS");
    env.remove("BASALT_LOG_DIR");
    env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.put("MVN", dir.resolve("no-maven-here").toString());
    env.put("BASALT_HEAP", "256m");
    env.put("BASALT_SHELL_HEAP", "256m");
    return pb;
  }

  private static Process start(ProcessBuilder pb, Path ready, Path out) throws Exception {
    Process p = pb.redirectErrorStream(true).redirectOutput(out.toFile()).start();
    started.add(p);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Duration.START.seconds);
    while (!Files.exists(ready)) {
      if (!p.isAlive()) {
        throw new AssertionError("exited with " + p.exitValue() + ": " + Files.readString(out));
      }
      if (System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new AssertionError("did not start: " + Files.readString(out));
      }
      Thread.sleep(25);
    }
    return p;
  }

  /** SIGTERM to the PID bin/basalt exec'd into the JVM: a clean stop, as Ctrl-C. */
  private static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(Duration.STOP.seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("did not stop on SIGTERM");
    }
    assertThat(p.exitValue()).as("128 + SIGTERM").isEqualTo(143);
  }

  private static Properties readyFile(Path ready) throws IOException {
    Properties p = new Properties();
    try (var r = Files.newBufferedReader(ready, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    return p;
  }

  private static void assertAccepts(String hostPort) throws IOException {
    int colon = hostPort.lastIndexOf(':');
    try (Socket s = new Socket()) {
      s.connect(
          new InetSocketAddress(
              hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
          5_000);
    }
  }

  private static List<String> jars(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".jar")).toList();
    }
  }

  private static Output run(ProcessBuilder pb, Duration limit)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Process p = pb.redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!p.waitFor(limit.seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(pb.command() + " did not finish: " + Files.readString(out));
    }
    return new Output(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
  }

  /** Limits, generous for a loaded 2-CPU machine; none is a measurement. */
  private enum Duration {
    UNPACK(60),
    START(90),
    SHELL(90),
    STOP(60);

    final int seconds;

    Duration(int seconds) {
      this.seconds = seconds;
    }
  }

  private record Output(int exitCode, String text) {}
}
