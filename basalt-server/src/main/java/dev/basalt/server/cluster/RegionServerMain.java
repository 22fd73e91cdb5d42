package dev.basalt.server.cluster;

import dev.basalt.server.standalone.ServerLaunch;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/basalt regionserver}: runs a cluster {@link RegionServer} until SIGTERM (or the
 * master's StopServer), which stop it gracefully: its regions are moved to other servers first.
 * Exit codes: 0 after a stop, 1 when it could not start or aborted (ZooKeeper session lost, master
 * declared it dead), 2 for a bad command line or configuration (including {@code
 * hbase.cluster.distributed} not true).
 */
@Command(
    name = "basalt regionserver",
    mixinStandardHelpOptions = true,
    version = "Basalt 0.1.0 (HBase 2.6 protocol)",
    description =
        "Runs a region server of a Basalt cluster: it registers with the active master found in"
            + " ZooKeeper and serves the regions the master gives it from the shared root"
            + " directory. Stop it with SIGTERM or Ctrl-C (its regions move to other servers"
            + " first).",
    footer = {
      "",
      "Settings use HBase's keys (docs/CONFIGURATION.md), e.g.:",
      "  basalt regionserver -D hbase.cluster.distributed=true -D hbase.rootdir=/data/basalt \\",
      "      -D hbase.zookeeper.quorum=zk1,zk2,zk3 -D hbase.regionserver.port=16020"
    })
public final class RegionServerMain implements Callable<Integer> {
  @Mixin private ServerLaunch launch;

  @Option(
      names = {"--root"},
      paramLabel = "DIR",
      description = "The cluster's root directory (same as -D hbase.rootdir=DIR).")
  private String root; // a String: a URI such as hdfs://nn:8020/basalt keeps its "//"

  @Option(
      names = {"--ready-file"},
      paramLabel = "FILE",
      description = "Once the server serves, write its name here (a regionserver= line).")
  private Path readyFile;

  public static void main(String[] args) {
    System.exit(new CommandLine(new RegionServerMain()).execute(args));
  }

  @Override
  public Integer call() {
    RegionServer server;
    try {
      Config config = launch.load(root);
      ClusterSettings.requireDistributed(config, "a region server");
      ServerLaunch.useLogsUnderRoot(config);
      try {
        server = RegionServer.start(config);
      } catch (IOException | RuntimeException e) {
        throw ServerLaunch.couldNotStart("the region server", e);
      }
      // SIGTERM and Ctrl-C stop it gracefully; the hook returns once it stopped
      Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "basalt-shutdown"));
      try {
        ServerLaunch.writeReadyFile(readyFile, "regionserver=" + server.serverName() + "\n");
      } catch (ServerLaunch.Exit e) {
        server.stop();
        throw e;
      }
    } catch (ServerLaunch.Exit e) {
      return e.report();
    }
    return server.terminated().join();
  }
}
