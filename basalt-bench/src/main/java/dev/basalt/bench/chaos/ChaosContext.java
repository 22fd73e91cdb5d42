package dev.basalt.bench.chaos;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/**
 * What the chaos actions share: the cluster, a client connection for admin work and checks, its
 * configuration (for connections of their own), a seeded random, a log line sink, and the waits
 * they all need (where meta says regions are, until a dead server's regions are open elsewhere).
 */
final class ChaosContext {
  private static final long POLL_MILLIS = 25;

  final LocalCluster cluster;
  final Connection connection;
  final Configuration conf;
  final Random random;
  final Consumer<String> log;

  ChaosContext(
      LocalCluster cluster,
      Connection connection,
      Configuration conf,
      Random random,
      Consumer<String> log) {
    this.cluster = cluster;
    this.connection = connection;
    this.conf = conf;
    this.random = random;
    this.log = log;
  }

  /** The enabled user tables. */
  List<TableName> userTables() throws IOException {
    List<TableName> out = new ArrayList<>();
    try (Admin admin = connection.getAdmin()) {
      for (TableName t : admin.listTableNames()) {
        if (admin.isTableEnabled(t)) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** Meta's regions of the enabled user tables by server ({@code host,port,startcode}). */
  Map<String, List<MetaRows.Row>> regionsByServer() throws IOException {
    Map<String, List<MetaRows.Row>> by = new HashMap<>();
    Map<TableName, List<MetaRows.Row>> meta = MetaRows.read(connection);
    for (TableName t : userTables()) {
      for (MetaRows.Row r : meta.getOrDefault(t, List.of())) {
        if (r.serverName() != null) {
          by.computeIfAbsent(r.serverName(), k -> new ArrayList<>()).add(r);
        }
      }
    }
    return by;
  }

  /** The running region server with the most regions in meta (ties: the first started). */
  LocalClusterNode busiestRegionServer() throws IOException {
    Map<String, List<MetaRows.Row>> by = regionsByServer();
    LocalClusterNode best = null;
    int most = -1;
    for (LocalClusterNode n : cluster.regionServers()) {
      int count = by.getOrDefault(n.serverName().toString(), List.of()).size();
      if (count > most) {
        most = count;
        best = n;
      }
    }
    if (best == null) {
      throw new IllegalStateException("no region server is running");
    }
    return best;
  }

  /** A running region server holding a region of {@code table}, at random. */
  LocalClusterNode holderOf(TableName table) throws IOException {
    List<LocalClusterNode> holders = new ArrayList<>();
    Map<TableName, List<MetaRows.Row>> meta = MetaRows.read(connection);
    for (LocalClusterNode n : cluster.regionServers()) {
      String name = n.serverName().toString();
      if (meta.getOrDefault(table, List.of()).stream().anyMatch(r -> name.equals(r.serverName()))) {
        holders.add(n);
      }
    }
    if (holders.isEmpty()) {
      throw new IllegalStateException("no running region server holds a region of " + table);
    }
    return holders.get(random.nextInt(holders.size()));
  }

  /** A running region server other than {@code except}, at random, or null. */
  LocalClusterNode otherRegionServer(Collection<LocalClusterNode> except) {
    List<LocalClusterNode> others = new ArrayList<>(cluster.regionServers());
    others.removeAll(except);
    return others.isEmpty() ? null : others.get(random.nextInt(others.size()));
  }

  /**
   * Waits until every region of the enabled user tables is OPEN in meta on a server not in {@code
   * gone}; returns the milliseconds since {@code t0} (a {@link System#nanoTime} value).
   *
   * @throws IOException with the last region not open when that takes longer than {@code timeout}
   */
  long awaitOpenElsewhere(Collection<String> gone, long t0, Duration timeout)
      throws IOException, InterruptedException {
    List<TableName> tables = userTables();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = null;
    while (System.nanoTime() - deadline < 0) {
      try {
        last = MetaRows.notOpenElsewhere(MetaRows.read(connection), tables, gone);
        if (last == null) {
          return (System.nanoTime() - t0) / 1_000_000;
        }
      } catch (IOException e) {
        last = "meta unreadable: " + e;
      }
      Thread.sleep(POLL_MILLIS);
    }
    throw new IOException(
        "regions not open elsewhere "
            + timeout.toSeconds()
            + " s after losing "
            + gone
            + ": "
            + last);
  }

  static long millisSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }
}
