package dev.basalt.compat;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of test classes that run against one server per class with one stock-client connection
 * through the ZooKeeper registry ({@link #conn}): a standalone server, or a cluster of three region
 * servers when the build runs them again with {@code -Dbasalt.compat.target=cluster}. A subclass's
 * own {@code @BeforeAll} runs after the server is up and its {@code @AfterAll} before the
 * connection is closed; they must not be named {@code startCluster} or {@code stopCluster} (that
 * would hide these). Test classes run one after another, so the static fields belong to the class
 * running.
 */
abstract class OneConnectionTest {
  @TempDir static Path dir;

  /** The standalone server, in a standalone run (null in a cluster run). */
  static StandaloneCluster cluster;

  /** What the tests talk to: the standalone server, or a cluster ({@link CompatTarget}). */
  static CompatTarget target;

  static Connection conn;

  @BeforeAll
  static void startCluster() throws IOException {
    if (CompatTarget.isCluster()) {
      cluster = null;
      target = ClusterTarget.start(dir);
    } else {
      cluster = StandaloneCluster.start(dir);
      target = cluster;
    }
    conn = ConnectionFactory.createConnection(target.zooKeeperClientConf());
  }

  @AfterAll
  static void stopCluster() throws IOException {
    if (conn != null) {
      conn.close();
    }
    target.close();
  }
}
