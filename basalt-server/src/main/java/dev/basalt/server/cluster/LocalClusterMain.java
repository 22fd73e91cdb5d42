package dev.basalt.server.cluster;

import dev.basalt.server.standalone.ProcessLogs;
import dev.basalt.server.standalone.ServerLaunch;
import dev.basalt.server.standalone.SiteConfig;
import dev.basalt.server.standalone.StartupErrors;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/basalt local-cluster}: a whole cluster on this machine, each process a child JVM
 * ({@link LocalCluster}): ZooKeeper, the masters and the region servers on 127.0.0.1 with free
 * ports. It prints what a client needs and where the logs are, reports a process that ends by
 * itself, and on Ctrl-C or SIGTERM stops them all cleanly (region servers one at a time, then the
 * masters and ZooKeeper), so that the cluster can start again on the same root with its tables.
 * Exit codes: 0 after a stop, 1 when the cluster could not start, 2 for a bad command line.
 */
@Command(
    name = "basalt local-cluster",
    mixinStandardHelpOptions = true,
    version = "Basalt 0.1.0 (HBase 2.6 protocol)",
    description =
        "Runs a Basalt cluster on this machine: a ZooKeeper server, masters and region servers,"
            + " each a separate process on 127.0.0.1 with its own ports and log file. Ctrl-C stops"
            + " them all.",
    footer = {
      "",
      "Settings (-D, -c) go to every master and region server, e.g.:",
      "  basalt local-cluster --regionservers 3 --masters 2 -D hbase.regions.slop=0.1"
    })
public final class LocalClusterMain implements Callable<Integer> {
  /** The root directory when neither --root is given. */
  static final String DEFAULT_ROOT = "basalt-local-cluster";

  private static final long WATCH_MILLIS = 1000;

  @Option(
      names = {"--regionservers"},
      paramLabel = "N",
      description = "How many region servers (default 3).")
  private int regionServers = 3;

  @Option(
      names = {"--masters"},
      paramLabel = "M",
      description = "How many masters: one is active, the others stand by (default 1).")
  private int masters = 1;

  @Option(
      names = {"--root"},
      paramLabel = "DIR",
      description =
          "The cluster's root directory, with its tables, logs/ and zookeeper/ (default:"
              + " basalt-local-cluster in the working directory); a local directory, or a"
              + " file: URI.")
  private String root = DEFAULT_ROOT;

