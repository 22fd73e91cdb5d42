package dev.basalt.server.cluster;

import dev.basalt.server.standalone.ServerLaunch;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
  @Mixin private ServerLaunch launch;

  @Option(
      names = {"--root"},
      paramLabel = "DIR",
      description = "The cluster's root directory (same as -D hbase.rootdir=DIR).")
  private String root; // a String: a URI such as hdfs://nn:8020/basalt keeps its "//"

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
    ClusterMaster master;
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    try {
      Config config = launch.load(root);
      ClusterSettings.requireDistributed(config, "a master");
      ServerLaunch.useLogsUnderRoot(config);
      try {
        master = ClusterMaster.start(config);
      } catch (IOException | RuntimeException e) {
        throw ServerLaunch.couldNotStart("the master", e);
      }
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
        ServerLaunch.writeReadyFile(readyFile, readyText(master, config, false));
      } catch (ServerLaunch.Exit e) {
        master.close();
        throw e;
      }
      if (readyFile != null) {
        Thread watcher = new Thread(() -> markActive(master, config, exit), "basalt-ready-file");
        watcher.setDaemon(true);
        watcher.start();
      }
    } catch (ServerLaunch.Exit e) {
      return e.report();
    }
    int code = exit.join();
    if (code != 0) {
      Runtime.getRuntime().halt(code); // aborted: skip the shutdown hook's clean stop
    }
    return code;
  }

  /** Rewrites the ready file with active=true once this master is the active one. */
  private void markActive(ClusterMaster master, Config config, CompletableFuture<Integer> exit) {
    try {
      while (!master.awaitActive(Duration.ofSeconds(1))) {
        if (exit.isDone()) {
          return;
        }
      }
      ServerLaunch.writeReadyFile(readyFile, readyText(master, config, true));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ServerLaunch.Exit e) {
      e.report();
    }
  }

  private static String readyText(ClusterMaster master, Config config, boolean active) {
    return "master="
        + master.name()
        + "\nbootstrap="
        + master.name().hostAndPort()
        + "\nzookeeper="
        + Addresses.zooKeeperQuorum(config)
        + "\nactive="
        + active
        + "\n";
  }
}
