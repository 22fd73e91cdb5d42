package dev.basalt.shell.verify;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.PriorityQueue;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Table;

/**
 * The re-check of bad rows after a delay, as HBase VerifyReplication's --recompareSleep and
 * --recompareTries: a row that differs because replication has not delivered it yet is read again
 * on both sides once its delay has passed, and counted good if the two sides then agree (or the row
 * is gone from both). Try k (from 1) waits {@code sleepMs * 2^(backoffExponent * (k-1))} after the
 * previous look.
 *
 * <p>Unlike HBase, which sleeps inside the scan for every bad row (its newer versions hand them to
 * a thread pool), rows wait in a queue ordered by due time while the scan goes on, and are
 * re-checked as they fall due; the scan pauses only when {@link #CAPACITY} rows are waiting. So a
 * table with many rows in flight takes about one delay longer, not one delay per row.
 * Single-threaded: the scan's thread does the re-checks between rows.
 */
final class Recheck {
  static final int CAPACITY = 10_000;

  private record Pending(byte[] row, Counter reason, int tries, long dueNanos) {}

  private final long sleepMs;
  private final int maxTries;
  private final int backoffExponent;
  private final Table source;
  private final Table peer;
  private final ReadSpec spec;
  private final Counts counts;
  private final BadRowSample sample;
  private final PriorityQueue<Pending> queue =
      new PriorityQueue<>((a, b) -> Long.compare(a.dueNanos(), b.dueNanos()));

  Recheck(
      long sleepMs,
      int maxTries,
      int backoffExponent,
      Table source,
      Table peer,
      ReadSpec spec,
      Counts counts,
      BadRowSample sample) {
    this.sleepMs = sleepMs;
    this.maxTries = maxTries;
    this.backoffExponent = backoffExponent;
    this.source = source;
    this.peer = peer;
    this.spec = spec;
    this.counts = counts;
    this.sample = sample;
  }

  /** Queues a row the scan found bad; when the queue is full, first re-checks the oldest. */
  void add(byte[] row, Counter reason) throws IOException {
    while (queue.size() >= CAPACITY) {
      runNext();
    }
    queue.add(new Pending(row, reason, 0, System.nanoTime() + delayNanos(0)));
  }

  /** Re-checks the rows whose time has come, without waiting. */
  void runDue() throws IOException {
    long now = System.nanoTime();
    while (!queue.isEmpty() && queue.peek().dueNanos() - now <= 0) {
      recheck(queue.poll());
      now = System.nanoTime();
    }
  }

  /** Waits for and re-checks every queued row (the end of a table). */
  void drain() throws IOException {
    while (!queue.isEmpty()) {
      runNext();
    }
  }

  private void runNext() throws IOException {
    Pending next = queue.poll();
    long wait = next.dueNanos() - System.nanoTime();
    if (wait > 0) {
      try {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting to re-check rows");
      }
    }
    recheck(next);
  }

  private long delayNanos(int triesDone) {
    double factor = Math.pow(2, (double) backoffExponent * triesDone);
    return (long) Math.min(Long.MAX_VALUE / 4.0, sleepMs * factor * 1_000_000.0);
  }

  private void recheck(Pending p) throws IOException {
    RowDiff diff = sample.wants(p.row()) ? new RowDiff() : RowDiff.NONE;
    Counter now;
    try (CellCursor s = new CellCursor(source.getScanner(spec.rowScan(p.row())));
        CellCursor r = new CellCursor(peer.getScanner(spec.rowScan(p.row())))) {
      if (!s.hasCell() && !r.hasCell()) {
        now = Counter.GOODROWS; // gone from both sides: they agree
      } else {
        Cell rowCell = RowComparer.lowerRow(s, r);
        now = RowComparer.compareRow(rowCell, s, r, diff);
      }
    }
    boolean good = now == Counter.GOODROWS;
    counts.recheck(good);
    if (good) {
      counts.good();
    } else if (p.tries() + 1 < maxTries) {
      queue.add(
          new Pending(
              p.row(), p.reason(), p.tries() + 1, System.nanoTime() + delayNanos(p.tries() + 1)));
    } else {
      // HBase counts a row that stays bad under the reason the scan found
      counts.bad(p.reason());
      sample.add(p.row(), p.reason(), diff.lines());
    }
  }
}
