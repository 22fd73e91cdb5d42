package dev.basalt.shell;

import dev.basalt.server.standalone.StandaloneServer;
import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * One real Basalt standalone server (database, region server, master, embedded ZooKeeper) on free
 * loopback ports, shared by every test of this JVM and stopped when the JVM exits: the shell is
 * tested against what it will talk to, through the stock client. Tests use their own table names.
 */
public final class TestCluster {
  private static TestCluster instance;

  private final Path root;
  private final StandaloneServer server;

  private TestCluster(Path root, StandaloneServer server) {
    this.root = root;
    this.server = server;
  }

  static synchronized TestCluster get() {
    if (instance == null) {
      try {
        Path root = Files.createTempDirectory("basalt-shell-test");
        instance = new TestCluster(root, startServer(root));
        Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "test-cluster-stop"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return instance;
  }

  int zooKeeperPort() {
    return server.zooKeeperPort();
  }

  /** Client settings that reach the server, with retry budgets sized for tests. */
  Configuration clientConf() {
    return clientConf(server.zooKeeperPort());
  }

  /**
   * A standalone server (with its embedded ZooKeeper) on free loopback ports over {@code
   * root/data}; also the peers of replication tests.
   */
  public static StandaloneServer startServer(Path root) throws IOException {
    return StandaloneServer.start(
        Config.builder()
            .set(StandaloneSettings.ROOT_DIR.key(), root.resolve("data").toString())
            .set(StandaloneSettings.MASTER_PORT.key(), "0")
            .set(StandaloneSettings.REGIONSERVER_PORT.key(), "0")
            .set(StandaloneSettings.ZOOKEEPER_PORT.key(), "0")
            .set(StandaloneSettings.BIND_ADDRESS.key(), "127.0.0.1")
            .build());
  }

  /**
   * Stock client settings for the server whose ZooKeeper listens there, budgets sized for tests.
   */
  public static Configuration clientConf(int zooKeeperPort) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zooKeeperPort);
    conf.setInt("hbase.rpc.timeout", 30_000);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    conf.setInt("hbase.client.retries.number", 5);
    conf.setInt("hbase.client.pause", 50);
    return conf;
  }

  private void stop() {
    server.close();
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temp directory left behind is harmless
    }
  }
}
