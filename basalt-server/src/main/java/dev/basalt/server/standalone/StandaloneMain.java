package dev.basalt.server.standalone;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/basalt standalone}: runs a {@link StandaloneServer} until Ctrl-C or SIGTERM, then
 * shuts it down cleanly (memstores flushed). Exit codes: 0 after a clean stop, 1 when the server
 * could not start, 2 for a bad command line or configuration.
 */
@Command(
    name = "basalt standalone",
    mixinStandardHelpOptions = true,
    version = "Basalt 0.1.0 (HBase 2.6 protocol)",
    description =
        "Runs Basalt in one process: master, region server and an embedded ZooKeeper over a"
            + " local directory. Stop it with Ctrl-C.",
    footer = {
      "",
      "Settings use HBase's keys (docs/CONFIGURATION.md), e.g.:",
      "  basalt standalone -D hbase.rootdir=/data/basalt -D hbase.zookeeper.property.clientPort=2182"
    })
public final class StandaloneMain implements Callable<Integer> {
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

  @Option(
      names = {"--root"},
      paramLabel = "DIR",
      description = "Data directory (same as -D hbase.rootdir=DIR; default ./basalt-data).")
  private Path root;

  @Option(
      names = {"--ready-file"},
      paramLabel = "FILE",
      description =
          "Once the server answers, write its addresses here (zookeeper=, bootstrap=,"
              + " master=, regionserver= lines), for scripts.")
  private Path readyFile;

  public static void main(String[] args) {
    System.exit(new CommandLine(new StandaloneMain()).execute(args));
  }

  @Override
  public Integer call() {
    Config config;
    try {
      Map<String, String> overrides = new LinkedHashMap<>(settings);
      if (root != null) {
        overrides.put(StandaloneSettings.ROOT_DIR.key(), root.toString());
      }
      config = SiteConfig.load(configFile, overrides);
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("basalt: " + StartupErrors.describe(e));
      return 2;
    }
    // The log directory (logs/ under the data directory) must be set before anything starts
    // Logback: touching a class with a static logger, StandaloneServer included, does.
    try {
      ProcessLogs.defaultTo(RootDirectory.of(config.get(StandaloneSettings.ROOT_DIR)));
    } catch (IllegalArgumentException e) {
      System.err.println("basalt: " + e.getMessage());
      return 2;
    }
    if (!config.unknownKeys().isEmpty()) {
      System.err.println("basalt: ignoring settings Basalt does not use: " + config.unknownKeys());
    }
    StandaloneServer server;
    try {
      server = StandaloneServer.start(config);
    } catch (IllegalArgumentException e) {
      System.err.println("basalt: " + e.getMessage());
      return 2;
    } catch (IOException | RuntimeException e) {
      System.err.println("basalt: could not start: " + StartupErrors.describe(e));
      return 1;
    }
    if (readyFile != null) {
      try {
        writeReadyFile(server);
      } catch (IOException e) {
        System.err.println("basalt: could not write the ready file: " + StartupErrors.describe(e));
        server.close();
        return 1;
      }
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "basalt-shutdown"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  /** Written under a temporary name and renamed, so a script never reads half a file. */
  private void writeReadyFile(StandaloneServer server) throws IOException {
    StringBuilder b = new StringBuilder();
    ServerName master = server.cluster().master();
    int zooKeeperPort = server.zooKeeperPort();
    if (zooKeeperPort > 0) {
      b.append("zookeeper=")
          .append(ServerName.hostAndPort(master.host(), zooKeeperPort))
          .append('\n');
    }
    b.append("bootstrap=").append(master.hostAndPort()).append('\n');
    b.append("master=").append(master).append('\n');
    b.append("regionserver=").append(server.cluster().regionServer()).append('\n');
    Path tmp = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
    Files.writeString(tmp, b.toString(), StandardCharsets.UTF_8);
    Files.move(tmp, readyFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
