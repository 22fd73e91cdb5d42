package dev.basalt.shell;

import dev.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A second Basalt standalone server on its own free ports, for tests that need a replication peer
 * (the shared {@link TestCluster} is the source). Closed by the test that opened it.
 */
final class SecondCluster implements AutoCloseable {
  private final Path root;
  private final StandaloneServer server;
  private final Connection connection;

  SecondCluster() throws IOException {
    root = Files.createTempDirectory("basalt-shell-peer");
    server = TestCluster.startServer(root);
    connection = ConnectionFactory.createConnection(TestCluster.clientConf(server.zooKeeperPort()));
  }

  /** The cluster key a peer pointing here is added with. */
  String clusterKey() {
    return "127.0.0.1:" + server.zooKeeperPort() + ":/hbase";
  }

  Connection connection() {
    return connection;
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
