package dev.basalt.shell.verify;

import dev.basalt.server.standalone.StandaloneServer;
import dev.basalt.shell.TestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Two Basalt standalone servers in this JVM (a source and a peer), each with its own root and free
 * loopback ports, and a stock-client connection to each. Closed by the test class that made it.
 */
final class TwoServers implements AutoCloseable {
  final Side source;
  final Side peer;

  /** One server and a client connection to it. */
  static final class Side implements AutoCloseable {
    final StandaloneServer server;
    final Connection connection;
    private final Path root;

    private Side(Path root, StandaloneServer server, Connection connection) {
      this.root = root;
      this.server = server;
      this.connection = connection;
    }

    static Side start(String name) throws IOException {
      Path root = Files.createTempDirectory("basalt-verify-" + name);
      StandaloneServer server = TestCluster.startServer(root);
      return new Side(
          root,
          server,
          ConnectionFactory.createConnection(TestCluster.clientConf(server.zooKeeperPort())));
    }

    /** The cluster key, as add_peer takes it. */
    String clusterKey() {
      return "127.0.0.1:" + server.zooKeeperPort() + ":/hbase";
    }

    /** host:port of the master, for the RPC registry. */
    String bootstrap() {
      return server.cluster().master().hostAndPort();
    }

    @Override
    public void close() throws IOException {
      connection.close();
      server.close();
      try (Stream<Path> files = Files.walk(root)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private TwoServers(Side source, Side peer) {
    this.source = source;
    this.peer = peer;
  }

  static TwoServers start() throws IOException {
    Side s = Side.start("source");
    try {
      return new TwoServers(s, Side.start("peer"));
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      peer.close();
    } finally {
      source.close();
    }
  }
}
