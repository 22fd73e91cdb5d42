package dev.basalt.shell;

import java.io.PrintWriter;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterStatus;
import org.apache.hadoop.hbase.ServerLoad;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.replication.ReplicationLoadSink;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;

/**
 * {@code status 'replication'[, 'source' | 'sink']}: each region server's replication sources (per
 * peer and queue) and sink, worded as hbase-shell's admin.rb words them. A server that reports no
 * replication sink is skipped, as there.
 */
@SuppressWarnings("deprecation") // ClusterStatus and ServerLoad: what admin.rb reads
final class ReplicationStatus {
  private ReplicationStatus() {}

  /**
   * @param type "source", "sink" or "both"
   */
  static void print(ClusterStatus status, String type, PrintWriter out) {
    out.println("version " + status.getHBaseVersion());
    out.println(status.getServersSize() + " live servers");
    for (ServerName server : status.getServers()) {
      ServerLoad sl = status.getLoad(server);
      ReplicationLoadSink sink = sl.getReplicationLoadSink();
      if (sink == null) {
        continue;
      }
      out.println("    " + server.getHostname() + ":");
      if (!type.equals("sink")) {
        out.println(source(sl.getReplicationLoadSourceMap()));
      }
      if (!type.equals("source")) {
        out.println(sink(sink));
      }
    }
  }

  private static String sink(ReplicationLoadSink sink) {
    StringBuilder b = new StringBuilder("      SINK:");
    b.append(" TimeStampStarted=").append(sink.getTimestampStarted());
    if (sink.getTimestampsOfLastAppliedOp() == sink.getTimestampStarted()) {
      // nothing applied since it started: assume it is not acting as a sink
      b.append(", Waiting for OPs... ");
    } else {
      b.append(", AgeOfLastAppliedOp=").append(sink.getAgeOfLastAppliedOp());
      b.append(", TimeStampsOfLastAppliedOp=")
          .append(new Date(sink.getTimestampsOfLastAppliedOp()));
    }
    return b.toString();
  }

  private static String source(Map<String, List<ReplicationLoadSource>> byPeer) {
    StringBuilder b = new StringBuilder("       SOURCE:");
    for (Map.Entry<String, List<ReplicationLoadSource>> peer : byPeer.entrySet()) {
      b.append(" PeerID=").append(peer.getKey());
      for (ReplicationLoadSource src : peer.getValue()) {
        b.append(src.isRecovered() ? "\n         Recovered Queue: " : "\n         Normal Queue: ")
            .append(src.getQueueId());
        if (!src.isRunning()) {
          b.append("\n           No Reader/Shipper threads runnning yet.");
          continue;
        }
        if (src.getTimestampOfLastShippedOp() == 0) {
          b.append("\n           No Ops shipped since last restart");
        } else {
          b.append("\n           AgeOfLastShippedOp=")
              .append(src.getAgeOfLastShippedOp())
              .append(", TimeStampOfLastShippedOp=")
              .append(new Date(src.getTimestampOfLastShippedOp()));
        }
        b.append(", SizeOfLogQueue=").append(src.getSizeOfLogQueue());
        b.append(", EditsReadFromLogQueue=").append(src.getEditsRead());
        b.append(", OpsShippedToTarget=").append(src.getOPsShipped());
        if (src.hasEditsSinceRestart()) {
          b.append(", TimeStampOfNextToReplicate=")
              .append(new Date(src.getTimeStampOfNextToReplicate()));
        } else {
          b.append(", No edits for this source since it started");
        }
        b.append(", Replication Lag=").append(src.getReplicationLag());
      }
    }
    return b.toString();
  }
}
