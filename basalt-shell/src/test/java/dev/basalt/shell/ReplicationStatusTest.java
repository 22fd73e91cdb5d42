package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetricsBuilder;
import org.apache.hadoop.hbase.ClusterStatus;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerMetricsBuilder;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.replication.ReplicationLoadSink;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;
import org.junit.jupiter.api.Test;

/**
 * status 'replication' on load reports made here, so that every branch of admin.rb's wording is
 * covered whatever the servers report: a running source that has shipped, one that has not, a
 * recovered queue with no reader yet, a sink that has applied nothing (admin.rb takes equal start
 * and last-applied times for that) and one that has, and a server that reports no sink (skipped).
 */
@SuppressWarnings("deprecation") // ClusterStatus: what admin.rb reads
class ReplicationStatusTest {
  private static final long STARTED = 1_700_000_000_000L;

  private static ServerMetrics server(
      String host, ReplicationLoadSink sink, List<ReplicationLoadSource> sources) {
    ServerMetricsBuilder b = ServerMetricsBuilder.newBuilder(ServerName.valueOf(host, 16020, 1L));
    if (sink != null) {
      b.setReplicationLoadSink(sink);
    }
    return b.setReplicationLoadSources(sources).build();
  }

  private static ReplicationLoadSink sink(long lastApplied, long age) {
    return ReplicationLoadSink.newBuilder()
        .setTimestampStarted(STARTED)
        .setTimestampsOfLastAppliedOp(lastApplied)
        .setAgeOfLastAppliedOp(age)
        .setTotalOpsProcessed(3)
        .build();
  }

  private static String print(String type, ServerMetrics... servers) {
    Map<ServerName, ServerMetrics> live = new LinkedHashMap<>();
    for (ServerMetrics s : servers) {
      live.put(s.getServerName(), s);
    }
    ClusterStatus status =
        new ClusterStatus(
            ClusterMetricsBuilder.newBuilder()
                .setHBaseVersion("2.6.3")
                .setLiveServerMetrics(live)
                .build());
    StringWriter out = new StringWriter();
    ReplicationStatus.print(status, type, new PrintWriter(out, true));
    return out.toString();
  }

  @Test
  void sourcesAndSinksAreWordedAsAdminRbWordsThem() {
    long shipped = STARTED + 5_000;
    long next = STARTED + 6_000;
    ReplicationLoadSource running =
        ReplicationLoadSource.newBuilder()
            .setPeerID("1")
            .setQueueId("1")
            .setRunning(true)
            .setAgeOfLastShippedOp(12)
            .setTimestampOfLastShippedOp(shipped)
            .setSizeOfLogQueue(2)
            .setEditsRead(10)
            .setoPsShipped(9)
            .setEditsSinceRestart(true)
            .setTimeStampOfNextToReplicate(next)
            .setReplicationLag(7)
            .build();
    ReplicationLoadSource recovered =
        ReplicationLoadSource.newBuilder()
            .setPeerID("1")
            .setQueueId("1-host9,16020,1")
            .setRecovered(true)
            .setRunning(false)
            .build();
    ServerMetrics one = server("host1", sink(STARTED, 0), List.of(running, recovered));
    long applied = STARTED + 8_000;
    ServerMetrics two = server("host2", sink(applied, 3), List.of());
    ServerMetrics none = server("host3", null, List.of());
    String sourceOne =
        "       SOURCE: PeerID=1\n"
            + "         Normal Queue: 1\n"
            + "           AgeOfLastShippedOp=12, TimeStampOfLastShippedOp="
            + new Date(shipped)
            + ", SizeOfLogQueue=2, EditsReadFromLogQueue=10, OpsShippedToTarget=9,"
            + " TimeStampOfNextToReplicate="
            + new Date(next)
            + ", Replication Lag=7\n"
            + "         Recovered Queue: 1-host9,16020,1\n"
            + "           No Reader/Shipper threads runnning yet.\n";
    String sinkOne = "      SINK: TimeStampStarted=" + STARTED + ", Waiting for OPs... \n";
    String sinkTwo =
        "      SINK: TimeStampStarted="
            + STARTED
            + ", AgeOfLastAppliedOp=3, TimeStampsOfLastAppliedOp="
            + new Date(applied)
            + "\n";
    String header = "version 2.6.3\n3 live servers\n";
    assertThat(print("both", one, two, none))
        .isEqualTo(
            header
                + "    host1:\n"
                + sourceOne
                + sinkOne
                + "    host2:\n       SOURCE:\n"
                + sinkTwo);
    assertThat(print("source", one, two, none))
        .isEqualTo(header + "    host1:\n" + sourceOne + "    host2:\n       SOURCE:\n");
    assertThat(print("sink", one, two, none))
        .isEqualTo(header + "    host1:\n" + sinkOne + "    host2:\n" + sinkTwo);
  }

  @Test
  void aSourceThatHasShippedNothingSaysSo() {
    ReplicationLoadSource idle =
        ReplicationLoadSource.newBuilder()
            .setPeerID("p")
            .setQueueId("p")
            .setRunning(true)
            .setSizeOfLogQueue(1)
            .build();
    assertThat(print("source", server("h", sink(STARTED, 0), List.of(idle))))
        .isEqualTo(
            "version 2.6.3\n1 live servers\n    h:\n       SOURCE: PeerID=p\n"
                + "         Normal Queue: p\n"
                + "           No Ops shipped since last restart, SizeOfLogQueue=1,"
                + " EditsReadFromLogQueue=0, OpsShippedToTarget=0, No edits for this source"
                + " since it started, Replication Lag=0\n");
  }
}
