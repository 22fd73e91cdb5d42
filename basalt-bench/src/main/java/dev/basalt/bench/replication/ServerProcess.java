package dev.basalt.bench.replication;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code bin/basalt standalone} child process on its own root and fixed ports (fixed, so that a
 * restart on the same root answers at the cluster key its peer was given). Stopped by its PID:
 * {@code bin/basalt} execs the JVM, so the child's PID is the server's.
 */
final class ServerProcess {
  private static final long READY_TIMEOUT_MILLIS = 180_000;

  private final String name;
  private final String launcher;
  private final String heap;
  private final Path root;
  private final List<String> settings;
  final int zooKeeperPort;
  final int masterPort;
  final int regionServerPort;
  private Process process;
  private Path readyFile;

  ServerProcess(String name, String launcher, String heap, Path dir, List<String> settings)
      throws IOException {
    this.name = name;
    this.launcher = launcher;
    this.heap = heap;
    this.root = dir.resolve(name);
    this.settings = settings;
    int[] ports = freePorts(3);
    this.zooKeeperPort = ports[0];
    this.masterPort = ports[1];
    this.regionServerPort = ports[2];
  }

  /** Launches the server; {@link #awaitReady} waits for it. */
  void start() throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " is running already");
    }
    Files.createDirectories(root);
    readyFile = root.resolveSibling(name + ".ready");
    Files.deleteIfExists(readyFile);
    List<String> cmd = new ArrayList<>();
    cmd.add(launcher);
    cmd.add("standalone");
    cmd.add("--root");
    cmd.add(root.toString());
    cmd.add("--ready-file");
    cmd.add(readyFile.toString());
    cmd.add("-D");
    cmd.add("hbase.zookeeper.property.clientPort=" + zooKeeperPort);
    cmd.add("-D");
    cmd.add("hbase.master.port=" + masterPort);
    cmd.add("-D");
    cmd.add("hbase.regionserver.port=" + regionServerPort);
    for (String s : settings) {
      cmd.add("-D");
      cmd.add(s);
    }
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("BASALT_HEAP", heap);
    pb.redirectErrorStream(true);
    pb.redirectOutput(
        ProcessBuilder.Redirect.appendTo(root.resolveSibling(name + ".out").toFile()));
    process = pb.start();
  }

  /** Waits for the ready file; fails if the process ends first. */
  void awaitReady() throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
    while (!Files.exists(readyFile)) {
      if (!process.isAlive()) {
        throw new IOException(
            name
                + " ended with status "
                + process.exitValue()
                + " before it was ready; see "
                + log());
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(name + " not ready after 180 s; see " + log());
      }
      Thread.sleep(20);
    }
  }

  String quorum() {
    return "127.0.0.1:" + zooKeeperPort;
  }

  /** The cluster key a peer of this server is given. */
  String clusterKey() {
    return quorum() + ":/hbase";
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return root.resolveSibling(name + ".out");
  }

  /** SIGTERM (a clean stop: memstores flushed), then SIGKILL after 120 s. */
  void stop() throws InterruptedException {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroy();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  void pause() throws IOException, InterruptedException {
    signal("-STOP");
  }

  void resume() throws IOException, InterruptedException {
    signal("-CONT");
  }

  private void signal(String sig) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", sig, Long.toString(pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill " + sig + " " + pid() + " failed");
    }
  }

  private static int[] freePorts(int n) throws IOException {
    ServerSocket[] sockets = new ServerSocket[n];
    int[] ports = new int[n];
    try {
      for (int i = 0; i < n; i++) { // held open together, so the n ports differ
        sockets[i] = new ServerSocket(0);
        ports[i] = sockets[i].getLocalPort();
      }
    } finally {
      for (ServerSocket s : sockets) {
        if (s != null) {
          s.close();
        }
      }
    }
    return ports;
  }
}
