package dev.basalt.compat;

import dev.basalt.server.standalone.StandaloneServer;
import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A real Basalt standalone server (database, region server, master, embedded ZooKeeper) on free
 * loopback ports over a test directory, and the stock client settings that reach it.
 */
final class StandaloneCluster implements CompatTarget {
  private final Path root;
  private final Map<String, String> settings;
  private StandaloneServer server;

  private StandaloneCluster(Path root, Map<String, String> settings) {
    this.root = root;
    this.settings = settings;
  }

  static StandaloneCluster start(Path root) throws IOException {
    return start(root, Map.of());
  }

  /** A server with these settings added to (or replacing) the test defaults. */
  static StandaloneCluster start(Path root, Map<String, String> settings) throws IOException {
    StandaloneCluster c = new StandaloneCluster(root, settings);
    c.server = StandaloneServer.start(c.config());
    return c;
  }

  private Config config() {
    return config(0, 0, 0);
  }

  private Config config(int masterPort, int regionServerPort, int zkPort) {
    Config.Builder b =
        Config.builder()
            .set(StandaloneSettings.ROOT_DIR.key(), root.resolve("data").toString())
            .set(StandaloneSettings.MASTER_PORT.key(), Integer.toString(masterPort))
            .set(StandaloneSettings.REGIONSERVER_PORT.key(), Integer.toString(regionServerPort))
            .set(StandaloneSettings.ZOOKEEPER_PORT.key(), Integer.toString(zkPort))
            .set(StandaloneSettings.BIND_ADDRESS.key(), "127.0.0.1")
            .set("hbase.regionserver.handler.count", "16");
    settings.forEach(b::set);
    return b.build();
  }

  /** Stops the server cleanly (memstores flushed) and starts a new one on the same directory. */
  void restart() throws IOException {
    server.close();
    server = StandaloneServer.start(config());
  }

  /**
   * Stops the server cleanly and starts a new one on the same directory and the same ports (master,
   * region server, ZooKeeper), as a restarted production server with fixed ports would be: clients
   * from before the restart still know where to find it.
   */
  void restartOnSamePorts() throws IOException {
    int master = server.cluster().master().port();
    int regionServer = server.cluster().regionServer().port();
    int zk = server.zooKeeperPort();
    server.close();
    server = StandaloneServer.start(config(master, regionServer, zk));
  }

  private int[] keptPorts;

  /** Stops the server cleanly, remembering its ports for {@link #startOnKeptPorts}. */
  void stopKeepingPorts() {
    keptPorts =
        new int[] {
          server.cluster().master().port(),
          server.cluster().regionServer().port(),
          server.zooKeeperPort()
        };
    server.close();
  }

  /** Starts a server on the same directory and the ports {@link #stopKeepingPorts} kept. */
  void startOnKeptPorts() throws IOException {
    server = StandaloneServer.start(config(keptPorts[0], keptPorts[1], keptPorts[2]));
  }

  StandaloneServer server() {
    return server;
  }

  @Override
  public Configuration zooKeeperClientConf() {
    Configuration conf = CompatTarget.clientBase();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", server.zooKeeperPort());
    return conf;
  }

  /** Settings for the RPC registry (hbase.client.bootstrap.servers = the master). */
  @Override
  public Configuration rpcRegistryClientConf() {
    Configuration conf = CompatTarget.clientBase();
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", server.cluster().master().hostAndPort());
    return conf;
  }

  @Override
  public int zooKeeperPort() {
    return server.zooKeeperPort();
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }
}
