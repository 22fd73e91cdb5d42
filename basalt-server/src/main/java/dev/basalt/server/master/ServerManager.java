package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The region servers the active master knows: a server is live from its startup call (or, for a
 * master that took over, from when it finds the server's znode) until its ephemeral znode ({@code
 * <parent>/rs/<server>}) disappears, a newer life of it (a new start code on the same host and
 * port) registers, or its port refuses connections ({@link ServerProbe}); then it is dead, and the
 * listener is told. Reports keep each live server's load. Decommissioned servers get no new
 * regions.
 *
 * <p>Refusals at startup, with the HBase exceptions region servers expect: a clock too far from the
 * master's ({@code ClockOutOfSyncException}), a server already declared dead ({@code
 * YouAreDeadException}), an older life of a server whose newer life is registered. Thread-safe.
 */
final class ServerManager {
  private static final Logger LOG = LoggerFactory.getLogger(ServerManager.class);
  static final String CLOCK_OUT_OF_SYNC = "org.apache.hadoop.hbase.ClockOutOfSyncException";
  static final String YOU_ARE_DEAD = "org.apache.hadoop.hbase.YouAreDeadException";

  /** How many dead servers are remembered for the status call and for refusing them. */
  private static final int DEAD_REMEMBERED = 100;

  /** What the master does when a server dies. */
  interface Listener {
    void serverAdded(ServerName server);

    void serverDied(ServerName server);
  }

  private final Clock clock;
  private final long maxClockSkewMillis;
  private final Map<ServerName, ServerLoad> live = new ConcurrentHashMap<>();

  /** Live servers whose znode has been seen (a server whose znode then goes away died). */
  private final Set<ServerName> znodeSeen = ConcurrentHashMap.newKeySet();

  private final Map<ServerName, Long> registeredAt = new ConcurrentHashMap<>();

  /** Live servers that registered with an earlier master (found by their znodes). */
  private final Set<ServerName> takenOver = ConcurrentHashMap.newKeySet();

  private final Set<ServerName> dead = new LinkedHashSet<>();
  private final Set<ServerName> decommissioned = ConcurrentHashMap.newKeySet();
  private volatile long lastJoinedMillis;
  private volatile Listener listener;

  ServerManager(Clock clock, long maxClockSkewMillis) {
    this.clock = clock;
    this.maxClockSkewMillis = maxClockSkewMillis;
  }

  void setListener(Listener listener) {
    this.listener = listener;
  }

  /**
   * A region server's startup call.
   *
   * @throws BasaltIOException ClockOutOfSyncException, YouAreDeadException, or a DoNotRetry error
   *     for an older life of a registered server
   */
  void startup(ServerName server, long serverTimeMillis) throws BasaltIOException {
    long skew = Math.abs(clock.currentTimeMillis() - serverTimeMillis);
    if (skew > maxClockSkewMillis) {
      throw new BasaltIOException(
          "Server "
              + server
              + " has been rejected; its clock is "
              + skew
              + " ms away from the master's (hbase.master.maxclockskew is "
              + maxClockSkewMillis
              + " ms)",
          CLOCK_OUT_OF_SYNC,
          true);
    }
    ServerName older = null;
    synchronized (this) {
      if (dead.contains(server)) {
        throw youAreDead(server);
      }
      for (ServerName s : live.keySet()) {
        if (s.sameAddress(server) && !s.equals(server)) {
          if (s.startCode() > server.startCode()) {
            throw BasaltIOException.doNotRetry(
                "Server "
                    + server
                    + " rejected: a newer life of it, "
                    + s
                    + ", is registered at the same address");
          }
          older = s;
        }
      }
      live.putIfAbsent(server, ServerLoad.getDefaultInstance());
      registeredAt.putIfAbsent(server, clock.currentTimeMillis());
      lastJoinedMillis = clock.currentTimeMillis();
    }
    if (older != null) {
      LOG.info("{} registered at the address of {}: that one is dead", server, older);
      died(older);
    }
    LOG.info("region server {} started", server);
    Listener l = listener;
    if (l != null) {
      l.serverAdded(server);
    }
  }

  /**
   * A region server's load report.
   *
   * @throws BasaltIOException YouAreDeadException when the master declared it dead
   */
  void report(ServerName server, ServerLoad load) throws BasaltIOException {
    synchronized (this) {
      if (dead.contains(server)) {
        throw youAreDead(server);
      }
    }
    if (live.replace(server, load) == null) {
      // Not registered with this master (it started before a failover): its startup is over, its
      // znode says it lives; take it in.
      live.put(server, load);
      registeredAt.put(server, clock.currentTimeMillis());
      lastJoinedMillis = clock.currentTimeMillis();
      Listener l = listener;
      if (l != null) {
        l.serverAdded(server);
      }
    }
  }

