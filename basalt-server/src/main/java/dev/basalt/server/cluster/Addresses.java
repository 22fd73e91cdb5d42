package dev.basalt.server.cluster;

import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.util.config.Config;
import dev.basalt.util.config.ConfigKey;
import java.io.IOException;
import java.net.InetAddress;

/**
 * Where a Basalt process listens and what it tells others to connect to, from its settings: the
 * bind address, the host name it advertises (in ZooKeeper, hbase:meta and server names), ports, and
 * the ZooKeeper quorum in the form the ZooKeeper client takes.
 */
public final class Addresses {
  private Addresses() {}

  /** The address RPC servers bind ({@code hbase.regionserver.ipc.address}). */
  public static String bind(Config config) {
    return config.get(StandaloneSettings.BIND_ADDRESS);
  }

  /**
   * The host name others connect to: {@code hbase.regionserver.hostname} when set, else the bind
   * address, or this machine's name when binding to every address.
   */
  public static String advertisedHost(Config config) throws IOException {
    String configured = config.get(StandaloneSettings.HOSTNAME);
    if (!configured.isEmpty()) {
      return configured;
    }
    String bind = bind(config);
    return isWildcard(bind) ? InetAddress.getLocalHost().getCanonicalHostName() : bind;
  }

  /** An address to reach a server bound to {@code bind} on this machine. */
  public static String connectHost(String bind) {
    return isWildcard(bind) ? "127.0.0.1" : bind;
  }

  public static boolean isWildcard(String bind) {
    return bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("*");
  }

  /**
   * @throws IllegalArgumentException naming the key when it is not a port
   */
  public static int port(Config config, ConfigKey<Integer> key) {
    int p = config.get(key);
    if (p < 0 || p > 65535) {
      throw new IllegalArgumentException(key.key() + " = " + p + " is not a port (0..65535)");
    }
    return p;
  }

  /**
   * The ZooKeeper connect string: {@code hbase.zookeeper.quorum}'s hosts, each with {@code
   * hbase.zookeeper.property.clientPort} unless it names its own port.
   */
  public static String zooKeeperQuorum(Config config) {
    int port = config.get(StandaloneSettings.ZOOKEEPER_PORT);
    StringBuilder b = new StringBuilder();
    for (String host : config.get(ClusterSettings.ZOOKEEPER_QUORUM).split(",")) {
      String h = host.trim();
      if (h.isEmpty()) {
        continue;
      }
      if (b.length() > 0) {
        b.append(',');
      }
      boolean hasPort = h.lastIndexOf(':') > h.lastIndexOf(']');
      b.append(hasPort ? h : h + ":" + port);
    }
    if (b.length() == 0) {
      throw new IllegalArgumentException(
          ClusterSettings.ZOOKEEPER_QUORUM.key() + " names no ZooKeeper server");
    }
    return b.toString();
  }
}
