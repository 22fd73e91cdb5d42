package dev.basalt.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalCluster} in this JVM: the processes it starts, what it says about them, adding and
 * ending region servers, the refusals of what needs a child process, and the clean close. The
 * child-process mode is exercised by {@link LocalClusterMainTest} and the multi-process scenarios
 * of basalt-compat-tests.
 */
class LocalClusterTest {
  @TempDir Path dir;

  private LocalClusterOptions inProcess(int masters, int regionServers) {
    return LocalClusterOptions.builder(dir.resolve("root"))
        .mode(LocalClusterOptions.Mode.IN_PROCESS)
        .masters(masters)
        .regionServers(regionServers)
        .set("basalt.regionserver.report.interval", "200")
        .build();
  }

  @Test
  void startsZooKeeperMastersAndRegionServersAndTellsClientsWhereTheyAre() throws Exception {
    try (LocalCluster c = LocalCluster.start(inProcess(2, 2))) {
      assertThat(c.zooKeeper().address()).isEqualTo("127.0.0.1:" + c.zooKeeperPort());
      assertThat(c.masters())
          .extracting(LocalClusterNode::id)
          .containsExactly("master-1", "master-2");
      assertThat(c.masters().stream().filter(LocalClusterNode::isActiveMaster)).hasSize(1);
      assertThat(c.activeMaster()).isPresent();
      assertThat(c.regionServers())
          .extracting(LocalClusterNode::id)
          .containsExactly("regionserver-1", "regionserver-2");
      Set<Integer> ports =
          c.allNodes().stream()
              .filter(n -> n.serverName() != null)
              .map(n -> n.serverName().port())
              .collect(Collectors.toSet());
      assertThat(ports).hasSize(4).doesNotContain(0);
      assertThat(c.clientSettings())
          .containsEntry("hbase.zookeeper.quorum", "127.0.0.1")
          .containsEntry(
              "hbase.zookeeper.property.clientPort", Integer.toString(c.zooKeeperPort()));
      assertThat(c.bootstrapServers().split(","))
          .containsExactlyInAnyOrderElementsOf(
              c.masters().stream().map(LocalClusterNode::address).toList());
      assertThat(c.allNodes()).allSatisfy(n -> assertThat(n.pid()).isEqualTo(-1));
    }
  }

  @Test
  void addsKillsAndStopsRegionServers() throws Exception {
    try (LocalCluster c = LocalCluster.start(inProcess(1, 1))) {
      LocalClusterNode added = c.addRegionServer();
      assertThat(added.id()).isEqualTo("regionserver-2");
      assertThat(c.regionServers()).hasSize(2);

      LocalClusterNode first = c.regionServers().get(0);
      assertThat(c.kill(first)).as("an abort ends with status 1").isEqualTo(1);
      assertThat(first.isAlive()).isFalse();
      assertThat(c.regionServers()).containsExactly(added);

      assertThat(c.stop(added)).as("a graceful stop ends with status 0").isZero();
      assertThat(c.regionServers()).isEmpty();
      assertThat(c.allNodes()).hasSize(4); // ZooKeeper, master, two region servers
    }
  }

  @Test
  void signalsNeedChildProcesses() throws Exception {
    try (LocalCluster c = LocalCluster.start(inProcess(1, 1))) {
      LocalClusterNode rs = c.regionServers().get(0);
      assertThatThrownBy(() -> c.suspend(rs))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("regionserver-1")
          .hasMessageContaining("CHILD_PROCESSES");
      LocalClusterNode master = c.masters().get(0);
      assertThatThrownBy(() -> c.kill(master))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("master-1");
    }
  }

  @Test
  void closeStopsEverythingAndAStandbyTakesOverWhenTheActiveMasterStops() throws Exception {
    LocalCluster c = LocalCluster.start(inProcess(2, 1));
    List<LocalClusterNode> all = c.allNodes();
    LocalClusterNode active = c.awaitActiveMaster(Duration.ofSeconds(10));
    c.stop(active);
    LocalClusterNode next = c.awaitActiveMaster(Duration.ofSeconds(30));
    assertThat(next).isNotSameAs(active);
    c.close();
    assertThat(all).noneMatch(LocalClusterNode::isAlive);
    assertThatThrownBy(c::addRegionServer).isInstanceOf(IllegalStateException.class);
    c.close(); // idempotent
  }

  @Test
  void optionsOutOfRangeAreNamed() {
    assertThatThrownBy(() -> LocalClusterOptions.builder(dir).masters(0).build())
        .hasMessageContaining("masters = 0");
    assertThatThrownBy(() -> LocalClusterOptions.builder(dir).regionServers(-1).build())
        .hasMessageContaining("region servers = -1");
    assertThatThrownBy(() -> LocalClusterOptions.builder(dir).zooKeeperPort(70000).build())
        .hasMessageContaining("70000");
  }
}
