package dev.basalt.bench.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

/**
 * Replication lag as a user sees it: a writer puts a marker row into the source every period (its
 * own row key, the send time as value), and a poller asks the peer for every marker not seen yet
 * every {@link #POLL_MILLIS} ms; the lag of a marker is the time from its put's acknowledgement on
 * the source to the first poll that finds it on the peer, so it is measured to within a poll period
 * plus one round trip. Each marker counts in the stage that was current when it was written ({@link
 * #stage}).
 *
 * <p>Both threads can be paused (while the peer is down, or while the peer's connection is
 * replaced); markers written before a pause are still looked for after it.
 */
final class LagProbe implements AutoCloseable {
  static final long POLL_MILLIS = 10;
  private static final byte[] QUALIFIER = "sent".getBytes(StandardCharsets.UTF_8);

  private final Connection source;
  private final TableName table;
  private final byte[] family;
  private final long periodMillis;
  private final ConcurrentLinkedQueue<Marker> pending = new ConcurrentLinkedQueue<>();
  private final Map<String, Histogram> lagByStage = new LinkedHashMap<>();
  private final Map<String, Histogram> putByStage = new LinkedHashMap<>();
  private final Map<String, Histogram> pollByStage = new LinkedHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private volatile Connection peer;
  private volatile String stage = "idle";
  private volatile boolean writing;
  private volatile boolean polling;
  private volatile boolean closed;
  private Thread writer;
  private Thread poller;

  private record Marker(byte[] row, long ackNanos, String stage) {}

  LagProbe(Connection source, Connection peer, TableName table, byte[] family, long periodMillis) {
    this.source = source;
    this.peer = peer;
    this.table = table;
    this.family = family;
    this.periodMillis = periodMillis;
  }

  void start() {
    writing = true;
    polling = true;
    writer = new Thread(this::writeLoop, "lag-probe-writer");
    poller = new Thread(this::pollLoop, "lag-probe-poller");
    writer.setDaemon(true);
    poller.setDaemon(true);
    writer.start();
    poller.start();
  }

  void stage(String name) {
    stage = name;
  }

  /** Stops writing markers and looking for them. */
  void pause() {
    writing = false;
    polling = false;
  }

  /** Looks for markers on {@code newPeer} from now on, and writes markers again. */
  void resume(Connection newPeer) {
    peer = newPeer;
    polling = true;
    writing = true;
  }

  /** Markers written and not seen on the peer yet. */
  int pendingCount() {
    return pending.size();
  }

  long errors() {
    return errors.get();
  }

  /**
   * Writes one marker outside the regular ones and waits until the peer has it: everything the
   * source wrote before it has then been shipped (one log, shipped in order). Returns the
   * milliseconds that took, or -1 after {@code timeoutMillis}.
   */
  long awaitCaughtUp(long timeoutMillis) throws IOException, InterruptedException {
    byte[] row = ("probe-sync-" + System.nanoTime()).getBytes(StandardCharsets.UTF_8);
    try (Table t = source.getTable(table)) {
      t.put(new Put(row).addColumn(family, QUALIFIER, now()));
    }
    long start = System.nanoTime();
    long deadline = start + timeoutMillis * 1_000_000;
    while (System.nanoTime() < deadline) {
      try (Table t = peer.getTable(table)) {
        if (t.exists(new Get(row))) {
          return (System.nanoTime() - start) / 1_000_000;
        }
      } catch (IOException e) {
        // the peer may be starting; keep asking until the deadline
      }
      Thread.sleep(POLL_MILLIS);
    }
    return -1;
  }

  /** Lag per stage, in ms, in the order the stages were first met. */
  synchronized Map<String, Histogram> lags() {
    Map<String, Histogram> copy = new LinkedHashMap<>();
    lagByStage.forEach((k, v) -> copy.put(k, v.copy()));
    return copy;
  }

  /** The markers' put latency per stage, in µs. */
  synchronized Map<String, Histogram> putLatencies() {
    Map<String, Histogram> copy = new LinkedHashMap<>();
    putByStage.forEach((k, v) -> copy.put(k, v.copy()));
    return copy;
  }

  /** How long the peer took to answer the poller's lookups, per stage, in µs. */
  synchronized Map<String, Histogram> pollLatencies() {
    Map<String, Histogram> copy = new LinkedHashMap<>();
    pollByStage.forEach((k, v) -> copy.put(k, v.copy()));
    return copy;
  }

  private void writeLoop() {
    long next = System.nanoTime();
    try (Table t = source.getTable(table)) {
      while (!closed) {
        next += periodMillis * 1_000_000;
        long sleep = next - System.nanoTime();
        if (sleep > 0) {
          Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
        } else {
          next = System.nanoTime(); // behind (a slow put): no burst to catch up
        }
        if (!writing) {
          continue;
        }
        String at = stage;
        byte[] row =
            String.format("probe-%09d", sequence.incrementAndGet())
                .getBytes(StandardCharsets.UTF_8);
        long sent = System.nanoTime();
        try {
          t.put(new Put(row).addColumn(family, QUALIFIER, now()));
        } catch (IOException e) {
          errors.incrementAndGet();
          continue;
        }
        long ack = System.nanoTime();
        pending.add(new Marker(row, ack, at));
        record(putByStage, at, (ack - sent) / 1_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      errors.incrementAndGet();
    }
  }

  private void pollLoop() {
    try {
      while (!closed) {
        Thread.sleep(POLL_MILLIS);
        if (!polling || pending.isEmpty()) {
          continue;
        }
        List<Marker> batch = new ArrayList<>(pending);
        List<Get> gets = new ArrayList<>(batch.size());
        for (Marker m : batch) {
          gets.add(new Get(m.row));
        }
        boolean[] found;
        long asked = System.nanoTime();
        try (Table t = peer.getTable(table)) {
          found = t.exists(gets);
        } catch (IOException e) {
          errors.incrementAndGet();
          continue;
        }
        long seen = System.nanoTime();
        // a marker found was there at some moment of this call: a slow call (the peer busy, or
        // this machine's CPUs) counts in the lag, and its length says how much it can be
        record(pollByStage, stage, (seen - asked) / 1_000);
        Iterator<Marker> it = batch.iterator();
        for (int i = 0; it.hasNext(); i++) {
          Marker m = it.next();
          if (found[i]) {
            pending.remove(m);
            record(lagByStage, m.stage, (seen - m.ackNanos) / 1_000_000);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void record(Map<String, Histogram> into, String at, long value) {
    into.computeIfAbsent(at, k -> new Histogram(3_600_000_000L, 3)).recordValue(Math.max(0, value));
  }

  private static byte[] now() {
    return Long.toString(System.currentTimeMillis()).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    if (writer != null) {
      writer.join(5_000);
      poller.join(5_000);
    }
  }
}
