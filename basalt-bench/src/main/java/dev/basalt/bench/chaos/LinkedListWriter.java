package dev.basalt.bench.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Writer threads of linked lists through the stock client (the generator of HBase's
 * IntegrationTestBigLinkedList, small and continuous): each thread writes nodes with random keys
 * ({@link NodeKeys}), each naming as {@code prev} the last node of its thread whose put was
 * acknowledged, so a node only ever references a node the cluster acknowledged before it was
 * written. Each thread remembers which puts were acknowledged; a put that failed even after the
 * client's own retries is tried again as it was (a put of the same cells is idempotent), and after
 * {@link #ATTEMPTS} failures it is counted as ambiguous (it may or may not be stored) and the list
 * goes on from the last acknowledged node.
 *
 * <p>{@link #stop} returns what was written for {@link LinkedListVerifier}. Thread-safe.
 */
public final class LinkedListWriter implements AutoCloseable {
  /** Attempts of one node's put before it counts as ambiguous. */
  static final int ATTEMPTS = 3;

  private static final long JOIN_MILLIS = 180_000;

  private final List<Worker> workers = new ArrayList<>();
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong failedAttempts = new AtomicLong();
  private final AtomicLong maxPutMillis = new AtomicLong();
  private final AtomicLong maxAckGapMillis = new AtomicLong();
  private volatile boolean stop;
  private Written written;

  /** What the writers did: the verifier's input and the soak's counts. */
  public static final class Written {
    final KeySet acknowledged;
    final KeySet ambiguous;
    final KeySet heads;
    private final long failedAttempts;
    private final long maxPutMillis;
    private final long maxAckGapMillis;
    private final List<String> failureExamples;

    Written(
        KeySet acknowledged,
        KeySet ambiguous,
        KeySet heads,
        long failedAttempts,
        long maxPutMillis,
        long maxAckGapMillis,
        List<String> failureExamples) {
      this.acknowledged = acknowledged;
      this.ambiguous = ambiguous;
      this.heads = heads;
      this.failedAttempts = failedAttempts;
      this.maxPutMillis = maxPutMillis;
      this.maxAckGapMillis = maxAckGapMillis;
      this.failureExamples = List.copyOf(failureExamples);
    }

    public long acknowledged() {
      return acknowledged.size();
    }

    /** Nodes whose put failed {@link #ATTEMPTS} times: stored or not, either is correct. */
    public long ambiguous() {
      return ambiguous.size();
    }

    /** Puts that threw after the client's own retries (each tried again, up to the attempts). */
    public long failedAttempts() {
      return failedAttempts;
    }

    /** The slowest acknowledged put, client retries included. */
    public long maxPutMillis() {
      return maxPutMillis;
    }

    /** The longest time one writer went without an acknowledgement. */
    public long maxAckGapMillis() {
      return maxAckGapMillis;
    }

    public List<String> failureExamples() {
      return failureExamples;
    }

    @Override
    public String toString() {
      return String.format(
          "%d acknowledged, %d ambiguous, %d failed attempts, slowest put %d ms, longest wait for"
              + " an acknowledgement %d ms%s",
          acknowledged(),
          ambiguous(),
          failedAttempts,
          maxPutMillis,
          maxAckGapMillis,
          failureExamples.isEmpty() ? "" : ", failures: " + failureExamples);
    }
  }

  private LinkedListWriter() {}

  /**
   * Starts {@code threads} writers on {@code table} of {@code connection}.
   *
   * @param putsPerSecond each writer's rate; 0 writes as fast as acknowledgements come
   * @param seed makes the keys reproducible (each thread's random is seeded from it)
   */
  public static LinkedListWriter start(
      Connection connection, TableName table, int threads, int putsPerSecond, long seed)
      throws IOException {
    if (threads < 1 || putsPerSecond < 0) {
      throw new IllegalArgumentException(
          "threads " + threads + " and puts per second " + putsPerSecond + ": need >= 1 and >= 0");
    }
    LinkedListWriter w = new LinkedListWriter();
    for (int i = 0; i < threads; i++) {
      w.workers.add(w.new Worker(i, connection.getTable(table), seed * 31 + i, putsPerSecond));
    }
    for (Worker worker : w.workers) {
      worker.thread.start();
    }
    return w;
  }

  /** Acknowledged puts so far. */
  public long acknowledged() {
    return acknowledged.get();
  }

  /** Failed put attempts so far. */
  public long failedAttempts() {
    return failedAttempts.get();
  }

  /**
   * Waits until {@code more} puts beyond the count now were acknowledged.
   *
   * @throws IOException when that takes longer than {@code timeoutMillis}: the writers are stuck
   */
  public void awaitAcknowledged(long more, long timeoutMillis)
      throws IOException, InterruptedException {
    long target = acknowledged.get() + more;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (acknowledged.get() < target) {
      if (System.nanoTime() - deadline >= 0) {
        throw new IOException(
            "the writers had no "
                + more
                + " acknowledgements in "
                + timeoutMillis
                + " ms ("
                + failedAttempts.get()
                + " failed attempts so far)");
      }
      Thread.sleep(5);
    }
  }

  /**
   * Stops the writers (each finishes the node it is writing) and returns what they wrote.
   *
   * @throws IllegalStateException when a writer did not stop in 3 minutes
   */
  public synchronized Written stop() throws InterruptedException {
    if (written != null) {
      return written;
    }
    stop = true;
    KeySet acked = new KeySet();
    KeySet ambiguous = new KeySet();
    KeySet heads = new KeySet();
    List<String> failures = new ArrayList<>();
    for (Worker worker : workers) {
      worker.thread.join(JOIN_MILLIS);
      if (worker.thread.isAlive()) {
        throw new IllegalStateException(worker.thread.getName() + " did not stop in 3 min");
      }
      worker.closeTable();
      acked.addAll(worker.acknowledged);
      ambiguous.addAll(worker.ambiguous);
      if (worker.hasHead) {
        heads.add(worker.headHi, worker.headLo);
      }
      for (String f : worker.failures) {
        if (failures.size() < 5) {
          failures.add(f);
        }
      }
    }
    written =
        new Written(
            acked,
            ambiguous,
            heads,
            failedAttempts.get(),
            maxPutMillis.get(),
            maxAckGapMillis.get(),
            failures);
    return written;
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }

  /** One writer thread and its list. Fields other than the counters are its own until joined. */
  private final class Worker {
    private final int client;
    private final Table table;
    private final Random random;
    private final long periodNanos;
    private final Thread thread;
    private final KeySet acknowledged = new KeySet();
    private final KeySet ambiguous = new KeySet(16);
    private final List<String> failures = new ArrayList<>();
    private boolean hasHead;
    private long headHi;
    private long headLo;
    private long count;

    Worker(int client, Table table, long seed, int putsPerSecond) {
      this.client = client;
      this.table = table;
      this.random = new Random(seed);
      this.periodNanos = putsPerSecond == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) / putsPerSecond;
      this.thread = new Thread(this::run, "linked-list-writer-" + client);
      this.thread.setDaemon(true);
    }

    private void run() {
      long next = System.nanoTime();
      long lastAck = System.nanoTime();
      while (!stop) {
        long[] key = NodeKeys.random(random);
        Put put = node(key);
        boolean acked = false;
        for (int attempt = 1; attempt <= ATTEMPTS && !acked; attempt++) {
          long t0 = System.nanoTime();
          try {
            table.put(put);
            acked = true;
            long now = System.nanoTime();
            maxPutMillis.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(now - t0), Math::max);
            maxAckGapMillis.accumulateAndGet(
                TimeUnit.NANOSECONDS.toMillis(now - lastAck), Math::max);
            lastAck = now;
          } catch (IOException | RuntimeException e) {
            failedAttempts.incrementAndGet();
            if (failures.size() < 5) {
              failures.add("writer " + client + " attempt " + attempt + ": " + e);
            }
          }
        }
        if (acked) {
          this.acknowledged.add(key[0], key[1]);
          hasHead = true;
          headHi = key[0];
          headLo = key[1];
          count++;
          LinkedListWriter.this.acknowledged.incrementAndGet();
        } else {
          ambiguous.add(key[0], key[1]);
        }
        if (periodNanos > 0) {
          next += periodNanos;
          long sleep = next - System.nanoTime();
          if (sleep > 0) {
            try {
              TimeUnit.NANOSECONDS.sleep(sleep);
            } catch (InterruptedException e) {
              return;
            }
          } else {
            next = System.nanoTime(); // behind after a slow put: no burst to catch up
          }
        }
      }
    }

    private Put node(long[] key) {
      byte[] prev = hasHead ? NodeKeys.toBytes(headHi, headLo) : new byte[0];
      return new Put(NodeKeys.toBytes(key[0], key[1]))
          .addColumn(NodeKeys.FAMILY, NodeKeys.PREV, prev)
          .addColumn(NodeKeys.FAMILY, NodeKeys.CLIENT, Bytes.toBytes(client))
          .addColumn(NodeKeys.FAMILY, NodeKeys.COUNT, Bytes.toBytes(count));
    }

    void closeTable() {
      try {
        table.close();
      } catch (IOException e) {
        // a Table of a shared connection holds nothing to lose
      }
    }
  }
}
