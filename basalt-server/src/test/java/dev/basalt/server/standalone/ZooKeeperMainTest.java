package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bin/basalt zookeeper}: serves, keeps its data across a restart, stops on SIGTERM. */
class ZooKeeperMainTest {
  @TempDir Path dir;

  @Test
  void servesFromItsDataDirectoryAndStopsOnSigterm() throws Exception {
    Path data = dir.resolve("zk");
    Process first = startChild(data, dir.resolve("ready-1"));
    String address = readAddress(dir.resolve("ready-1"));
    try (ZooKeeper zk = connect(address)) {
      zk.create("/kept", new byte[] {7}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }
    stop(first);
    assertThat(Files.list(data).map(p -> p.getFileName().toString()))
        .as("ZooKeeper's files are in --data-dir")
        .contains("version-2");

    Process second = startChild(data, dir.resolve("ready-2"));
    try (ZooKeeper zk = connect(readAddress(dir.resolve("ready-2")))) {
      assertThat(zk.getData("/kept", false, null)).containsExactly(7);
    } finally {
      stop(second);
    }
  }

  @Test
  void aPortInUseIsNamedWithExitCode1() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Run run =
          run(
              "--port",
              Integer.toString(taken.getLocalPort()),
              "--data-dir",
              dir.resolve("zk").toString(),
              "-D",
              "hbase.rootdir=" + dir);
      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.err())
          .startsWith("basalt: could not start: cannot start the embedded ZooKeeper on 127.0.0.1:")
          .contains(Integer.toString(taken.getLocalPort()));
    }
  }

  @Test
  void aBadSettingIsABadCommandLine() {
    Run run = run("-D", "hbase.zookeeper.property.clientPort=many", "-D", "hbase.rootdir=" + dir);
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("hbase.zookeeper.property.clientPort");
  }

  @Test
  void aMissingConfigurationFileIsNamed() {
    Path missing = dir.resolve("basalt-site.xml");
    Run run = run("-c", missing.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(missing + " does not exist");
  }

  /** A child JVM, as bin/basalt runs it, so that SIGTERM (what Ctrl-C does too) can be sent. */
  private Process startChild(Path data, Path ready) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx128m");
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
    cmd.add(ZooKeeperMain.class.getName());
    cmd.addAll(List.of("--port", "0", "--data-dir", data.toString()));
    cmd.addAll(
        List.of("-D", "hbase.rootdir=" + dir.resolve("root"), "--ready-file", ready.toString()));
    Path log = dir.resolve(ready.getFileName() + ".out");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(ready)) {
      if (!p.isAlive()) {
        throw new AssertionError("zookeeper exited: " + Files.readString(log));
      }
      if (System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new AssertionError("zookeeper did not start: " + Files.readString(log));
      }
      Thread.sleep(20);
    }
    return p;
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy(); // SIGTERM: the shutdown hook stops the server
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("zookeeper did not stop on SIGTERM");
    }
    // 143 = 128 + SIGTERM: the JVM ran its shutdown hooks and exited, as after Ctrl-C (130)
    assertThat(p.exitValue()).isEqualTo(143);
  }

  private static String readAddress(Path ready) throws Exception {
    String line = Files.readString(ready, StandardCharsets.UTF_8).trim();
    assertThat(line).startsWith("zookeeper=127.0.0.1:");
    return line.substring("zookeeper=".length());
  }

  private static ZooKeeper connect(String address) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk =
        new ZooKeeper(
            address,
            10_000,
            e -> {
              if (e.getState() == KeeperState.SyncConnected) {
                connected.countDown();
              }
            });
    if (!connected.await(20, TimeUnit.SECONDS)) {
      zk.close();
      throw new AssertionError("could not connect to " + address);
    }
    return zk;
  }

  private static Run run(String... args) {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setErr(capture);
      int code = new CommandLine(new ZooKeeperMain()).execute(args);
      return new Run(code, err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(saved);
    }
  }

  private record Run(int exitCode, String err) {}
}
