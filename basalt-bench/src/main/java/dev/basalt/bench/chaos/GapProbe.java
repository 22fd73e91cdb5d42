package dev.basalt.bench.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A client probe in the manner of HBase's IntegrationTestMTTR: on a connection of its own, every
 * {@link #PERIOD_MILLIS} ms it puts a new value into the next of its rows (one per region of its
 * table, in turn) and reads it back. It records failed operations (an exception, or a read that
 * does not see the write) and the longest gap between two completed operations, over a window that
 * {@link #window} restarts, so that a soak gets the gap of each action.
 */
public final class GapProbe implements AutoCloseable {
  public static final long PERIOD_MILLIS = 50;
  static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final long JOIN_MILLIS = 180_000;

  private final Connection connection;
  private final Table table;
  private final List<byte[]> rows;
  private final Thread thread;
  private final AtomicLong operations = new AtomicLong(); // in the window
  private final AtomicLong total = new AtomicLong(); // since the start
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong maxGap = new AtomicLong();
  private final List<String> failureMessages = new ArrayList<>();
  private volatile boolean stop;

  /** What the probe saw in a window. */
  public record Window(long operations, long failures, long maxGapMillis, List<String> failed) {
    @Override
    public String toString() {
      return String.format(
          "%d ops, %d failed, longest gap %d ms%s",
          operations, failures, maxGapMillis, failed.isEmpty() ? "" : ", failures: " + failed);
    }
  }

  /** Creates the probe's table: {@code regions} regions split at {@code p01 .. p<n-1>}. */
  public static void createTable(Admin admin, TableName name, int regions) throws IOException {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = Bytes.toBytes(String.format("p%02d", i));
    }
    admin.createTable(
        TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
            .build(),
        splits);
  }

  private GapProbe(Configuration conf, TableName name, int regions) throws IOException {
    this.connection = ConnectionFactory.createConnection(conf);
    this.table = connection.getTable(name);
    List<byte[]> r = new ArrayList<>();
    for (int i = 0; i < regions; i++) {
      r.add(Bytes.toBytes(String.format("p%02d-probe", i)));
    }
    this.rows = r;
    this.thread = new Thread(this::run, "probe-" + name.getNameAsString());
    this.thread.setDaemon(true);
  }

  /**
   * Starts probing a table made by {@link #createTable} after one warm-up round over every row (the
   * region locations are then cached).
   */
  public static GapProbe start(Configuration conf, TableName name, int regions) throws IOException {
    GapProbe p = new GapProbe(conf, name, regions);
    try {
      for (byte[] row : p.rows) {
        p.table.put(new Put(row).addColumn(CF, Q, Bytes.toBytes(-1L)));
      }
    } catch (IOException | RuntimeException e) {
      p.closeConnection();
      throw e;
    }
    p.thread.start();
    return p;
  }

  private void run() {
    long next = System.nanoTime();
    long lastDone = System.nanoTime();
    long i = 0;
    while (!stop) {
      byte[] row = rows.get((int) (i % rows.size()));
      byte[] value = Bytes.toBytes(i);
      try {
        table.put(new Put(row).addColumn(CF, Q, value));
        Result r = table.get(new Get(row));
        if (!Arrays.equals(r.getValue(CF, Q), value)) {
          fail("read of " + Bytes.toString(row) + " did not see write " + i);
        }
      } catch (IOException | RuntimeException e) {
        fail(Bytes.toString(row) + ": " + e);
      }
      long done = System.nanoTime();
      operations.incrementAndGet();
      total.incrementAndGet();
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

  /**
   * Waits until the probe completed a full round (one operation per row) beyond the count now.
   *
   * @throws IOException when that takes more than {@code timeoutMillis}
   */
  public void awaitRound(long timeoutMillis) throws IOException, InterruptedException {
    long target = total.get() + rows.size();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (total.get() < target) {
      if (System.nanoTime() - deadline >= 0) {
        throw new IOException("the probe did not complete a round in " + timeoutMillis + " ms");
      }
      Thread.sleep(10);
    }
  }

  /**
   * What the probe saw since the last call (or its start), and starts a new window. The gap that
   * spans the call counts in the window it ends in.
   */
  public Window window() {
    List<String> messages;
    synchronized (failureMessages) {
      messages = List.copyOf(failureMessages);
      failureMessages.clear();
    }
    return new Window(
        operations.getAndSet(0), failures.getAndSet(0), maxGap.getAndSet(0), messages);
  }

  private void closeConnection() {
    try {
      table.close();
      connection.close();
    } catch (IOException e) {
      // closing a probe's own client: nothing to do about it
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    thread.join(JOIN_MILLIS);
    closeConnection();
  }
}
