package dev.basalt.server.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HBase's registry znodes as the stock client's ZKConnectionRegistry reads them. */
class HBaseZnodesTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path dir;
  private EmbeddedZooKeeper server;
  private ZooKeeper reader;

  private static ClusterInfo cluster(String id, long startCode) {
    return new ClusterInfo(
        id,
        new ServerName("localhost", 16000, startCode),
        new ServerName("localhost", 16020, startCode),
        ClusterInfo.HBASE_VERSION);
  }

  @BeforeEach
  void start() throws Exception {
    server = EmbeddedZooKeeper.start(dir.resolve("zk"), "127.0.0.1", 0);
    reader = EmbeddedZooKeeperTest.connect(server.connectString());
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
    server.close();
  }

  private byte[] read(String path) throws Exception {
    return HBaseZnodes.stripMagic(reader.getData(path, false, null));
  }

  @Test
  void writesTheClusterIdMasterAndMetaLocation() throws Exception {
    ClusterInfo c = cluster("4b1b0e5c-cluster", 1234L);
    try (HBaseZnodes z =
        HBaseZnodes.publish(server.connectString(), HBaseZnodes.DEFAULT_PARENT, c, TIMEOUT)) {
      assertThat(z.path(HBaseZnodes.MASTER)).isEqualTo("/hbase/master");
      assertThat(ClusterIdProtos.ClusterId.parseFrom(read("/hbase/hbaseid")).getClusterId())
          .isEqualTo("4b1b0e5c-cluster");

      ZooKeeperProtos.Master m = ZooKeeperProtos.Master.parseFrom(read("/hbase/master"));
      assertThat(m.getMaster())
          .isEqualTo(
              HBaseProtos.ServerName.newBuilder()
                  .setHostName("localhost")
                  .setPort(16000)
                  .setStartCode(1234L)
                  .build());
      assertThat(m.getRpcVersion()).isZero();
      assertThat(m.hasInfoPort()).isTrue();
      assertThat(m.getInfoPort()).isZero();

      ZooKeeperProtos.MetaRegionServer meta =
          ZooKeeperProtos.MetaRegionServer.parseFrom(read("/hbase/meta-region-server"));
      assertThat(meta.getServer().getPort()).isEqualTo(16020);
      assertThat(meta.getServer().getHostName()).isEqualTo("localhost");
      assertThat(meta.getRpcVersion()).isZero();
      assertThat(meta.getState()).isEqualTo(ClusterStatusProtos.RegionState.State.OPEN);

      // the client lists the parent's children to find meta locations
      assertThat(reader.getChildren("/hbase", false))
          .containsExactlyInAnyOrder("hbaseid", "master", "meta-region-server");
      assertThat(reader.exists("/hbase/master", false).getEphemeralOwner()).isNotZero();
      assertThat(reader.exists("/hbase/meta-region-server", false).getEphemeralOwner()).isNotZero();
      assertThat(reader.exists("/hbase/hbaseid", false).getEphemeralOwner()).isZero();
    }
  }

  @Test
  void ephemeralNodesVanishWithTheSessionAndTheClusterIdStays() throws Exception {
    HBaseZnodes z =
        HBaseZnodes.publish(server.connectString(), "/hbase", cluster("c1", 1L), TIMEOUT);
    assertThat(reader.exists("/hbase/master", false)).isNotNull();
    z.close();
    z.close(); // idempotent
    // closing the session removes its ephemeral nodes before close returns
    assertThat(reader.exists("/hbase/master", false)).isNull();
    assertThat(reader.exists("/hbase/meta-region-server", false)).isNull();
    assertThat(reader.exists("/hbase/hbaseid", false)).isNotNull();
  }

  @Test
  void aRestartReplacesTheNodesOfAnEarlierSessionStillAlive() throws Exception {
    // the first "process" crashed: its session lives on until ZooKeeper expires it
    HBaseZnodes crashed =
        HBaseZnodes.publish(server.connectString(), "/hbase", cluster("c1", 1L), TIMEOUT);
    Stat stale = reader.exists("/hbase/master", false);
    try (HBaseZnodes restarted =
        HBaseZnodes.publish(server.connectString(), "/hbase", cluster("c2", 2L), TIMEOUT)) {
      Stat fresh = reader.exists("/hbase/master", false);
      assertThat(fresh.getEphemeralOwner()).isNotEqualTo(stale.getEphemeralOwner());
      assertThat(ZooKeeperProtos.Master.parseFrom(read("/hbase/master")).getMaster().getStartCode())
          .isEqualTo(2L);
      assertThat(
              ZooKeeperProtos.MetaRegionServer.parseFrom(read("/hbase/meta-region-server"))
                  .getServer()
                  .getStartCode())
          .isEqualTo(2L);
      assertThat(ClusterIdProtos.ClusterId.parseFrom(read("/hbase/hbaseid")).getClusterId())
          .isEqualTo("c2");

      // the old session ending (expiry) no longer takes the new nodes with it
      crashed.close();
      assertThat(reader.exists("/hbase/master", false)).isNotNull();
      assertThat(reader.exists("/hbase/meta-region-server", false)).isNotNull();
    }
    assertThat(reader.exists("/hbase/master", false)).isNull();
  }

  @Test
  void aConfiguredParentIsCreatedWithItsAncestors() throws Exception {
    try (HBaseZnodes z =
        HBaseZnodes.publish(server.connectString(), "/basalt/hbase", cluster("c", 7L), TIMEOUT)) {
      assertThat(z.parent()).isEqualTo("/basalt/hbase");
      assertThat(ClusterIdProtos.ClusterId.parseFrom(read("/basalt/hbase/hbaseid")).getClusterId())
          .isEqualTo("c");
      assertThat(reader.exists("/hbase", false)).isNull();
    }
    assertThatThrownBy(
            () -> HBaseZnodes.publish(server.connectString(), "hbase", cluster("c", 1L), TIMEOUT))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anUnreachableQuorumFailsWithinTheTimeout() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    String quorum = "127.0.0.1:" + closedPort;
    long start = System.nanoTime();
    assertThatThrownBy(
            () -> HBaseZnodes.publish(quorum, "/hbase", cluster("c", 1L), Duration.ofMillis(1500)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(quorum)
        .hasMessageContaining("1500 ms");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void stripMagicSkipsHBaseMetadataHeader() throws Exception {
    byte[] body = HBaseZnodes.clusterIdData("x");
    byte[] id = "writer-id".getBytes(StandardCharsets.UTF_8);
    byte[] withHeader =
        ByteBuffer.allocate(5 + id.length + body.length)
            .put((byte) 0xFF)
            .putInt(id.length)
            .put(id)
            .put(body)
            .array();
    assertThat(
            ClusterIdProtos.ClusterId.parseFrom(HBaseZnodes.stripMagic(withHeader)).getClusterId())
        .isEqualTo("x");
    assertThatThrownBy(() -> HBaseZnodes.stripMagic(new byte[] {1, 2, 3}))
        .isInstanceOf(IOException.class);
  }

  @Test
  void stripMagicRejectsHeaderLengthsPastTheValue() {
    // Lengths near Integer.MAX_VALUE used to wrap the offset around and fail with an unchecked
    // exception instead of the IOException the callers handle.
    for (int length :
        new int[] {-1, -5, -6, Integer.MIN_VALUE, 100, Integer.MAX_VALUE, Integer.MAX_VALUE - 6}) {
      byte[] value =
          ByteBuffer.allocate(13).put((byte) 0xFF).putInt(length).put(PBUF_AND_BODY).array();
      assertThatThrownBy(() -> HBaseZnodes.stripMagic(value))
          .as("header length %d", length)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("PBUF");
    }
  }

  private static final byte[] PBUF_AND_BODY = {'P', 'B', 'U', 'F', 1, 2, 3, 4};
}
