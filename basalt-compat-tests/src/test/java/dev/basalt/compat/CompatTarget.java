package dev.basalt.compat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * What the stock-client tests talk to: a standalone server ({@link StandaloneCluster}), or, when
 * the build runs the suite a second time with {@code -Dbasalt.compat.target=cluster}, a cluster of
 * one master and three region servers ({@link ClusterTarget}), so that every table of several
 * regions is spread over servers and every call crosses from the master's meta to the region
 * servers as it does in production.
 */
interface CompatTarget extends AutoCloseable {
  /** The system property naming the target: {@code standalone} (default) or {@code cluster}. */
  String PROPERTY = "basalt.compat.target";

  static boolean isCluster() {
    return "cluster".equals(System.getProperty(PROPERTY, "standalone"));
  }

  /** Settings for the default ZooKeeper registry, with retry budgets sized for tests. */
  Configuration zooKeeperClientConf();

  /** Settings for the RPC registry ({@code hbase.client.bootstrap.servers}). */
  Configuration rpcRegistryClientConf();

  int zooKeeperPort();

  @Override
  void close();

  /** The client settings every target starts from. */
  static Configuration clientBase() {
    Configuration conf = HBaseConfiguration.create();
    conf.setInt("hbase.rpc.timeout", 30_000);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    conf.setInt("hbase.client.retries.number", 5);
    conf.setInt("hbase.client.pause", 50);
    return conf;
  }
}