  /**
   * The children of {@code <parent>/rs} as ZooKeeper lists them now: a live server whose znode was
   * seen and is gone died; one whose znode never appeared within {@code graceMillis} of its startup
   * died too. Listings must come in the order ZooKeeper answered them: an older one handed over
   * after a newer one would take a server that just joined for one that left.
   */
  void znodes(Collection<String> children, long graceMillis) {
    Set<ServerName> present = new LinkedHashSet<>();
    for (String child : children) {
      try {
        present.add(ServerName.parse(child));
      } catch (IllegalArgumentException e) {
        LOG.warn("ignoring znode rs/{}: not a server name", child);
      }
    }
    long now = clock.currentTimeMillis();
    List<ServerName> adopted = new ArrayList<>();
    synchronized (this) {
      for (ServerName s : present) {
        if (!live.containsKey(s) && !dead.contains(s) && !hasNewerLife(s)) {
          // Its session is alive, so its process is: a server that registered with an earlier
          // master. Live until its znode goes (or a probe finds its port closed), not dead for
          // want of a report, which it sends within its report interval.
          live.put(s, ServerLoad.getDefaultInstance());
          registeredAt.put(s, now);
          lastJoinedMillis = now;
          adopted.add(s);
          takenOver.add(s);
        }
        if (live.containsKey(s)) {
          znodeSeen.add(s);
        }
      }
    }
    Listener listening = listener;
    for (ServerName s : adopted) {
      LOG.info("region server {} is live (its znode is present)", s);
      if (listening != null) {
        listening.serverAdded(s);
      }
    }
    for (ServerName s : new ArrayList<>(live.keySet())) {
      boolean gone = znodeSeen.contains(s) && !present.contains(s);
      boolean neverCame =
          !znodeSeen.contains(s) && now - registeredAt.getOrDefault(s, now) > graceMillis;
      if (gone || neverCame || hasNewerLife(s)) {
        died(s);
      }
    }
  }

  /** Whether a newer life of this server (same address, greater start code) is live. */
  private boolean hasNewerLife(ServerName server) {
    for (ServerName s : live.keySet()) {
      if (s.sameAddress(server) && s.startCode() > server.startCode()) {
        return true;
      }
    }
    return false;
  }

  /** Declares a server dead (idempotent) and tells the listener. */
  void died(ServerName server) {
    synchronized (this) {
      if (live.remove(server) == null) {
        return;
      }
      znodeSeen.remove(server);
      takenOver.remove(server);
      registeredAt.remove(server);
      decommissioned.remove(server);
      dead.add(server);
      while (dead.size() > DEAD_REMEMBERED) {
        dead.remove(dead.iterator().next());
      }
    }
    LOG.info("region server {} is gone", server);
    Listener l = listener;
    if (l != null) {
      l.serverDied(server);
    }
  }

  /** When the latest live server joined (0: none yet). */
  long lastJoinedMillis() {
    return lastJoinedMillis;
  }

  /**
   * Whether every live server registered with an earlier master (this one took over a running
   * cluster) and there is at least one: then there is no one to wait for before placing regions.
   */
  boolean onlyServersOfAnEarlierMaster() {
    return !live.isEmpty() && takenOver.containsAll(live.keySet());
  }

  boolean isLive(ServerName server) {
    return live.containsKey(server);
  }

  /** Live servers with their last loads. */
  Map<ServerName, ServerLoad> liveServers() {
    return new LinkedHashMap<>(live);
  }

  /**
   * Live servers new regions may go to: not decommissioned, and with their znode seen (a server
   * between its startup call and its znode may still give up, e.g. on finding another cluster's
   * root).
   */
  List<ServerName> assignable() {
    List<ServerName> out = new ArrayList<>();
    for (ServerName s : live.keySet()) {
      if (!decommissioned.contains(s) && znodeSeen.contains(s)) {
        out.add(s);
      }
    }
    out.sort(
        (a, b) -> {
          int c = a.host().compareTo(b.host());
          return c != 0 ? c : Integer.compare(a.port(), b.port());
        });
    return out;
  }

  synchronized List<ServerName> deadServers() {
    return new ArrayList<>(dead);
  }

  void decommission(ServerName server) {
    decommissioned.add(server);
  }

  void recommission(ServerName server) {
    decommissioned.remove(server);
  }

  List<ServerName> decommissioned() {
    return new ArrayList<>(decommissioned);
  }

  private static BasaltIOException youAreDead(ServerName server) {
    return new BasaltIOException(
        "Server " + server + " has been declared dead by the master", YOU_ARE_DEAD, true);
  }
}
