package dev.basalt.server.standalone;

import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Option;

/**
 * What every {@code bin/basalt} server command (standalone, master, regionserver, zookeeper,
 * local-cluster) does the same way: the {@code -c}/{@code -D} options (a picocli mixin), loading
 * the settings, choosing the log directory before the first logger exists, the words and exit code
 * for a failed start, the ready file, and waiting for SIGTERM. Exit codes: 1 when the process could
 * not start, 2 for a bad command line or configuration.
 */
public final class ServerLaunch {
  /** Exit code for a bad command line or configuration. */
  public static final int BAD_CONFIGURATION = 2;

  /** Exit code for a process that could not start (or had to stop at once). */
  public static final int FAILED = 1;

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "basalt-site.xml (HBase's XML layout) or a .properties file.")
  private Path configFile;

  @Option(
      names = {"-D"},
      paramLabel = "KEY=VALUE",
      description = "A setting; wins over the configuration file.")
  private Map<String, String> settings = new LinkedHashMap<>();

  /** A start-up step failed; its reason is printed and the process exits with {@link #code}. */
  public static final class Exit extends Exception {
    private final int code;

    Exit(int code, String message) {
      super(message, null, false, false);
      this.code = code;
    }

    public int code() {
      return code;
    }

    /** Prints the reason and returns the exit code. */
    public int report() {
      System.err.println("basalt: " + getMessage());
      return code;
    }
  }

  /**
   * The settings: the configuration file, then {@code -D}, then {@code commandOptions} (what a
   * command's own options such as {@code --root} stand for). Warns about keys Basalt does not use.
   */
  public Config load(Map<String, String> commandOptions) throws Exit {
    Config config;
    try {
      Map<String, String> overrides = new LinkedHashMap<>(settings);
      overrides.putAll(commandOptions);
      config = SiteConfig.load(configFile, overrides);
    } catch (IOException | IllegalArgumentException e) {
      throw new Exit(BAD_CONFIGURATION, StartupErrors.describe(e));
    }
    if (!config.unknownKeys().isEmpty()) {
      System.err.println("basalt: ignoring settings Basalt does not use: " + config.unknownKeys());
    }
    return config;
  }

  /**
   * {@link #load} with {@code --root DIR} standing for {@code hbase.rootdir}: a String, not a Path,
   * so that a URI ({@code hdfs://nn:8020/basalt}) keeps its double slash.
   */
  public Config load(String root) throws Exit {
    return load(root == null ? Map.of() : Map.of(StandaloneSettings.ROOT_DIR.key(), root));
  }

  /**
   * Sends the logs to {@code logs/} under the root directory (under the process's local directory
   * when the root is on HDFS: {@link RootDirectory#localDirectory}) and returns that directory.
   * Call it before anything starts Logback: touching a class with a static logger does.
   */
  public static Path useLogsUnderRoot(Config config) throws Exit {
    try {
      Path dir = RootDirectory.of(config).localDirectory();
      ProcessLogs.defaultTo(dir);
      return dir;
    } catch (IllegalArgumentException e) {
      throw new Exit(BAD_CONFIGURATION, e.getMessage());
    }
  }

  /** The exit for a bad command line or configuration, saying what is wrong. */
  public static Exit badConfiguration(String message) {
    return new Exit(BAD_CONFIGURATION, message);
  }

  /**
   * The exit for a start that threw: a setting the server refused (IllegalArgumentException) is a
   * bad configuration, anything else a failed start of {@code what} (empty when the process is just
   * the one thing).
   */
  public static Exit couldNotStart(String what, Exception e) {
    if (e instanceof IllegalArgumentException) {
      return new Exit(BAD_CONFIGURATION, e.getMessage());
    }
    String of = what.isEmpty() ? "" : " " + what;
    return new Exit(FAILED, "could not start" + of + ": " + StartupErrors.describe(e));
  }

  /**
   * Writes the ready file (nothing when {@code file} is null) under a temporary name and renames
   * it, so a script never reads half a file.
   */
  public static void writeReadyFile(Path file, String text) throws Exit {
    if (file == null) {
      return;
    }
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new Exit(FAILED, "could not write the ready file: " + StartupErrors.describe(e));
    }
  }

  /** Runs {@code stop} on SIGTERM or Ctrl-C and returns once it ran. */
  public static void stopOnSignal(Runnable stop) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stop.run();
                  stopped.countDown();
                },
                "basalt-shutdown"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
