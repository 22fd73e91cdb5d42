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
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/basalt master}: runs a cluster {@link ClusterMaster} until SIGTERM or Ctrl-C. Several
 * may run: one is active, the others stand by and take over when it stops. Exit codes: 0 after a
 * clean stop, 1 when it could not start or had to stop at once (its ZooKeeper session expired), 2
 * for a bad command line or configuration (including {@code hbase.cluster.distributed} not true).
 */
@Command(
    name = "basalt master",
    mixinStandardHelpOptions = true,
    version = "Basalt 0.1.0 (HBase 2.6 protocol)",
    description =
        "Runs a master of a Basalt cluster: it keeps the catalog and hbase:meta, assigns regions"
            + " to the region servers and runs DDL. Several masters may run; one is active, the"
            + " others stand by. Stop it with SIGTERM or Ctrl-C.",
    footer = {
      "",
      "Settings use HBase's keys (docs/CONFIGURATION.md), e.g.:",
      "  basalt master -D hbase.cluster.distributed=true -D hbase.rootdir=/data/basalt \\",
      "      -D hbase.zookeeper.quorum=zk1,zk2,zk3 -D hbase.master.port=16000"
    })
public final class MasterMain implements Callable<Integer> {
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
      description =
          "Once the master listens, write its name and addresses here (master=, bootstrap=,"
              + " zookeeper= lines), and active=true once it is the active master.")
  private Path readyFile;

  public static void main(String[] args) {
    System.exit(new CommandLine(new MasterMain()).execute(args));
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
    try {
      ProcessLogs.defaultTo(RootDirectory.of(config.get(StandaloneSettings.ROOT_DIR)));
    } catch (IllegalArgumentException e) {
      System.err.println("basalt: " + e.getMessage());
      return 2;
    }
    if (!config.unknownKeys().isEmpty()) {
      System.err.println("basalt: ignoring settings Basalt does not use: " + config.unknownKeys());
    }
    ClusterMaster master;
    try {
      master = ClusterMaster.start(config);
    } catch (IllegalArgumentException e) {
      System.err.println("basalt: " + e.getMessage());
      return 2;
    } catch (IOException | RuntimeException e) {
      System.err.println("basalt: could not start the master: " + StartupErrors.describe(e));
      return 1;
    }
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    master.onAbort(() -> exit.complete(1));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  master.close();
                  exit.complete(0);
                },
                "basalt-shutdown"));
    try {
      writeReadyFile(master, config, false);
      Thread watcher =
          new Thread(
              () -> {
                try {
                  while (!master.awaitActive(java.time.Duration.ofSeconds(1))) {
                    if (exit.isDone()) {
                      return;
                    }
                  }
                  writeReadyFile(master, config, true);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (IOException e) {
                  System.err.println("basalt: could not write the ready file: " + e.getMessage());
                }
              },
              "basalt-ready-file");
      watcher.setDaemon(true);
      watcher.start();
    } catch (IOException e) {
      System.err.println("basalt: could not write the ready file: " + StartupErrors.describe(e));
      master.close();
      return 1;
    }
    int code = exit.join();
    if (code != 0) {
      Runtime.getRuntime().halt(code); // aborted: skip the shutdown hook's clean stop
    }
    return code;
  }

  /** Written under a temporary name and renamed, so a script never reads half a file. */
  private void writeReadyFile(ClusterMaster master, Config config, boolean active)
      throws IOException {
    if (readyFile == null) {
      return;
    }
    String text =
        "master="
            + master.name()
            + "\nbootstrap="
            + master.name().hostAndPort()
            + "\nzookeeper="
            + Addresses.zooKeeperQuorum(config)
            + "\nactive="
            + active
            + "\n";
    Path tmp = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, readyFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
