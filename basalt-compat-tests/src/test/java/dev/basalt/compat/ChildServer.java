package dev.basalt.compat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A standalone server in a child JVM, for tests that kill or halt it: life {@code n} keeps its data
 * under {@code dir/data}, logs to {@code dir/server-n.log} and writes its addresses to {@code
 * dir/ready-n} once it answers.
 */
final class ChildServer {
  private ChildServer() {}

  /**
   * Starts life {@code n} and returns once it is ready.
   *
   * @param jvmOptions options for the child JVM (e.g. {@code -Dbasalt.faultpoints=...})
   * @param serverArgs arguments after {@code --root} and {@code --ready-file} (e.g. {@code -D
   *     hbase.master.port=0})
   */
  static Process start(Path dir, int n, List<String> jvmOptions, List<String> serverArgs)
      throws Exception {
    Path ready = readyFile(dir, n);
    Path log = dir.resolve("server-" + n + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-Dlogback.configurationFile=" + repositoryFile("conf/logback.xml"));
    cmd.addAll(jvmOptions);
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "dev.basalt.server.standalone.StandaloneMain",
            "--root",
            dir.resolve("data").toString(),
            "--ready-file",
            ready.toString()));
    cmd.addAll(serverArgs);
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.exists(ready)) {
      if (!p.isAlive()) {
        throw new AssertionError("server exited: " + Files.readString(log, StandardCharsets.UTF_8));
      }
      if (System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new AssertionError("server did not start: " + Files.readString(log));
      }
      Thread.sleep(20);
    }
    return p;
  }

  /**
   * The file life {@code n} writes its addresses to (lines {@code zookeeper=}, {@code bootstrap=}).
   */
  static Path readyFile(Path dir, int n) {
    return dir.resolve("ready-" + n);
  }

  /** A file of this repository (tests run with basalt-compat-tests as working directory). */
  static Path repositoryFile(String path) {
    Path here = Path.of("").toAbsolutePath();
    Path root = Files.isDirectory(here.resolve("conf")) ? here : here.getParent();
    return root.resolve(path);
  }
}
