package dev.basalt.shell.verify;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.zookeeper.ZKConfig;

/**
 * Where a cluster is, as the user wrote it: an HBase cluster key ({@code zk1,zk2:2181:/hbase}, the
 * form add_peer takes), or the bootstrap servers of the RPC connection registry ({@code
 * host:port[,host:port...]}, a master or region server of HBase 2.5+ or Basalt). Knows the client
 * settings that reach it and the TCP endpoints to try before the client's long retries.
 */
final class ClusterAddress {
  private static final String RPC_REGISTRY = "org.apache.hadoop.hbase.client.RpcConnectionRegistry";
  private static final String ZK_REGISTRY = "org.apache.hadoop.hbase.client.ZKConnectionRegistry";
  private static final int DEFAULT_ZOOKEEPER_PORT = 2181;

  private final String text;
  // a cluster key's parts, or null for bootstrap servers
  private final String quorum;
  private final int clientPort;
  private final String znodeParent;
  private final List<InetSocketAddress> endpoints;

  private ClusterAddress(
      String text,
      String quorum,
      int clientPort,
      String znodeParent,
      List<InetSocketAddress> endpoints) {
    this.text = text;
    this.quorum = quorum;
    this.clientPort = clientPort;
    this.znodeParent = znodeParent;
    this.endpoints = endpoints;
  }

  /**
   * Parses {@code text} given to {@code option} (named in the error).
   *
   * @throws VerifyException when it is neither a cluster key nor a list of host:port
   */
  static ClusterAddress parse(String option, String text) throws VerifyException {
    String expected =
        option
            + " expects a cluster key (zk1,zk2:2181:/hbase) or bootstrap servers"
            + " (host:port[,host:port...]), got '"
            + text
            + "'";
    if (text == null || text.isBlank() || text.contains(" ")) {
      throw new VerifyException(expected);
    }
    if (text.contains(":/")) {
      ZKConfig.ZKClusterKey key;
      try {
        key = ZKConfig.transformClusterKey(text);
      } catch (IOException | RuntimeException e) {
        throw new VerifyException(expected);
      }
      List<InetSocketAddress> endpoints = new ArrayList<>();
      for (String host : key.getQuorumString().split(",")) {
        addEndpoint(endpoints, host, key.getClientPort(), expected);
      }
      return new ClusterAddress(
          text, key.getQuorumString(), key.getClientPort(), key.getZnodeParent(), endpoints);
    }
    List<InetSocketAddress> endpoints = new ArrayList<>();
    for (String server : text.split(",", -1)) {
      if (server.lastIndexOf(':') <= 0) {
        throw new VerifyException(expected);
      }
      addEndpoint(endpoints, server, -1, expected);
    }
    return new ClusterAddress(text, null, -1, null, endpoints);
  }

  /** The cluster the configuration points at (hbase-site.xml, --config, -D): the default source. */
  static ClusterAddress fromConfiguration(Configuration conf) throws VerifyException {
    String registry = conf.get("hbase.client.registry.impl", "");
    String bootstrap = conf.get("hbase.client.bootstrap.servers", "");
    if (registry.endsWith("RpcConnectionRegistry") && !bootstrap.isBlank()) {
      return parse("hbase.client.bootstrap.servers", bootstrap);
    }
    String hosts = conf.get("hbase.zookeeper.quorum", "localhost");
    int port = conf.getInt("hbase.zookeeper.property.clientPort", DEFAULT_ZOOKEEPER_PORT);
    String parent = conf.get("zookeeper.znode.parent", "/hbase");
    List<InetSocketAddress> endpoints = new ArrayList<>();
    for (String host : hosts.split(",")) {
      addEndpoint(endpoints, host, port, "hbase.zookeeper.quorum is not a host list: " + hosts);
    }
    return new ClusterAddress(hosts + ":" + port + ":" + parent, hosts, port, parent, endpoints);
  }

  private static void addEndpoint(
      List<InetSocketAddress> out, String hostPort, int defaultPort, String error)
      throws VerifyException {
    String h = hostPort.trim();
    int colon = h.lastIndexOf(':');
    String host = colon < 0 ? h : h.substring(0, colon);
    String port = colon < 0 ? null : h.substring(colon + 1);
    if (host.isEmpty() || (port == null && defaultPort < 0)) {
      throw new VerifyException(error);
    }
    int p = defaultPort;
    if (port != null) {
      if (!port.matches("\\d{1,5}") || Integer.parseInt(port) > 65535) {
        throw new VerifyException(error);
      }
      p = Integer.parseInt(port);
    }
    out.add(InetSocketAddress.createUnresolved(host, p));
  }

  /** Points {@code conf} at this cluster (the registry, and its quorum or servers). */
  void applyTo(Configuration conf) {
    if (quorum != null) {
      conf.set("hbase.client.registry.impl", ZK_REGISTRY);
      conf.set("hbase.zookeeper.quorum", quorum);
      conf.setInt("hbase.zookeeper.property.clientPort", clientPort);
      conf.set("zookeeper.znode.parent", znodeParent);
    } else {
      conf.set("hbase.client.registry.impl", RPC_REGISTRY);
      conf.set("hbase.client.bootstrap.servers", text);
    }
  }

  /** The addresses the client connects to first: ZooKeeper servers or bootstrap servers. */
  List<InetSocketAddress> endpoints() {
    return endpoints;
  }

  @Override
  public String toString() {
    return text;
  }
}
