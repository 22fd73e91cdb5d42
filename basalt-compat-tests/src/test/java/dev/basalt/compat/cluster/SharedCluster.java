package dev.basalt.compat.cluster;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import dev.basalt.server.cluster.LocalClusterOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one multi-process cluster the cluster scenarios share: ZooKeeper, {@link #MASTERS} masters
 * and {@link #REGION_SERVERS} region servers, each a child JVM ({@link LocalCluster}), started by
 * the first scenario class and killed by PID (SIGKILL) by LocalCluster's exit hook when the test
 * JVM ends, also when the run is cut short. JVM starts cost seconds on a two-CPU machine, hence one
 * cluster for every scenario; after a failed scenario the next class gets a fresh one.
 *
 * <p>As a JUnit extension ({@code @ExtendWith(SharedCluster.class)}): before a scenario class it
 * brings the cluster back to its shape (a scenario may stop servers; a missing region server or
 * master is started again), and after every test it checks the {@link ClusterInvariants}.
 *
 * <p>Logs: {@code target/cluster-tests/run-<time>/logs/} (console output {@code <process>.out} and
 * {@code basalt-<process>.log} per process).
 */
public final class SharedCluster implements BeforeAllCallback, AfterEachCallback {
  static final int MASTERS = 2;
  static final int REGION_SERVERS = 3;

  private static final Object LOCK = new Object();
  private static Shared shared;

  /**
   * Whether a scenario failed since the cluster started: its state is then unknown (a region left
   * in transition, a server gone), so the next scenario class starts a fresh cluster instead of
   * inheriting the failure.
   */
  private static boolean dirty;

  /** The cluster and the connection the scenarios' admin work goes through. */
  private record Shared(LocalCluster cluster, Connection connection) {
    void kill() {
      try {
        connection.close();
      } catch (IOException e) {
        // a test client: nothing to do about it
      }
      cluster.killAll(); // the root is thrown away: no need for a clean stop
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    synchronized (LOCK) {
      if (shared != null && dirty) {
        System.out.println("a scenario failed: starting a fresh cluster for the next one");
        shared.kill();
        shared = null;
      }
      if (shared == null) {
        // lives until this JVM ends: LocalCluster's exit hook kills the children by PID
        // (Surefire runs each test class as a launcher execution of its own, so JUnit's root
        // store would close it after the first class)
        shared = startShared();
        dirty = false;
      }
    }
    restoreShape();
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    boolean failed = context.getExecutionException().isPresent();
    try {
      ClusterInvariants.assertHold(connection(), cluster());
    } catch (AssertionError | IOException | RuntimeException e) {
      failed = true;
      throw e;
    } finally {
      if (failed) {
        synchronized (LOCK) {
          dirty = true;
        }
      }
    }
  }

  static LocalCluster cluster() {
    synchronized (LOCK) {
      if (shared == null) {
        throw new IllegalStateException("use @ExtendWith(SharedCluster.class)");
      }
      return shared.cluster();
    }
  }

  /** A connection (ZooKeeper registry) shared by the scenarios for admin work and checks. */
  static Connection connection() {
    synchronized (LOCK) {
      if (shared == null) {
        throw new IllegalStateException("use @ExtendWith(SharedCluster.class)");
      }
      return shared.connection();
    }
  }

  private static Shared startShared() throws Exception {
    Path repo = repositoryRoot();
    Path root =
        repo.resolve("basalt-compat-tests/target/cluster-tests")
            .resolve("run-" + System.currentTimeMillis());
    Files.createDirectories(root);
    long t0 = System.nanoTime();
    LocalCluster cluster =
        LocalCluster.start(
            LocalClusterOptions.builder(root)
                .mode(LocalClusterOptions.Mode.CHILD_PROCESSES)
                .masters(MASTERS)
                .regionServers(REGION_SERVERS)
                .logbackConfig(repo.resolve("conf/logback.xml"))
                // balancing only when a scenario asks for it
                .set("hbase.balancer.period", Long.toString(TimeUnit.HOURS.toMillis(1)))
                .startTimeout(Duration.ofSeconds(120))
                .stopTimeout(Duration.ofSeconds(90))
                .build());
    System.out.printf(
        "shared cluster up in %d ms at %s%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), root);
    try {
      return new Shared(cluster, ConnectionFactory.createConnection(clientConf(cluster)));
    } catch (IOException | RuntimeException e) {
      cluster.killAll();
      throw e;
    }
  }

  /** Starts region servers and masters until the cluster has its shape again. */
  private static void restoreShape() throws IOException, InterruptedException {
    LocalCluster c = cluster();
    int missingServers = REGION_SERVERS - c.regionServers().size();
    if (missingServers > 0) {
      c.addRegionServers(missingServers);
    }
    for (int i = c.masters().size(); i < MASTERS; i++) {
      c.addMaster();
    }
    c.awaitActiveMaster(Duration.ofSeconds(60));
  }

  /**
   * Stock client settings for the cluster through ZooKeeper, with budgets sized for tests: an
   * operation gives up after 60 s, an RPC after 20 s, and the retries are the client's defaults
   * (15, pause 100 ms), so a scenario's client rides out a move as an application would.
   */
  static Configuration clientConf(LocalCluster cluster) {
    Configuration conf = HBaseConfiguration.create();
    cluster.clientSettings().forEach(conf::set);
    conf.setInt("hbase.rpc.timeout", 20_000);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    conf.setInt("hbase.client.meta.operation.timeout", 60_000);
    return conf;
  }

  /** The same with the RPC registry: {@code hbase.client.bootstrap.servers} = the masters. */
  static Configuration rpcRegistryClientConf(LocalCluster cluster) {
    Configuration conf = clientConf(cluster);
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", cluster.bootstrapServers());
    return conf;
  }

  /** Disables and deletes every table but the system ones, so a scenario starts from none. */
  static void dropAllTables() throws IOException {
    try (Admin admin = connection().getAdmin()) {
      for (TableName t : admin.listTableNames()) {
        ClusterTables.drop(admin, t);
      }
    }
  }

  /** The running region server with this server name. */
  static LocalClusterNode regionServer(org.apache.hadoop.hbase.ServerName name) {
    for (LocalClusterNode n : cluster().regionServers()) {
      if (n.serverName().toString().equals(name.getServerName())) {
        return n;
      }
    }
    throw new AssertionError("no running region server " + name + " in " + names());
  }

  private static List<String> names() {
    return cluster().regionServers().stream().map(n -> n.serverName().toString()).toList();
  }

  /** The repository (tests run with basalt-compat-tests as working directory). */
  static Path repositoryRoot() {
    Path here = Path.of("").toAbsolutePath();
    Path root = Files.isDirectory(here.resolve("conf")) ? here : here.getParent();
    if (!Files.isRegularFile(root.resolve("conf/logback.xml"))) {
      throw new UncheckedIOException(new IOException("cannot find the repository from " + here));
    }
    return root;
  }
}
