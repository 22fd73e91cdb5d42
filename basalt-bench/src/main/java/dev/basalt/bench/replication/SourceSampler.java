package dev.basalt.bench.replication;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;

/**
 * Samples the source's own figures once a second, as an operator reads them ({@code status
 * 'replication'}: {@code Admin.getClusterMetrics}, each live server's {@code ReplicationLoadSource}
 * list), and keeps per stage the largest {@code ageOfLastShippedOp}, {@code replicationLag} and
 * {@code sizeOfLogQueue} seen. A server that reports no sources leaves its samples empty ({@link
 * Figures#samplesWithSources} 0: not exposed).
 */
final class SourceSampler implements AutoCloseable {
  private static final long PERIOD_MILLIS = 1_000;

  private final Connection source;
  private final Map<String, Figures> byStage = new LinkedHashMap<>();
  private final AtomicLong errors = new AtomicLong();
  private volatile String stage = "idle";
  private volatile boolean closed;
  private Thread thread;

  /** The largest figures of one stage, and how many samples it had. */
  static final class Figures {
    long samples;
    long samplesWithSources;
    long maxAgeOfLastShippedOp;
    long maxReplicationLag;
    long maxSizeOfLogQueue;
    long lastOpsShipped;

    @Override
    public String toString() {
      return samplesWithSources == 0
          ? samples + " samples, no replication sources reported"
          : String.format(
              "max ageOfLastShippedOp %,d ms, max replicationLag %,d ms, max sizeOfLogQueue %d"
                  + " (%d samples)",
              maxAgeOfLastShippedOp, maxReplicationLag, maxSizeOfLogQueue, samplesWithSources);
    }
  }

  SourceSampler(Connection source) {
    this.source = source;
  }

  void start() {
    thread = new Thread(this::loop, "source-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  void stage(String name) {
    stage = name;
  }

  long errors() {
    return errors.get();
  }

  synchronized Map<String, Figures> figures() {
    return new LinkedHashMap<>(byStage);
  }

  private void loop() {
    try (Admin admin = source.getAdmin()) {
      while (!closed) {
        Thread.sleep(PERIOD_MILLIS);
        try {
          sample(admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS)));
        } catch (Exception e) {
          errors.incrementAndGet();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      errors.incrementAndGet();
    }
  }

  private synchronized void sample(ClusterMetrics metrics) {
    Figures f = byStage.computeIfAbsent(stage, k -> new Figures());
    f.samples++;
    boolean any = false;
    long shipped = 0;
    for (ServerMetrics server : metrics.getLiveServerMetrics().values()) {
      for (ReplicationLoadSource s : server.getReplicationLoadSourceList()) {
        any = true;
        f.maxAgeOfLastShippedOp = Math.max(f.maxAgeOfLastShippedOp, s.getAgeOfLastShippedOp());
        f.maxReplicationLag = Math.max(f.maxReplicationLag, s.getReplicationLag());
        f.maxSizeOfLogQueue = Math.max(f.maxSizeOfLogQueue, s.getSizeOfLogQueue());
        shipped += s.getOPsShipped();
      }
    }
    if (any) {
      f.samplesWithSources++;
      f.lastOpsShipped = shipped;
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    if (thread != null) {
      thread.join(5_000);
    }
  }
}