  @Option(
      names = {"--zookeeper-port"},
      paramLabel = "PORT",
      description = "ZooKeeper's client port (default: a free one).")
  private int zooKeeperPort = 0;

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "basalt-site.xml for every master and region server.")
  private Path configFile;

  @Option(
      names = {"-D"},
      paramLabel = "KEY=VALUE",
      description = "A setting for every master and region server; wins over the file.")
  private Map<String, String> settings = new LinkedHashMap<>();

  @Option(
      names = {"--ready-file"},
      paramLabel = "FILE",
      description =
          "Once every process is ready, write the client settings here (zookeeper=,"
              + " bootstrap=, logs= lines), for scripts.")
  private Path readyFile;

  private final PrintStream out;

  public LocalClusterMain() {
    this(System.out);
  }

  LocalClusterMain(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new LocalClusterMain()).execute(args));
  }

  @Override
  public Integer call() {
    LocalCluster cluster;
    long started;
    try {
      LocalClusterOptions options = options();
      out.println(
          "basalt: starting ZooKeeper, "
              + masters
              + (masters == 1 ? " master" : " masters")
              + " and "
              + regionServers
              + (regionServers == 1 ? " region server" : " region servers")
              + " over "
              + options.root());
      started = System.nanoTime();
      try {
        if (readyFile != null) {
          Files.deleteIfExists(readyFile); // a script must not read the previous run's
        }
        cluster = LocalCluster.start(options);
      } catch (IOException | RuntimeException e) {
        throw ServerLaunch.couldNotStart("the local cluster", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ServerLaunch.FAILED;
      }
    } catch (ServerLaunch.Exit e) {
      return e.report();
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  out.println("basalt: stopping the local cluster");
                  cluster.close();
                  out.println("basalt: stopped");
                  stopped.countDown();
                },
                "basalt-shutdown"));
    printSettings(cluster, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    try {
      ServerLaunch.writeReadyFile(readyFile, readyText(cluster));
    } catch (ServerLaunch.Exit e) {
      cluster.close();
      return e.report();
    }
    try {
      watch(cluster, stopped);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  /**
   * The cluster's options from the command line. The settings are checked here, once, so that a bad
   * one is reported before any process starts (each would refuse it alike).
   */
  private LocalClusterOptions options() throws ServerLaunch.Exit {
    if (regionServers < 1) {
      throw ServerLaunch.badConfiguration(
          "--regionservers " + regionServers + ": a cluster needs at least one region server");
    }
    Config config;
    try {
      config = SiteConfig.load(configFile, settings);
    } catch (IOException | IllegalArgumentException e) {
      throw ServerLaunch.badConfiguration(StartupErrors.describe(e));
    }
    if (!config.unknownKeys().isEmpty()) {
      System.err.println("basalt: ignoring settings Basalt does not use: " + config.unknownKeys());
    }
    try {
      Path dir = localRoot(root).toAbsolutePath().normalize();
      LocalClusterOptions.Builder options =
          LocalClusterOptions.builder(dir)
              .masters(masters)
              .regionServers(regionServers)
              .zooKeeperPort(zooKeeperPort)
              .configFile(configFile)
              .settings(settings)
              .onExit(LocalClusterOptions.OnExit.STOP_CLEANLY);
      options.build(); // checked before anything is created
      Files.createDirectories(dir);
      // before the first logger (LocalCluster has one); BASALT_LOG_DIR, when set, wins
      Path logs = ProcessLogs.defaultTo(dir);
      return options.logDirectory(logs).build();
    } catch (IllegalArgumentException e) {
      throw ServerLaunch.badConfiguration(e.getMessage());
    } catch (IOException e) {
      throw ServerLaunch.badConfiguration(
          "cannot create the root directory " + root + ": " + StartupErrors.describe(e));
    }
  }

  /**
   * The local directory --root names. A URI of another file system is refused (exit 2): the
   * processes of a local cluster keep their logs, ready files and ZooKeeper data under the root,
   * and "hdfs://nn/x" would otherwise become the local directory "hdfs:/nn/x".
   */
  static Path localRoot(String text) {
    if (text.startsWith("file:")) {
      try {
        return Path.of(java.net.URI.create(text));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--root " + text + " is not a file: URI of a directory");
      }
    }
    if (text.matches("^[A-Za-z][A-Za-z0-9+.-]*://.*")) {
      throw new IllegalArgumentException(
          "--root "
              + text
              + ": local-cluster runs on a local directory; on HDFS start bin/basalt zookeeper,"
              + " master and regionserver with -D hbase.rootdir="
              + text
              + " (docs/HDFS.md)");
    }
    return Path.of(text);
  }

  private void printSettings(LocalCluster cluster, long startMillis) {
    String zk = cluster.zooKeeperQuorum() + ":" + cluster.zooKeeperPort();
    out.printf("basalt: the local cluster is up (%.1f s)%n", startMillis / 1000.0);
    for (LocalClusterNode n : cluster.allNodes()) {
      out.printf(
          "  %-16s %-30s pid %-8d%s%n",
          n.id(),
          n.serverName() != null ? n.serverName().toString() : n.address(),
          n.pid(),
          n.isActiveMaster() ? " active" : "");
    }
    out.println("client settings:");
    cluster.clientSettings().forEach((k, v) -> out.println("  " + k + "=" + v));
    out.println("  or, for the RPC registry:");
    out.println(
        "  hbase.client.registry.impl=org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    out.println("  hbase.client.bootstrap.servers=" + cluster.bootstrapServers());
    out.println("shell: bin/basalt shell -z " + zk);
    out.println("logs:  " + cluster.logDirectory());
    out.println("Ctrl-C stops the cluster.");
    out.flush();
  }

  /** Says when a process ends by itself, until the cluster is stopped. */
  private void watch(LocalCluster cluster, CountDownLatch stopped) throws InterruptedException {
    Set<String> reported = new HashSet<>();
    while (!stopped.await(WATCH_MILLIS, TimeUnit.MILLISECONDS)) {
      for (LocalClusterNode n : cluster.allNodes()) {
        if (!n.isAlive() && !cluster.isStopping() && reported.add(n.id())) {
          System.err.printf(
              "basalt: %s (pid %d) ended with status %d; its output: %s%n",
              n.id(), n.pid(), n.awaitExit(Duration.ZERO), n.logFile());
        }
      }
    }
  }

  /** The ready file: the client settings and where the logs are. */
  private static String readyText(LocalCluster cluster) {
    return "zookeeper="
        + cluster.zooKeeperQuorum()
        + ':'
        + cluster.zooKeeperPort()
        + "\nbootstrap="
        + cluster.bootstrapServers()
        + "\nlogs="
        + cluster.logDirectory()
        + "\n";
  }
}
