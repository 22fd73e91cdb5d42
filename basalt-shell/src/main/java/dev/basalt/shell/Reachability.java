package dev.basalt.shell;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Checks that something listens where the client will look for the cluster before the first
 * connection. The HBase client retries an unreachable ZooKeeper or bootstrap server for minutes
 * before it gives up; a shell pointed at a stopped cluster should say so in seconds. Only the TCP
 * port is tried: a cluster whose ZooKeeper answers but whose master is down is left to the client's
 * own retries and errors.
 */
final class Reachability {
  private static final int TIMEOUT_MS = 3000;

  private Reachability() {}

  static void check(Configuration conf) throws IOException {
    List<InetSocketAddress> endpoints = endpoints(conf);
    if (endpoints.isEmpty()) {
      return;
    }
    IOException last = null;
    for (InetSocketAddress address : endpoints) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(address.getHostString(), address.getPort()), TIMEOUT_MS);
        return;
      } catch (IOException e) {
        last = e;
      }
    }
    throw new ConnectException(
        "nothing answers at "
            + endpoints.get(0).getHostString()
            + ":"
            + endpoints.get(0).getPort()
            + (last != null && last.getMessage() != null ? ": " + last.getMessage() : ""));
  }

  /** The bootstrap servers of the RPC registry, else the ZooKeeper quorum with its port. */
  static List<InetSocketAddress> endpoints(Configuration conf) {
    List<InetSocketAddress> out = new ArrayList<>();
    String registry = conf.get("hbase.client.registry.impl", "");
    String bootstrap = conf.get("hbase.client.bootstrap.servers", "");
    if (registry.endsWith("RpcConnectionRegistry") && !bootstrap.isBlank()) {
      for (String hp : bootstrap.split(",")) {
        add(out, hp.trim(), 16000);
      }
      return out;
    }
    if (!registry.isEmpty() && !registry.endsWith("ZKConnectionRegistry")) {
      return out; // another registry: let the client find its own way
    }
    int port = conf.getInt("hbase.zookeeper.property.clientPort", 2181);
    for (String hp : conf.get("hbase.zookeeper.quorum", "localhost").split(",")) {
      add(out, hp.trim(), port);
    }
    return out;
  }

  private static void add(List<InetSocketAddress> out, String hostPort, int defaultPort) {
    if (hostPort.isEmpty()) {
      return;
    }
    int colon = hostPort.lastIndexOf(':');
    try {
      if (colon > 0 && hostPort.indexOf(':') == colon) {
        out.add(
            InetSocketAddress.createUnresolved(
                hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))));
      } else {
        out.add(InetSocketAddress.createUnresolved(hostPort, defaultPort));
      }
    } catch (NumberFormatException e) {
      // a malformed entry is the client's to report
    }
  }
}
