package dev.basalt.server.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** HBase's cluster keys: quorum:port:/parent, hosts with or without their own ports. */
class ClusterKeyTest {
  @Test
  void keysParseAsHBaseReadsThem() {
    assertThat(ClusterKey.parse("zk1,zk2,zk3:2181:/hbase"))
        .isEqualTo(new ClusterKey("zk1:2181,zk2:2181,zk3:2181", "/hbase"));
    assertThat(ClusterKey.parse("zk1:2182,zk2:2181:/hbase-b"))
        .isEqualTo(new ClusterKey("zk1:2182,zk2:2181", "/hbase-b"));
    assertThat(ClusterKey.parse("127.0.0.1:2181:/").path("hbaseid")).isEqualTo("/hbaseid");
    assertThat(ClusterKey.parse("h:1:/a/b").path("rs")).isEqualTo("/a/b/rs");
  }

  @Test
  void badKeysSayWhatIsWrong() {
    assertThatThrownBy(() -> ClusterKey.parse("")).hasMessageContaining("empty");
    assertThatThrownBy(() -> ClusterKey.parse("zk1:2181")).hasMessageContaining("invalid");
    assertThatThrownBy(() -> ClusterKey.parse("zk1:port:/hbase"))
        .hasMessageContaining("not a port");
    assertThatThrownBy(() -> ClusterKey.parse("zk1:2181:hbase"))
        .hasMessageContaining("must start with /");
    assertThatThrownBy(() -> ClusterKey.parse("zk1,,zk2:2181:/hbase"))
        .hasMessageContaining("empty host");
    assertThatThrownBy(() -> ClusterKey.parse("zk1:70000:/hbase"))
        .hasMessageContaining("port 70000");
  }
}
