package dev.basalt.server.standalone;

import dev.basalt.server.coordination.EmbeddedZooKeeper;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
  @Mixin private ServerLaunch launch;

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
    EmbeddedZooKeeper zooKeeper;
    try {
      Map<String, String> options = new LinkedHashMap<>();
      if (port != null) {
        options.put(StandaloneSettings.ZOOKEEPER_PORT.key(), port.toString());
      }
      if (dataDir != null) {
        options.put(StandaloneSettings.ZOOKEEPER_DATA_DIR.key(), dataDir.toString());
      }
      Config config = launch.load(options);
      Path root = ServerLaunch.useLogsUnderRoot(config);
      String zkDir = config.get(StandaloneSettings.ZOOKEEPER_DATA_DIR);
      try {
        zooKeeper =
            EmbeddedZooKeeper.start(
                zkDir.isEmpty() ? root.resolve("zookeeper") : Path.of(zkDir),
                config.get(StandaloneSettings.BIND_ADDRESS),
                config.get(StandaloneSettings.ZOOKEEPER_PORT));
      } catch (IOException | RuntimeException e) {
        throw ServerLaunch.couldNotStart("", e);
      }
      try {
        ServerLaunch.writeReadyFile(readyFile, "zookeeper=" + zooKeeper.connectString() + "\n");
      } catch (ServerLaunch.Exit e) {
        zooKeeper.close();
        throw e;
      }
    } catch (ServerLaunch.Exit e) {
      return e.report();
    }
    ServerLaunch.stopOnSignal(zooKeeper::close);
    return 0;
  }
}
