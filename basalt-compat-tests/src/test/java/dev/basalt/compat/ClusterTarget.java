package dev.basalt.compat;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterOptions;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/**
 * A cluster in this JVM (ZooKeeper, one master, three region servers: {@link LocalCluster} in
 * process) for the stock-client suite's cluster run. In process rather than child JVMs: what is
 * tested is the protocol and the semantics across servers, and a JVM start costs seconds here.
 */
final class ClusterTarget implements CompatTarget {
  private final LocalCluster cluster;

  private ClusterTarget(LocalCluster cluster) {
    this.cluster = cluster;
  }

  static ClusterTarget start(Path root) throws IOException {
    try {
      return new ClusterTarget(
          LocalCluster.start(
              LocalClusterOptions.builder(root)
                  .mode(LocalClusterOptions.Mode.IN_PROCESS)
                  .masters(1)
                  .regionServers(3)
                  // tables are created right after the start: no waiting for late servers
                  .set("hbase.master.wait.on.regionservers.interval", "0")
                  .build()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while starting the cluster");
    }
  }

  @Override
  public Configuration zooKeeperClientConf() {
    Configuration conf = CompatTarget.clientBase();
    cluster.clientSettings().forEach(conf::set);
    return conf;
  }

  @Override
  public Configuration rpcRegistryClientConf() {
    Configuration conf = CompatTarget.clientBase();
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", cluster.bootstrapServers());
    return conf;
  }

  @Override
  public int zooKeeperPort() {
    return cluster.zooKeeperPort();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
