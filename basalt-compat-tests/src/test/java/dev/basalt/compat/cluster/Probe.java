package dev.basalt.compat.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.ConnectionImplementation;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.MetricsConnection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A client probe in the manner of HBase's IntegrationTestMTTR: on a connection of its own, every
 * {@link #PERIOD_MILLIS} ms it puts a new value into the next of its rows (one per region, in turn)
 * and reads it back. It records every failed operation (an exception, or a read that does not see
 * the write), the longest gap between two completed operations, and what the client's own metrics
 * say about hbase:meta: cache misses, and meta scans (the probe itself never scans, so every Scan
 * RPC of its connection is a region lookup in meta).
 */
final class Probe implements AutoCloseable {
  static final long PERIOD_MILLIS = 50;
  private static final long JOIN_MILLIS = 120_000;

  /** What the probe saw. */
  record Stats(
      long operations,
      long failures,
      List<String> failureMessages,
      long maxGapMillis,
      long maxOperationMillis,
      long metaCacheMisses,
      long metaScans,
      long warmUpMetaScans) {
    @Override
    public String toString() {
      return String.format(
          "%d ops, %d failed, longest gap %d ms, slowest op %d ms, meta cache misses %d, meta"
              + " scans %d (%d while warming up)%s",
          operations,
          failures,
          maxGapMillis,
          maxOperationMillis,
          metaCacheMisses,
          metaScans,
          warmUpMetaScans,
          failureMessages.isEmpty() ? "" : ", failures: " + failureMessages);
    }
  }

  private final Connection connection;
  private final Table table;
  private final List<byte[]> rows;
  private final Thread thread;
  private final AtomicLong operations = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final List<String> failureMessages = new ArrayList<>();
  private final AtomicLong maxGap = new AtomicLong();
  private final AtomicLong maxOperation = new AtomicLong();
  private volatile boolean stop;
  private long baseMisses;
  private long baseScans;

  private Probe(Configuration conf, TableName name, List<byte[]> rows) throws IOException {
    Configuration c = new Configuration(conf);
    c.setBoolean(MetricsConnection.CLIENT_SIDE_METRICS_ENABLED_KEY, true);
    this.connection = ConnectionFactory.createConnection(c);
    this.table = connection.getTable(name);
    this.rows = List.copyOf(rows);
    this.thread = new Thread(this::run, "probe-" + name.getNameAsString());
    this.thread.setDaemon(true);
  }

  /**
   * Starts probing after one warm-up round over every row (the region locations are then cached,
   * and the meta counters start from there).
   */
  static Probe start(Configuration conf, TableName name, List<byte[]> rows) throws IOException {
    Probe p = new Probe(conf, name, rows);
    try {
      for (byte[] row : p.rows) {
        p.table.put(new Put(row).addColumn(ClusterTables.CF, ClusterTables.Q, Bytes.toBytes(-1L)));
      }
      p.baseMisses = p.metrics().getMetaCacheMisses();
      p.baseScans = p.metaScanCount();
    } catch (IOException | RuntimeException e) {
      p.closeConnection();
      throw e;
    }
    p.thread.start();
    return p;
  }

  private MetricsConnection metrics() {
    return ((ConnectionImplementation) connection).getConnectionMetrics();
  }

  /** Scan RPCs made by this connection (every one a meta lookup: the probe does not scan). */
  private long metaScanCount() {
    long n = 0;
    for (var e : metrics().getRpcCounters().entrySet()) {
      if (e.getKey().contains("_Scan")) {
        n += e.getValue().getCount();
      }
    }
    return n;
  }

  private void run() {
    long next = System.nanoTime();
    long lastDone = System.nanoTime();
    long i = 0;
    while (!stop) {
      byte[] row = rows.get((int) (i % rows.size()));
      byte[] value = Bytes.toBytes(i);
      long t0 = System.nanoTime();
      try {
        table.put(new Put(row).addColumn(ClusterTables.CF, ClusterTables.Q, value));
        Result r = table.get(new Get(row));
        if (!Arrays.equals(r.getValue(ClusterTables.CF, ClusterTables.Q), value)) {
          fail("read of " + Bytes.toString(row) + " did not see write " + i + ": " + r);
        }
      } catch (IOException | RuntimeException e) {
        fail(Bytes.toString(row) + ": " + e);
      }
      long done = System.nanoTime();
      operations.incrementAndGet();
      maxOperation.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(done - t0), Math::max);
      maxGap.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(done - lastDone), Math::max);
      lastDone = done;
      i++;
      next += TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS);
      long sleep = next - System.nanoTime();
      if (sleep > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(sleep);
        } catch (InterruptedException e) {
          return;
        }
      } else {
        next = System.nanoTime(); // behind after a slow operation: no burst to catch up
      }
    }
  }

  private void fail(String message) {
    failures.incrementAndGet();
    synchronized (failureMessages) {
      if (failureMessages.size() < 5) {
        failureMessages.add(message);
      }
    }
  }

  long operations() {
    return operations.get();
  }

  /**
   * Waits until the probe completed {@code more} operations beyond the count now (at most 60 s).
   */
  void awaitOperations(long more) throws InterruptedException {
    long target = operations.get() + more;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (operations.get() < target) {
      if (System.nanoTime() - deadline >= 0) {
        throw new AssertionError("the probe did not complete " + more + " operations in 60 s");
      }
      Thread.sleep(10);
    }
  }

  /** A full round: every row written and read once more. */
  void awaitRound() throws InterruptedException {
    awaitOperations(rows.size());
  }

  /** What the probe saw so far. */
  Stats stats() {
    List<String> messages;
    synchronized (failureMessages) {
      messages = List.copyOf(failureMessages);
    }
    return new Stats(
        operations.get(),
        failures.get(),
        messages,
        maxGap.get(),
        maxOperation.get(),
        metrics().getMetaCacheMisses() - baseMisses,
        metaScanCount() - baseScans,
        baseScans);
  }

  /** Stops probing and returns what it saw. */
  Stats finish() throws InterruptedException {
    stop = true;
    thread.join(JOIN_MILLIS);
    if (thread.isAlive()) {
      thread.interrupt();
      throw new AssertionError("the probe did not stop within " + JOIN_MILLIS + " ms");
    }
    return stats();
  }

  private void closeConnection() {
    try {
      table.close();
      connection.close();
    } catch (IOException e) {
      // closing a test client: nothing to do about it
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (thread.isAlive()) {
      stop = true;
      thread.join(JOIN_MILLIS);
    }
    closeConnection();
  }
}
