package dev.basalt.server.cluster;

import dev.basalt.server.standalone.ProcessLogs;
import dev.basalt.server.standalone.RootDirectory;
import dev.basalt.server.standalone.SiteConfig;
import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.server.standalone.StartupErrors;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
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
      description = "The cluster's root directory (same as -D hbase.rootdir=DIR).")
  private Path root;

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
    if (!config.get(ClusterSettings.DISTRIBUTED)) {
      System.err.println(
          "basalt: "
              + ClusterSettings.DISTRIBUTED.key()
              + " is not true: a region server runs only in a cluster; set -D "
              + ClusterSettings.DISTRIBUTED.key()
              + "=true (or run bin/basalt standalone)");
      return 2;
    }
    // The log directory (logs/ under the root directory) must be set before anything starts
    // Logback: touching a class with a static logger, RegionServer included, does.
    try {
      ProcessLogs.defaultTo(RootDirectory.of(config.get(StandaloneSettings.ROOT_DIR)));
    } catch (IllegalArgumentException e) {
      System.err.println("basalt: " + e.getMessage());
      return 2;
    }
    if (!config.unknownKeys().isEmpty()) {
      System.err.println("basalt: ignoring settings Basalt does not use: " + config.unknownKeys());
    }
    RegionServer server;
    try {
      server = RegionServer.start(config);
    } catch (IllegalArgumentException e) {
      System.err.println("basalt: " + e.getMessage());
      return 2;
    } catch (IOException | RuntimeException e) {
      System.err.println("basalt: could not start the region server: " + StartupErrors.describe(e));
      return 1;
    }
    // SIGTERM and Ctrl-C stop it gracefully; the hook returns once it stopped
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "basalt-shutdown"));
    if (readyFile != null) {
      try {
        writeReadyFile(server);
      } catch (IOException e) {
        System.err.println("basalt: could not write the ready file: " + StartupErrors.describe(e));
        server.stop();
        return 1;
      }
    }
    return server.terminated().join();
  }

  /** Written under a temporary name and renamed, so a script never reads half a file. */
  private void writeReadyFile(RegionServer server) throws IOException {
    String text = "regionserver=" + server.serverName() + "\n";
    Path tmp = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, readyFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
