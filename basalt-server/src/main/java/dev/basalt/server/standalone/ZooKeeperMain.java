package dev.basalt.server.standalone;

import dev.basalt.server.coordination.EmbeddedZooKeeper;
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
 * {@code bin/basalt zookeeper}: one ZooKeeper server for development, as HBase's {@code hbase
 * zookeeper} runs one for a cluster whose configuration names no external quorum. It takes the same
 * {@code -c} and {@code -D} settings as {@code standalone}: the client port from {@code
 * hbase.zookeeper.property.clientPort} (2181), the data in {@code hbase.zookeeper.property.dataDir}
 * (default {@code zookeeper/} under {@code hbase.rootdir}), the address from {@code
 * hbase.regionserver.ipc.address}. Ctrl-C or SIGTERM stops it. Exit codes as {@code standalone}'s:
 * 1 when the server could not start, 2 for a bad command line or configuration.
 *
 * <p>No static logger: the log directory is chosen from the configuration ({@link ProcessLogs})
 * before the first logger is created.
 */
@Command(
    name = "basalt zookeeper",
    mixinStandardHelpOptions = true,
    version = "Basalt 0.1.0 (ZooKeeper 3.8)",
    description =
        "Runs a single ZooKeeper server for development (not a replicated quorum). Stop it with"
            + " Ctrl-C.",
    footer = {
      "",
      "Settings use HBase's keys (docs/CONFIGURATION.md), e.g.:",
      "  basalt zookeeper -D hbase.zookeeper.property.clientPort=2182"
    })
public final class ZooKeeperMain implements Callable<Integer> {
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
      names = {"--port"},
      paramLabel = "PORT",
      description =
          "Client port (same as -D hbase.zookeeper.property.clientPort=PORT; default 2181; 0"
              + " picks a free one).")
  private Integer port;

  @Option(
      names = {"--data-dir"},
      paramLabel = "DIR",
      description =
          "Snapshots and transaction log (same as -D hbase.zookeeper.property.dataDir=DIR;"
              + " default: zookeeper/ under hbase.rootdir, ./basalt-data).")
  private Path dataDir;

  @Option(
      names = {"--ready-file"},
      paramLabel = "FILE",
      description = "Once the server answers, write zookeeper=HOST:PORT here, for scripts.")
  private Path readyFile;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ZooKeeperMain()).execute(args));
  }

  @Override
  public Integer call() {
    Config config;
    Path root;
    try {
      Map<String, String> overrides = new LinkedHashMap<>(settings);
      if (port != null) {
        overrides.put(StandaloneSettings.ZOOKEEPER_PORT.key(), port.toString());
      }
      if (dataDir != null) {
        overrides.put(StandaloneSettings.ZOOKEEPER_DATA_DIR.key(), dataDir.toString());
      }
      config = SiteConfig.load(configFile, overrides);
      root = RootDirectory.of(config.get(StandaloneSettings.ROOT_DIR));
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("basalt: " + StartupErrors.describe(e));
      return 2;
    }
    if (!config.unknownKeys().isEmpty()) {
      System.err.println("basalt: ignoring settings Basalt does not use: " + config.unknownKeys());
    }
    ProcessLogs.defaultTo(root);
    String zkDir = config.get(StandaloneSettings.ZOOKEEPER_DATA_DIR);
    EmbeddedZooKeeper zooKeeper;
    try {
      zooKeeper =
          EmbeddedZooKeeper.start(
              zkDir.isEmpty() ? root.resolve("zookeeper") : Path.of(zkDir),
              config.get(StandaloneSettings.BIND_ADDRESS),
              config.get(StandaloneSettings.ZOOKEEPER_PORT));
    } catch (IOException | RuntimeException e) {
      System.err.println("basalt: could not start: " + StartupErrors.describe(e));
      return 1;
    }
    if (readyFile != null) {
      try {
        writeReadyFile("zookeeper=" + zooKeeper.connectString() + "\n");
      } catch (IOException e) {
        System.err.println("basalt: could not write the ready file: " + StartupErrors.describe(e));
        zooKeeper.close();
        return 1;
      }
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  zooKeeper.close();
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
  private void writeReadyFile(String content) throws IOException {
    Path tmp = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
    Files.writeString(tmp, content, StandardCharsets.UTF_8);
    Files.move(tmp, readyFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
