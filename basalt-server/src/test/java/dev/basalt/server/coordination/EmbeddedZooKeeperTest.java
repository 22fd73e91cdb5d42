package dev.basalt.server.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An in-process standalone ZooKeeper: serves clients, keeps its data, stops without leftovers. */
class EmbeddedZooKeeperTest {
  @TempDir Path dir;

  static ZooKeeper connect(String connectString) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk =
        new ZooKeeper(
            connectString,
            30_000,
            e -> {
              if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
              }
            });
    if (!connected.await(20, TimeUnit.SECONDS)) {
      zk.close();
      throw new IOException("no connection to " + connectString);
    }
    return zk;
  }

  private static Set<Thread> liveThreads() {
    return new HashSet<>(Thread.getAllStackTraces().keySet());
  }

  @Test
  void servesClientsOnAFreePortAndStopsItsThreads() throws Exception {
    Set<Thread> before = liveThreads();
    EmbeddedZooKeeper server = EmbeddedZooKeeper.start(dir.resolve("zk"), "127.0.0.1", 0);
    assertThat(server.port()).isPositive();
    assertThat(server.connectString()).isEqualTo("127.0.0.1:" + server.port());
    ZooKeeper zk = connect(server.connectString());
    zk.create(
        "/a",
        "v".getBytes(StandardCharsets.UTF_8),
        ZooDefs.Ids.OPEN_ACL_UNSAFE,
        CreateMode.PERSISTENT);
    assertThat(new String(zk.getData("/a", false, null), StandardCharsets.UTF_8)).isEqualTo("v");
    assertThat(zk.close(10_000)).isTrue(); // waits for the client's threads
    server.close();
    server.close(); // idempotent

    // every thread the server and the client started has ended by the time close returns
    Set<Thread> left = liveThreads();
    left.removeAll(before);
    left.removeIf(t -> !t.isAlive());
    assertThat(left).extracting(Thread::getName).isEmpty();
  }

  @Test
  void keepsPersistentNodesAcrossARestartOnTheSameDirectory() throws Exception {
    Path data = dir.resolve("zk");
    try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(data, "127.0.0.1", 0)) {
      ZooKeeper zk = connect(server.connectString());
      zk.create("/kept", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      zk.close();
    }
    try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(data, "127.0.0.1", 0)) {
      ZooKeeper zk = connect(server.connectString());
      assertThat(zk.getData("/kept", false, null)).containsExactly(1);
      zk.close();
    }
  }

  @Test
  void aTakenPortIsAClearError() throws Exception {
    try (EmbeddedZooKeeper first = EmbeddedZooKeeper.start(dir.resolve("a"), "127.0.0.1", 0)) {
      assertThatThrownBy(() -> EmbeddedZooKeeper.start(dir.resolve("b"), "127.0.0.1", first.port()))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("127.0.0.1:" + first.port());
      // the first one still serves
      ZooKeeper zk = connect(first.connectString());
      assertThat(zk.exists("/", false)).isNotNull();
      zk.close();
    }
  }
}
