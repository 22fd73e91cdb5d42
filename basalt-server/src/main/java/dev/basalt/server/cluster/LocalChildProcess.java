package dev.basalt.server.cluster;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A process of a {@link LocalCluster} in a child JVM: started with its console output appended to
 * one file, ready once it wrote its ready file ({@code key=value} lines, written atomically by the
 * process), controlled by PID with signals. Thread-safe.
 */
final class LocalChildProcess extends LocalClusterNode {
  private static final long POLL_MILLIS = 20;
  private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(10);
  private static final int LOG_TAIL_BYTES = 4096;

  private final Process process;
  private final Path out;
  private final Path readyFile;
  private volatile Map<String, String> ready = Map.of();

  private LocalChildProcess(String id, Role role, Process process, Path out, Path readyFile) {
    super(id, role);
    this.process = process;
    this.out = out;
    this.readyFile = readyFile;
  }

  /**
   * Starts {@code command} (a stale ready file is removed first) and returns at once; see {@link
   * #awaitReady}.
   */
  static LocalChildProcess launch(
      String id, Role role, List<String> command, Path out, Path readyFile) throws IOException {
    Files.deleteIfExists(readyFile);
    Files.createDirectories(out.getParent());
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
            .start();
    return new LocalChildProcess(id, role, p, out, readyFile);
  }

  private static java.io.File nullDevice() {
    return new java.io.File("/dev/null");
  }

  /**
   * Waits until the process wrote its ready file.
   *
   * @throws IOException when it exited first or the time ran out (then it is killed), with the end
   *     of its output, which says why
   */
  void awaitReady(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Map<String, String> r = readReadyFile();
      if (!r.isEmpty()) {
        ready = r;
        return;
      }
      if (!process.isAlive()) {
        throw new IOException(
            id()
                + " exited with status "
                + process.exitValue()
                + " before it was ready; the end of "
                + out
                + ":\n"
                + tail());
      }
      if (System.nanoTime() - deadline >= 0) {
        process.destroyForcibly().waitFor(SIGNAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        throw new IOException(
            id()
                + " was not ready after "
                + timeout.toSeconds()
                + " s and was killed; the end of "
                + out
                + ":\n"
                + tail());
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  private Map<String, String> readReadyFile() throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(readyFile, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Map.of();
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : lines) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
      }
    }
    return values;
  }

  /** A value of the ready file as last read. */
  String readyValue(String key) {
    return ready.get(key);
  }

  /** The last few kilobytes of its console output. */
  String tail() {
    try (RandomAccessFile f = new RandomAccessFile(out.toFile(), "r")) {
      long from = Math.max(0, f.length() - LOG_TAIL_BYTES);
      byte[] b = new byte[(int) (f.length() - from)];
      f.seek(from);
      f.readFully(b);
      return new String(b, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + out + ": " + e.getMessage() + ")";
    }
  }

  @Override
  public ServerName serverName() {
    String key =
        switch (role()) {
          case MASTER -> "master";
          case REGION_SERVER -> "regionserver";
          case ZOOKEEPER -> null;
        };
    String v = key == null ? null : ready.get(key);
    return v == null ? null : ServerName.parse(v);
  }

  @Override
  public String address() {
    if (role() == Role.ZOOKEEPER) {
      return ready.get("zookeeper");
    }
    ServerName n = serverName();
    return n == null ? null : n.hostAndPort();
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public Path logFile() {
    return out;
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Re-reads the ready file: a standby master rewrites it with active=true once it takes over. */
  @Override
  public boolean isActiveMaster() {
    if (role() != Role.MASTER) {
      return false;
    }
    try {
      Map<String, String> r = readReadyFile();
      if (!r.isEmpty()) {
        ready = r;
      }
    } catch (IOException e) {
      return "true".equals(ready.get("active"));
    }
    return "true".equals(ready.get("active"));
  }

  @Override
  public int exitCode() {
    return process.isAlive() ? -1 : process.exitValue();
  }

  @Override
  int stop(Duration timeout) throws IOException, InterruptedException {
    if (!process.isAlive()) {
      return process.exitValue();
    }
    resume(); // a stopped process would not act on SIGTERM until continued
    process.destroy(); // SIGTERM: the process stops cleanly in its shutdown hook
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      System.err.println(
          "basalt: " + id() + " did not stop within " + timeout.toSeconds() + " s; killing it");
      return kill(SIGNAL_TIMEOUT);
    }
    return process.exitValue();
  }

  @Override
  int kill(Duration timeout) throws IOException, InterruptedException {
    process.destroyForcibly(); // SIGKILL
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IOException(id() + " (pid " + pid() + ") did not end after SIGKILL");
    }
    return process.exitValue();
  }

  /** Returns once the process is stopped (where /proc tells: Linux), at most 10 s. */
  @Override
  void suspend() throws IOException, InterruptedException {
    signal("STOP");
    awaitStopped(true);
  }

  /** Returns once the process runs again (where /proc tells: Linux), at most 10 s. */
  @Override
  void resume() throws IOException, InterruptedException {
    signal("CONT");
    awaitStopped(false);
  }

  /**
   * Waits until /proc/PID/stat says the process is (or is no longer) stopped by a signal: the
   * kernel delivers a signal after kill(1) returns.
   */
  private void awaitStopped(boolean stopped) throws IOException, InterruptedException {
    Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
    long deadline = System.nanoTime() + SIGNAL_TIMEOUT.toNanos();
    while (process.isAlive() && Files.exists(stat)) {
      String s;
      try {
        s = Files.readString(stat, StandardCharsets.UTF_8);
      } catch (NoSuchFileException gone) {
        return;
      }
      char state = s.charAt(s.lastIndexOf(')') + 2); // the field after the command's name
      if ((state == 'T') == stopped) {
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new IOException(
            id()
                + " (pid "
                + pid()
                + ") is in state "
                + state
                + " after SIG"
                + (stopped ? "STOP" : "CONT"));
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** Sends a signal by PID with the system's kill command (Java sends only TERM and KILL). */
  private void signal(String name) throws IOException, InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    Process k =
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
            .redirectErrorStream(true)
            .start();
    if (!k.waitFor(SIGNAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      k.destroyForcibly();
      throw new IOException("kill -" + name + " " + pid() + " did not return");
    }
    if (k.exitValue() != 0 && process.isAlive()) {
      String why = new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      throw new IOException("kill -" + name + " " + pid() + " failed: " + why);
    }
  }

  @Override
  public int awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
  }
}
