package dev.basalt.server.replication;

import java.util.ArrayList;
import java.util.List;

/**
 * A peer's cluster key as HBase writes it, {@code quorum:port:/parent} ({@code
 * zk1,zk2,zk3:2181:/hbase}): the peer cluster's ZooKeeper and the parent znode of its HBase znodes,
 * through which a source finds the peer's cluster id and region servers. Hosts of the quorum may
 * carry their own ports ({@code zk1:2182,zk2:2182:2181:/hbase}), as HBase's {@code
 * ZKConfig.transformClusterKey} allows.
 *
 * @param connectString the ZooKeeper connect string, every host with its port
 * @param parent the parent znode, starting with {@code /} and not ending with one
 */
record ClusterKey(String connectString, String parent) {
  private static final String FORMAT =
      "the format should be hbase.zookeeper.quorum:hbase.zookeeper.property.clientPort"
          + ":zookeeper.znode.parent, e.g. zk1,zk2:2181:/hbase";

  /** The path of a child of the parent znode. */
  String path(String child) {
    return parent.equals("/") ? "/" + child : parent + "/" + child;
  }

  /**
   * @throws IllegalArgumentException naming what is wrong
   */
  static ClusterKey parse(String key) {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("the cluster key is empty; " + FORMAT);
    }
    String[] parts = key.split(":", -1);
    if (parts.length < 3) {
      throw new IllegalArgumentException("cluster key " + key + " is invalid, " + FORMAT);
    }
    String parent = parts[parts.length - 1];
    String portText = parts[parts.length - 2];
    String quorum = key.substring(0, key.length() - parent.length() - portText.length() - 2);
    if (!parent.matches("/.*[^/]") && !parent.equals("/")) {
      throw new IllegalArgumentException(
          "cluster key "
              + key
              + " is invalid: the parent znode '"
              + parent
              + "' must start with /");
    }
    int port;
    try {
      port = Integer.parseInt(portText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "cluster key " + key + " is invalid: '" + portText + "' is not a port; " + FORMAT);
    }
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException("cluster key " + key + " is invalid: port " + port);
    }
    List<String> hosts = new ArrayList<>();
    for (String h : quorum.split(",")) {
      String host = h.trim();
      if (host.isEmpty()) {
        throw new IllegalArgumentException(
            "cluster key " + key + " is invalid: an empty host in the quorum; " + FORMAT);
      }
      hosts.add(host.contains(":") ? host : host + ":" + port);
    }
    return new ClusterKey(String.join(",", hosts), parent);
  }
}
