package dev.basalt.server.standalone;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
  @Mixin private ServerLaunch launch;

  @Option(
      names = {"--root"},
      paramLabel = "DIR",
      description = "Data directory (same as -D hbase.rootdir=DIR; default ./basalt-data).")
  private String root; // a String: a URI such as hdfs://nn:8020/basalt keeps its "//"

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
    StandaloneServer server;
    try {
      Config config = launch.load(root);
      ServerLaunch.useLogsUnderRoot(config);
      try {
        server = StandaloneServer.start(config);
      } catch (IOException | RuntimeException e) {
        throw ServerLaunch.couldNotStart("", e);
      }
      try {
        ServerLaunch.writeReadyFile(readyFile, readyText(server));
      } catch (ServerLaunch.Exit e) {
        server.close();
        throw e;
      }
    } catch (ServerLaunch.Exit e) {
      return e.report();
    }
    ServerLaunch.stopOnSignal(server::close);
    return 0;
  }

  private static String readyText(StandaloneServer server) {
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
    return b.toString();
  }
}
