package dev.basalt.compat;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of test classes that run against one standalone server per class with a stock-client
 * connection through each registry: {@link #zk} (ZooKeeper) and {@link #rpc}
 * (hbase.client.bootstrap.servers). Test classes run one after another, so the static fields belong
 * to the class running.
 */
abstract class TwoRegistriesTest {
  @TempDir static Path dir;
  static StandaloneCluster cluster;
  static Connection zk;
  static Connection rpc;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = StandaloneCluster.start(dir);
    zk = ConnectionFactory.createConnection(cluster.zooKeeperClientConf());
    rpc = ConnectionFactory.createConnection(cluster.rpcRegistryClientConf());
  }

  @AfterAll
  static void stopCluster() throws IOException {
    if (zk != null) {
      zk.close();
    }
    if (rpc != null) {
      rpc.close();
    }
    cluster.close();
  }

  /** The connection of a registry named "zk" or "rpc" (the parameter of registry tests). */
  static Connection connection(String registry) {
    return registry.equals("zk") ? zk : rpc;
  }
}
