package dev.basalt.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalNodeOptions}: a region server started on the port of one that was killed (a newer
 * start code on the same address), a child with a JVM option of its own (a fault point), a setting
 * of one process, and what is refused.
 */
class LocalNodeOptionsTest {
  @TempDir Path dir;

  @Test
  void aRegionServerRestartsOnThePortOfOneThatDiedInThisJvm() throws Exception {
    try (LocalCluster c =
        LocalCluster.start(
            LocalClusterOptions.builder(dir.resolve("root"))
                .mode(LocalClusterOptions.Mode.IN_PROCESS)
                .masters(1)
                .regionServers(1)
                .build())) {
      LocalClusterNode first = c.regionServers().get(0);
      ServerName before = first.serverName();
      c.kill(first);
      LocalClusterNode again = c.addRegionServer(LocalNodeOptions.DEFAULT.port(before.port()));
      assertThat(again.serverName().sameAddress(before)).isTrue();
      assertThat(again.serverName().startCode()).isGreaterThan(before.startCode());
      assertThatThrownBy(() -> c.addMaster(LocalNodeOptions.DEFAULT.jvmOption("-Xss1m")))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("-Xss1m")
          .hasMessageContaining("CHILD_PROCESSES");
    }
  }

  @Test
  void childrenGetTheirPortJvmOptionsAndSettings() throws Exception {
    try (LocalCluster c =
        LocalCluster.start(
            LocalClusterOptions.builder(dir.resolve("root")).masters(1).regionServers(1).build())) {
      LocalClusterNode rs = c.regionServers().get(0);
      ServerName before = rs.serverName();
      assertThat(c.kill(rs)).isEqualTo(137);
      LocalClusterNode again =
          c.addRegionServer(
              LocalNodeOptions.DEFAULT
                  .port(before.port())
                  .set("basalt.regionserver.report.interval", "250"));
      assertThat(again.serverName().sameAddress(before)).isTrue();
      assertThat(again.serverName().startCode()).isGreaterThan(before.startCode());
      assertThat(commandLine(again.pid()))
          .contains("hbase.regionserver.port=" + before.port())
          .contains("basalt.regionserver.report.interval=250");

      String spec = "master.assignment.afterPersist=halt";
      LocalClusterNode standby = c.addMaster(LocalNodeOptions.DEFAULT.faultPoints(spec));
      assertThat(commandLine(standby.pid())).contains("-Dbasalt.faultpoints=" + spec);
      assertThat(standby.isActiveMaster()).isFalse();
      assertThat(commandLine(c.activeMaster().orElseThrow().pid()))
          .noneMatch(a -> a.startsWith("-Dbasalt.faultpoints"));
    }
  }

  @Test
  void badOptionsAreNamed() throws Exception {
    assertThatThrownBy(() -> LocalNodeOptions.DEFAULT.port(70000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("70000");
    assertThatThrownBy(() -> LocalNodeOptions.DEFAULT.faultPoints("a=halt, b=halt"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a=halt, b=halt");
  }

  /** The arguments the child was started with, from /proc. */
  private static List<String> commandLine(long pid) throws Exception {
    byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
    return Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\0"));
  }
}
