package dev.basalt.bench.interop;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.replication.ReplicationLoadSink;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;

/**
 * A cluster's replication figures as its region servers report them to the master, read through the
 * stock client ({@code Admin.getClusterMetrics}, what the shell's {@code status 'replication'}
 * prints): operations its sources shipped to one peer, and operations its sinks applied from any
 * peer. An HBase region server reports every 3 s ({@code hbase.regionserver.msginterval}), so the
 * figures trail the traffic by that much.
 *
 * <p>The region servers of an HBase mini cluster share one JVM, and so one metrics registry: each
 * reports the figures of all (two region servers report twice what was shipped). For such a cluster
 * ({@code oneRegistry}) the figures are the largest any server reports, not their sum.
 *
 * @param shippedOps operations shipped to the peer, summed over region servers and queues; -1 when
 *     no server reports a source for the peer
 * @param appliedOps operations the sinks applied, summed over region servers; -1 when none reports
 *     a sink
 */
record ReplicationCounters(long shippedOps, long appliedOps) {

  static ReplicationCounters read(Admin admin, String peerId, boolean oneRegistry)
      throws IOException {
    ClusterMetrics metrics =
        admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
    long shipped = -1;
    long applied = -1;
    for (ServerMetrics server : metrics.getLiveServerMetrics().values()) {
      long serverShipped = -1;
      Map<String, List<ReplicationLoadSource>> sources = server.getReplicationLoadSourceMap();
      List<ReplicationLoadSource> ofPeer = sources == null ? null : sources.get(peerId);
      if (ofPeer != null) {
        for (ReplicationLoadSource s : ofPeer) {
          serverShipped = Math.max(serverShipped, 0) + s.getOPsShipped();
        }
      }
      ReplicationLoadSink sink = server.getReplicationLoadSink();
      long serverApplied = sink == null ? -1 : sink.getTotalOpsProcessed();
      shipped = combine(shipped, serverShipped, oneRegistry);
      applied = combine(applied, serverApplied, oneRegistry);
    }
    return new ReplicationCounters(shipped, applied);
  }

  private static long combine(long total, long server, boolean oneRegistry) {
    if (server < 0) {
      return total;
    }
    return oneRegistry ? Math.max(total, server) : Math.max(total, 0) + server;
  }

  @Override
  public String toString() {
    return "shipped "
        + (shippedOps < 0 ? "n/a" : shippedOps)
        + ", applied "
        + (appliedOps < 0 ? "n/a" : appliedOps);
  }
}
