package dev.basalt.bench.chaos;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The invariants of a quiet cluster (shared/docs/distributed-mode.md 8.6), checked through the
 * stock client after every chaos action:
 *
 * <ul>
 *   <li>exactly one running master is active;
 *   <li>the master's live region servers are exactly the running region server processes;
 *   <li>no region is online on two servers (AdminService GetOnlineRegion of each);
 *   <li>every region of every enabled table is OPEN in hbase:meta on the server that has it online,
 *       and every online region is one of those; no region of a disabled table is online;
 *   <li>each table's meta rows tile its key space (no hole, no overlap).
 * </ul>
 *
 * Regions may still be moving when an action ends, so {@link #await} retries for a while and fails
 * with the last problem found: a region stuck in transition shows up as a region not OPEN. (The
 * same rules as basalt-compat-tests' ClusterInvariants, which the shared test cluster checks after
 * each test; this one is usable by the soak too.)
 */
public final class ClusterCheck {
  private static final long RETRY_MILLIS = 200;

  private ClusterCheck() {}

  /**
   * Waits until the invariants hold and returns how long that took.
   *
   * @throws IllegalStateException with the last problem when they do not within {@code settle}
   */
  public static long await(Connection c, LocalCluster cluster, Duration settle)
      throws InterruptedException {
    long t0 = System.nanoTime();
    long deadline = t0 + settle.toNanos();
    String problem;
    while ((problem = firstProblem(c, cluster)) != null) {
      if (System.nanoTime() - deadline >= 0) {
        throw new IllegalStateException(
            "cluster invariant broken (still after " + settle.toMillis() + " ms): " + problem);
      }
      Thread.sleep(RETRY_MILLIS);
    }
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /** The first broken invariant, or null when all hold (an error reading counts as a problem). */
  public static String firstProblem(Connection c, LocalCluster cluster) {
    try {
      return check(c, cluster);
    } catch (IOException | RuntimeException e) {
      return "cannot read the cluster's state: " + e;
    }
  }

  private static String check(Connection c, LocalCluster cluster) throws IOException {
    List<LocalClusterNode> active =
        cluster.masters().stream().filter(LocalClusterNode::isActiveMaster).toList();
    if (active.size() != 1) {
      return active.size() + " running masters are active: " + active;
    }
    try (Admin admin = c.getAdmin()) {
      Set<String> running = new TreeSet<>();
      for (LocalClusterNode rs : cluster.regionServers()) {
        running.add(rs.serverName().toString());
      }
      ClusterMetrics metrics =
          admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
      Set<String> live = new TreeSet<>();
      for (ServerName sn : metrics.getLiveServerMetrics().keySet()) {
        live.add(sn.getServerName());
      }
      if (!live.equals(running)) {
        return "the master's live servers " + live + " are not the running ones " + running;
      }
      Map<String, String> onlineAt = new HashMap<>(); // encoded region name -> server
      for (ServerName sn : metrics.getLiveServerMetrics().keySet()) {
        for (RegionInfo r : admin.getRegions(sn)) {
          String before = onlineAt.put(r.getEncodedName(), sn.getServerName());
          if (before != null) {
            return "region " + r.getRegionNameAsString() + " is online on " + before + " and " + sn;
          }
        }
      }
      Map<TableName, List<MetaRows.Row>> meta = MetaRows.read(c);
      Set<String> expectedOnline = new TreeSet<>();
      for (TableName t : admin.listTableNames(Pattern.compile(".*"), true)) {
        if (t.equals(TableName.META_TABLE_NAME)) {
          continue; // served by the master
        }
        List<MetaRows.Row> rows = meta.getOrDefault(t, List.of());
        String tiling = tilingProblem(t, rows);
        if (tiling != null) {
          return tiling;
        }
        boolean enabled = admin.isTableEnabled(t);
        for (MetaRows.Row row : rows) {
          String problem = regionProblem(row, enabled, onlineAt, expectedOnline);
          if (problem != null) {
            return problem;
          }
        }
      }
      Set<String> stray = new TreeSet<>(onlineAt.keySet());
      stray.removeAll(expectedOnline);
      if (!stray.isEmpty()) {
        return "regions online but not regions of an enabled table in meta: " + stray;
      }
      return null;
    }
  }

  private static String regionProblem(
      MetaRows.Row row, boolean enabled, Map<String, String> onlineAt, Set<String> expected) {
    String encoded = row.region().getEncodedName();
    String name = row.region().getRegionNameAsString();
    String at = onlineAt.get(encoded);
    if (!enabled) {
      return at == null ? null : "region " + name + " of a disabled table is online on " + at;
    }
    expected.add(encoded);
    if (!row.isOpen()) {
      return "region " + name + " is " + row.state() + " in meta (server " + row.serverName() + ")";
    }
    if (at == null) {
      return "region " + name + " is OPEN on " + row.serverName() + " in meta but online nowhere";
    }
    if (!at.equals(row.serverName())) {
      return "region " + name + " is online on " + at + " but meta says " + row.serverName();
    }
    return null;
  }

  /** Null when the rows tile the table's key space. */
  static String tilingProblem(TableName t, List<MetaRows.Row> rows) {
    if (rows.isEmpty()) {
      return "table " + t + " has no region in meta";
    }
    List<RegionInfo> sorted = new ArrayList<>();
    for (MetaRows.Row r : rows) {
      sorted.add(r.region());
    }
    sorted.sort(Comparator.comparing(RegionInfo::getStartKey, Bytes.BYTES_COMPARATOR));
    byte[] expectedStart = new byte[0];
    for (int i = 0; i < sorted.size(); i++) {
      RegionInfo r = sorted.get(i);
      if (!Arrays.equals(r.getStartKey(), expectedStart)) {
        return "meta of "
            + t
            + " has a "
            + (Bytes.compareTo(r.getStartKey(), expectedStart) > 0 ? "hole" : "overlap")
            + " before "
            + r.getRegionNameAsString();
      }
      if (r.getEndKey().length == 0 && i != sorted.size() - 1) {
        return "meta of "
            + t
            + ": "
            + r.getRegionNameAsString()
            + " ends the table but is not last";
      }
      expectedStart = r.getEndKey();
    }
    if (expectedStart.length != 0) {
      return "meta of " + t + " has a hole after '" + Bytes.toStringBinary(expectedStart) + "'";
    }
    return null;
  }
}
