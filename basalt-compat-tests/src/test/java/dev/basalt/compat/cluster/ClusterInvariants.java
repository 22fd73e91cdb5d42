package dev.basalt.compat.cluster;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import java.io.IOException;
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
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What must hold in the cluster whenever nothing is moving, checked through the stock client only
 * (shared/docs/distributed-mode.md 8.6):
 *
 * <ul>
 *   <li>the master's live region servers are exactly the running region server processes;
 *   <li>each region server's online regions (AdminService GetOnlineRegion) are disjoint from every
 *       other's;
 *   <li>every region of every enabled table is OPEN in hbase:meta, on the server that has it online
 *       (same host, port and start code), and every online region is one of those: their union
 *       equals what meta says;
 *   <li>the regions of a disabled table are online nowhere;
 *   <li>the meta rows of each table tile its key space: sorted by start key, the first starts at
 *       the empty key, each ends where the next starts, the last ends at the empty key.
 * </ul>
 *
 * Regions may still be settling when a scenario ends, so the check is retried for a while before it
 * fails with the last problem found.
 */
final class ClusterInvariants {
  private static final long SETTLE_MILLIS = 20_000;
  private static final long RETRY_MILLIS = 250;

  private ClusterInvariants() {}

  /**
   * Also retries a failed read for as long: right after a restart on the same port the client
   * refuses that address for a while (its failed servers list, 2 s by default).
   */
  static void assertHold(Connection c, LocalCluster cluster)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + SETTLE_MILLIS * 1_000_000;
    String problem;
    while (true) {
      try {
        problem = firstProblem(c, cluster);
      } catch (IOException e) {
        if (System.nanoTime() - deadline >= 0) {
          throw e;
        }
        Thread.sleep(RETRY_MILLIS);
        continue;
      }
      if (problem == null) {
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new AssertionError(
            "cluster invariant broken (still after " + SETTLE_MILLIS + " ms): " + problem);
      }
      Thread.sleep(RETRY_MILLIS);
    }
  }

  /** A meta row of a user region. */
  record MetaRow(RegionInfo region, String server, long startCode, long openSeqNum, String state) {
    /** The server as {@code host,port,startcode}, or null without info:server. */
    String serverName() {
      if (server == null) {
        return null;
      }
      return ServerName.valueOf(server, startCode).getServerName();
    }
  }

  /** The first broken invariant, or null when all hold. */
  static String firstProblem(Connection c, LocalCluster cluster) throws IOException {
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

      Map<TableName, List<MetaRow>> meta = readMeta(c);
      Set<String> expectedOnline = new TreeSet<>();
      for (TableName t : admin.listTableNames(Pattern.compile(".*"), true)) {
        if (t.equals(TableName.META_TABLE_NAME)) {
          continue; // served by the master, not a region server
        }
        List<MetaRow> rows = meta.getOrDefault(t, List.of());
        String tiling = tilingProblem(t, rows);
        if (tiling != null) {
          return tiling;
        }
        boolean enabled = admin.isTableEnabled(t);
        for (MetaRow row : rows) {
          String encoded = row.region().getEncodedName();
          String at = onlineAt.get(encoded);
          if (!enabled) {
            if (at != null) {
              return "region "
                  + row.region().getRegionNameAsString()
                  + " of disabled "
                  + t
                  + " is online on "
                  + at;
            }
            continue;
          }
          expectedOnline.add(encoded);
          if (!"OPEN".equals(row.state())) {
            return "region "
                + row.region().getRegionNameAsString()
                + " is "
                + row.state()
                + " in meta (server "
                + row.serverName()
                + ")";
          }
          if (at == null) {
            return "region "
                + row.region().getRegionNameAsString()
                + " is OPEN on "
                + row.serverName()
                + " in meta but online on no region server";
          }
          if (!at.equals(row.serverName())) {
            return "region "
                + row.region().getRegionNameAsString()
                + " is online on "
                + at
                + " but meta says "
                + row.serverName();
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

  /** The user regions' rows of hbase:meta, by table. */
  static Map<TableName, List<MetaRow>> readMeta(Connection c) throws IOException {
    Map<TableName, List<MetaRow>> byTable = new HashMap<>();
    byte[] info = Bytes.toBytes("info");
    try (Table meta = c.getTable(TableName.META_TABLE_NAME);
        ResultScanner s = meta.getScanner(new Scan().addFamily(info))) {
      for (Result r : s) {
        byte[] ri = r.getValue(info, Bytes.toBytes("regioninfo"));
        if (ri == null) {
          continue;
        }
        RegionInfo region = RegionInfo.parseFromOrNull(ri);
        if (region == null) {
          throw new AssertionError(
              "unparseable info:regioninfo in meta row " + Bytes.toStringBinary(r.getRow()));
        }
        byte[] server = r.getValue(info, Bytes.toBytes("server"));
        byte[] startCode = r.getValue(info, Bytes.toBytes("serverstartcode"));
        byte[] seq = r.getValue(info, Bytes.toBytes("seqnumDuringOpen"));
        byte[] state = r.getValue(info, Bytes.toBytes("state"));
        byTable
            .computeIfAbsent(region.getTable(), k -> new ArrayList<>())
            .add(
                new MetaRow(
                    region,
                    server == null ? null : Bytes.toString(server),
                    startCode == null ? -1 : Bytes.toLong(startCode),
                    seq == null ? -1 : Bytes.toLong(seq),
                    state == null ? null : Bytes.toString(state)));
      }
    }
    return byTable;
  }

  /** Null when the rows tile the key space of the table. */
  static String tilingProblem(TableName t, List<MetaRow> rows) {
    if (rows.isEmpty()) {
      return "table " + t + " has no region in meta";
    }
    List<RegionInfo> sorted = new ArrayList<>();
    for (MetaRow r : rows) {
      sorted.add(r.region());
    }
    sorted.sort(Comparator.comparing(RegionInfo::getStartKey, Bytes.BYTES_COMPARATOR));
    byte[] expectedStart = new byte[0];
    for (RegionInfo r : sorted) {
      if (!Arrays.equals(r.getStartKey(), expectedStart)) {
        return "meta of "
            + t
            + " has a "
            + (Bytes.compareTo(r.getStartKey(), expectedStart) > 0 ? "hole" : "overlap")
            + " before "
            + r.getRegionNameAsString()
            + " (expected start '"
            + Bytes.toStringBinary(expectedStart)
            + "')";
      }
      if (r.getEndKey().length == 0 && r != sorted.get(sorted.size() - 1)) {
        return "meta of "
            + t
            + ": "
            + r.getRegionNameAsString()
            + " ends at the end of the table"
            + " but is not the last region";
      }
      expectedStart = r.getEndKey();
    }
    if (expectedStart.length != 0) {
      return "meta of " + t + " has a hole after '" + Bytes.toStringBinary(expectedStart) + "'";
    }
    return null;
  }
}
