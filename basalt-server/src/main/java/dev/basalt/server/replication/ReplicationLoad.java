package dev.basalt.server.replication;

import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ReplicationLoadSink;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ReplicationLoadSource;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;

/**
 * A server's replication figures in its load report, as HBase's region servers put them there
 * (ReplicationLoad): one {@code ReplicationLoadSource} per queue and one {@code
 * ReplicationLoadSink}, which the shell's {@code status 'replication'} prints and {@code
 * Admin.getClusterMetrics} returns. Thread-safe.
 */
public final class ReplicationLoad {
  /** A server without replication figures. */
  public static final ReplicationLoad NONE = new ReplicationLoad(() -> null, null);

  private final Supplier<ReplicationSources> sources;
  private final ReplicationSink sink;

  /**
   * @param sources the server's sources (null until they start)
   * @param sink the server's sink, or null
   */
  public ReplicationLoad(Supplier<ReplicationSources> sources, ReplicationSink sink) {
    this.sources = sources;
    this.sink = sink;
  }

  /**
   * HBase's queue id: the peer's id for a server's own queue, {@code peer-<dead server>...} for one
   * taken over (Basalt's queue files name the servers with {@code @}).
   */
  static String hbaseQueueId(SourceStats st) {
    return st.recovered()
        ? st.peerId() + "-" + st.queue().substring(0, st.queue().lastIndexOf('@')).replace('@', '-')
        : st.peerId();
  }

  public void addTo(ServerLoad.Builder load) {
    long now = System.currentTimeMillis();
    ReplicationSources s = sources.get();
    if (s != null) {
      for (SourceStats st : s.stats()) {
        long last = st.lastShippedWriteTime();
        load.addReplLoadSource(
            ReplicationLoadSource.newBuilder()
                .setPeerID(st.peerId())
                .setQueueId(hbaseQueueId(st))
                .setAgeOfLastShippedOp(st.ageOfLastShippedOp(now))
                .setSizeOfLogQueue(st.sizeOfLogQueue())
                .setTimeStampOfLastShippedOp(last)
                .setReplicationLag(st.replicationLag(now))
                .setTimeStampOfNextToReplicate(
                    st.nextToReplicate() > 0 ? st.nextToReplicate() : st.startedAt)
                .setRecovered(st.recovered())
                .setRunning(st.running())
                .setEditsSinceRestart(st.shippedOps() > 0)
                .setEditsRead(st.editsRead())
                .setOPsShipped(st.shippedOps()));
      }
    }
    if (sink != null) {
      ReplicationSink.SinkStats k = sink.stats();
      load.setReplLoadSink(
          ReplicationLoadSink.newBuilder()
              .setAgeOfLastAppliedOp(k.ageOfLastAppliedOp())
              // HBase reports its start until something is applied (the shell then prints
              // "Waiting for OPs...")
              .setTimeStampsOfLastAppliedOp(
                  k.lastAppliedAt() > 0 ? k.lastAppliedAt() : k.startedAt())
              .setTimestampStarted(k.startedAt())
              .setTotalOpsProcessed(k.appliedOps()));
    }
  }
}
