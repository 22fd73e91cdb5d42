package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who the master counts as a live region server: the startup call's refusals (a clock too far off,
 * a server declared dead, an older life of a registered one), a newer start code on the same
 * address ending the older life, and the znodes under {@code rs/} (adopted, gone, never seen).
 */
class ServerManagerTest {
  private static final long SKEW = 30_000;

  private final ManualClock clock = new ManualClock(1_000_000);
  private final ServerManager servers = new ServerManager(clock, SKEW);
  private final List<String> events = new ArrayList<>();

  private static ServerName server(int port, long startCode) {
    return new ServerName("127.0.0.1", port, startCode);
  }

  private static String znode(ServerName s) {
    return s.toString();
  }

  @BeforeEach
  void listen() {
    servers.setListener(
        new ServerManager.Listener() {
          @Override
          public void serverAdded(ServerName server) {
            events.add("added " + server);
          }

          @Override
          public void serverDied(ServerName server) {
            events.add("died " + server);
          }
        });
  }

  @Test
  void aServerWhoseClockIsTooFarOffIsRefusedNamingTheSkewAndTheSetting() throws Exception {
    ServerName ahead = server(16020, 1);
    assertThatThrownBy(() -> servers.startup(ahead, clock.currentTimeMillis() + SKEW + 1))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> {
              assertThat(e.hbaseExceptionClass())
                  .isEqualTo("org.apache.hadoop.hbase.ClockOutOfSyncException");
              assertThat(e.isDoNotRetry()).isTrue();
            })
        .hasMessageContaining("Server " + ahead + " has been rejected")
        .hasMessageContaining((SKEW + 1) + " ms away")
        .hasMessageContaining("hbase.master.maxclockskew is " + SKEW + " ms");
    ServerName behind = server(16021, 1);
    assertThatThrownBy(() -> servers.startup(behind, clock.currentTimeMillis() - SKEW - 5))
        .hasMessageContaining((SKEW + 5) + " ms away");
    assertThat(servers.liveServers()).isEmpty();
    assertThat(events).isEmpty();

    // exactly the allowed skew is accepted
    servers.startup(ahead, clock.currentTimeMillis() + SKEW);
    assertThat(servers.isLive(ahead)).isTrue();
    assertThat(events).containsExactly("added " + ahead);
  }

  @Test
  void aNewerStartCodeOnTheSameAddressEndsTheOlderLifeAndAnOlderOneIsRefused() throws Exception {
    ServerName first = server(16020, 100);
    ServerName restarted = server(16020, 200);
    servers.startup(first, clock.currentTimeMillis());
    servers.startup(restarted, clock.currentTimeMillis());
    assertThat(servers.isLive(first)).isFalse();
    assertThat(servers.isLive(restarted)).isTrue();
    assertThat(servers.deadServers()).containsExactly(first);
    // the older life's regions are recovered before the new one is counted
    assertThat(events).containsExactly("added " + first, "died " + first, "added " + restarted);

    // the old life comes back (a paused process resumed): it is dead, and told so
    assertThatThrownBy(() -> servers.startup(first, clock.currentTimeMillis()))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e ->
                assertThat(e.hbaseExceptionClass())
                    .isEqualTo("org.apache.hadoop.hbase.YouAreDeadException"))
        .hasMessageContaining("declared dead");
    assertThatThrownBy(() -> servers.report(first, ServerLoad.getDefaultInstance()))
        .hasMessageContaining("declared dead");
    // an older life the master never saw die is refused too
    assertThatThrownBy(() -> servers.startup(server(16020, 150), clock.currentTimeMillis()))
        .hasMessageContaining("a newer life of it, " + restarted);
    assertThat(servers.liveServers().keySet()).containsExactly(restarted);
  }

  @Test
  void regionsGoOnlyToServersWhoseZnodeWasSeenAndNotDecommissioned() throws Exception {
    ServerName a = server(16020, 1);
    ServerName b = server(16021, 1);
    servers.startup(a, clock.currentTimeMillis());
    servers.startup(b, clock.currentTimeMillis());
    assertThat(servers.assignable()).isEmpty(); // no znode yet: it may still give up
    servers.znodes(List.of(znode(a)), 10_000);
    assertThat(servers.assignable()).containsExactly(a);
    servers.znodes(List.of(znode(a), znode(b)), 10_000);
    assertThat(servers.assignable()).containsExactly(a, b);
    servers.decommission(b);
    assertThat(servers.assignable()).containsExactly(a);
    assertThat(servers.isLive(b)).isTrue();
    servers.recommission(b);
    assertThat(servers.assignable()).containsExactly(a, b);
  }

  @Test
  void aGoneZnodeOrOneThatNeverCameMeansDeadAndAnUnknownZnodeIsAdopted() throws Exception {
    ServerName seen = server(16020, 1);
    ServerName never = server(16021, 1);
    servers.startup(seen, clock.currentTimeMillis());
    servers.startup(never, clock.currentTimeMillis());
    assertThat(servers.onlyServersOfAnEarlierMaster()).isFalse();
    servers.znodes(List.of(znode(seen)), 10_000);
    assertThat(servers.liveServers().keySet()).containsExactlyInAnyOrder(seen, never);

    // past the grace period, a server whose znode never appeared is dead
    clock.advance(10_001);
    servers.znodes(List.of(znode(seen)), 10_000);
    assertThat(servers.liveServers().keySet()).containsExactly(seen);
    // a znode that goes away: its session ended
    servers.znodes(List.of(), 10_000);
    assertThat(servers.liveServers()).isEmpty();
    assertThat(Set.copyOf(servers.deadServers())).containsExactlyInAnyOrder(seen, never);

    // a server registered with an earlier master: its znode is its proof of life
    ServerName earlier = server(16022, 7);
    servers.znodes(List.of(znode(earlier), "not-a-server-name"), 10_000);
    assertThat(servers.liveServers().keySet()).containsExactly(earlier);
    assertThat(servers.assignable()).containsExactly(earlier);
    assertThat(servers.onlyServersOfAnEarlierMaster())
        .as("a take-over: nobody to wait for")
        .isTrue();
    // a dead server's znode (its session not yet expired) does not bring it back
    servers.znodes(List.of(znode(earlier), znode(seen)), 10_000);
    assertThat(servers.isLive(seen)).isFalse();
    ServerName joined = server(16023, 9);
    servers.startup(joined, clock.currentTimeMillis());
    assertThat(servers.onlyServersOfAnEarlierMaster()).as("one registered here").isFalse();
    assertThat(events)
        .containsExactly(
            "added " + seen,
            "added " + never,
            "died " + never,
            "died " + seen,
            "added " + earlier,
            "added " + joined);
  }
}
