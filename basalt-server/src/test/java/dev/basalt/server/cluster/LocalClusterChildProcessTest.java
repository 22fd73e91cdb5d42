package dev.basalt.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalCluster} with child processes: each has a PID, its output file and ready file, and
 * answers the signals the cluster sends by PID (SIGSTOP and SIGCONT, SIGKILL, SIGTERM).
 */
class LocalClusterChildProcessTest {
  @TempDir Path dir;

  /** The state letter of /proc/PID/stat: T when stopped by a signal. */
  private static char state(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }

  @Test
  void childrenAnswerTheSignalsSentByPid() throws Exception {
    LocalClusterOptions options =
        LocalClusterOptions.builder(dir.resolve("root"))
            .masters(1)
            .regionServers(2)
            .startTimeout(Duration.ofSeconds(120))
            .build();
    try (LocalCluster c = LocalCluster.start(options)) {
      assertThat(c.allNodes()).hasSize(4).allSatisfy(n -> assertThat(n.pid()).isPositive());
      assertThat(c.allNodes())
          .allSatisfy(
              n -> assertThat(n.logFile()).isEqualTo(c.logDirectory().resolve(n.id() + ".out")));
      assertThat(c.root().resolve("run/master-1.ready")).exists();
      assertThat(c.activeMaster()).isPresent();

      LocalClusterNode rs = c.regionServers().get(0);
      c.suspend(rs);
      assertThat(state(rs.pid())).isEqualTo('T');
      assertThat(rs.isAlive()).as("a suspended process still runs").isTrue();
      c.resume(rs);
      assertThat(state(rs.pid())).isNotEqualTo('T');

      assertThat(c.kill(rs)).as("SIGKILL").isEqualTo(137);
      assertThat(c.regionServers()).hasSize(1);

      LocalClusterNode other = c.regionServers().get(0);
      c.suspend(other); // a stop resumes it first: a stopped process would not act on SIGTERM
      assertThat(c.stop(other)).as("SIGTERM, stopped by its shutdown hook").isEqualTo(143);
      assertThat(c.regionServers()).isEmpty();
    }
  }
}
