package dev.basalt.bench.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
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
 * Client traffic on a connection of its own (stock client, metrics on), with what it saw since the
 * last {@link #reset}: operations, failures, the longest gap between two completed operations, and
 * the meta scans of the connection (the traffic never scans, so each Scan RPC is a region lookup in
 * hbase:meta).
 *
 * <p>Two shapes: a probe (one thread, put then get of the next row every {@code periodMillis}, as
 * IntegrationTestMTTR's probes) and a load ({@code threads} threads, put then get of a random row,
 * back to back).
 */
final class ClientTraffic implements AutoCloseable {
  static final byte[] CF = Bytes.toBytes("cf");
  static final byte[] Q = Bytes.toBytes("q");

  private final Connection connection;
  private final TableName table;
  private final List<byte[]> rows;
  private final long periodMillis;
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong operations = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong maxGapNanos = new AtomicLong();
  private final AtomicLong lastDone = new AtomicLong(System.nanoTime());
  private volatile String firstFailure;
  private volatile boolean stop;
  private long baseScans;
  private long baseOperations;
  private long baseFailures;

  /** What the traffic saw since the last reset. */
  record Seen(long operations, long failures, long maxGapMillis, long metaScans, String failure) {
    double metaScansPer1000() {
      return operations == 0 ? 0 : metaScans * 1000.0 / operations;
    }
  }

  private ClientTraffic(
      Configuration conf, TableName table, List<byte[]> rows, long periodMillis, int nThreads)
      throws IOException {
    Configuration c = new Configuration(conf);
    c.setBoolean(MetricsConnection.CLIENT_SIDE_METRICS_ENABLED_KEY, true);
    this.connection = ConnectionFactory.createConnection(c);
    this.table = table;
    this.rows = List.copyOf(rows);
    this.periodMillis = periodMillis;
    for (int i = 0; i < nThreads; i++) {
      Thread t = new Thread(this::run, "traffic-" + table.getNameAsString() + "-" + i);
      t.setDaemon(true);
      threads.add(t);
    }
  }

  /** A probe: one operation pair every {@code periodMillis}, over the rows in turn. */
  static ClientTraffic probe(Configuration conf, TableName table, List<byte[]> rows, long period)
      throws IOException {
    return new ClientTraffic(conf, table, rows, period, 1).start();
  }

  /** A load: {@code threads} threads, operation pairs on random rows, back to back. */
  static ClientTraffic load(Configuration conf, TableName table, List<byte[]> rows, int threads)
      throws IOException {
    return new ClientTraffic(conf, table, rows, 0, threads).start();
  }

  /** Warms the location cache (one write per row), then starts the threads and resets. */
  private ClientTraffic start() throws IOException {
    try (Table t = connection.getTable(table)) {
      for (byte[] row : rows) {
        t.put(new Put(row).addColumn(CF, Q, Bytes.toBytes(-1L)));
      }
    }
    reset();
    threads.forEach(Thread::start);
    return this;
  }

  private void run() {
    long i = 0;
    long next = System.nanoTime();
    try (Table t = connection.getTable(table)) {
      while (!stop) {
        byte[] row =
            periodMillis > 0
                ? rows.get((int) (i % rows.size()))
                : rows.get(ThreadLocalRandom.current().nextInt(rows.size()));
        byte[] value = Bytes.toBytes(i++);
        try {
          t.put(new Put(row).addColumn(CF, Q, value));
          Result r = t.get(new Get(row));
          if (periodMillis > 0 && !Arrays.equals(r.getValue(CF, Q), value)) {
            fail("read of " + Bytes.toString(row) + " did not see its write");
          }
        } catch (IOException | RuntimeException e) {
          fail(Bytes.toString(row) + ": " + e);
        }
        long done = System.nanoTime();
        operations.incrementAndGet();
        long before = lastDone.getAndSet(done);
        maxGapNanos.accumulateAndGet(done - before, Math::max);
        if (periodMillis > 0) {
          next += TimeUnit.MILLISECONDS.toNanos(periodMillis);
          long sleep = next - System.nanoTime();
          if (sleep > 0) {
            TimeUnit.NANOSECONDS.sleep(sleep);
          } else {
            next = System.nanoTime();
          }
        }
      }
    } catch (IOException e) {
      fail("table: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void fail(String what) {
    failures.incrementAndGet();
    if (firstFailure == null) {
      firstFailure = what;
    }
  }

  private long metaScans() {
    MetricsConnection m = ((ConnectionImplementation) connection).getConnectionMetrics();
    long n = 0;
    for (var e : m.getRpcCounters().entrySet()) {
      if (e.getKey().contains("_Scan")) {
        n += e.getValue().getCount();
      }
    }
    return n;
  }

  /** Starts counting afresh (the gap from now). */
  synchronized void reset() {
    baseScans = metaScans();
    baseOperations = operations.get();
    baseFailures = failures.get();
    maxGapNanos.set(0);
    lastDone.set(System.nanoTime());
    firstFailure = null;
  }

  /** What it saw since the last reset. */
  synchronized Seen seen() {
    return new Seen(
        operations.get() - baseOperations,
        failures.get() - baseFailures,
        TimeUnit.NANOSECONDS.toMillis(maxGapNanos.get()),
        metaScans() - baseScans,
        firstFailure);
  }

  /** Waits until it completed {@code n} more operations (at most 60 s). */
  void await(long n) throws InterruptedException {
    long target = operations.get() + n;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (operations.get() < target && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    stop = true;
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(90));
    }
    connection.close();
  }
}
