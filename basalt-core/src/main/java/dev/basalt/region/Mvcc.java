package dev.basalt.region;

import java.io.InterruptedIOException;
import java.util.ArrayDeque;

/**
 * Multi-version concurrency control for one region. Each row mutation takes a range of new sequence
 * ids with {@link #begin}; it becomes visible when it {@link #complete}s and every range begun
 * before it has completed too, so readers (who read at {@link #readPoint()}) see commits in order
 * and never see half of one. The sequence id is also the WAL's: one number per edit.
 *
 * <p>Thread-safe.
 */
final class Mvcc {
  /** A range of sequence ids handed to one mutation. */
  static final class WriteEntry {
    final long first;
    final long last;
    private boolean completed;

    WriteEntry(long first, long last) {
      this.first = first;
      this.last = last;
    }
  }

  /** Checks of the read point before a waiting writer blocks (a few microseconds). */
  private static final int AWAIT_SPINS = 2_000;

  private final Object lock = new Object();
  private final ArrayDeque<WriteEntry> inFlight = new ArrayDeque<>();
  private long writePoint;
  private volatile long readPoint;

  /**
   * @param startSeq the highest sequence id already used (e.g. recovered from the WAL)
   */
  Mvcc(long startSeq) {
    this.writePoint = startSeq;
    this.readPoint = startSeq;
  }

  /** Reserves {@code count} consecutive sequence ids. */
  WriteEntry begin(int count) {
    synchronized (lock) {
      WriteEntry e = new WriteEntry(writePoint + 1, writePoint + count);
      writePoint += count;
      inFlight.add(e);
      return e;
    }
  }

  /** Marks the entry done and advances the read point over every completed prefix. */
  void complete(WriteEntry e) {
    synchronized (lock) {
      e.completed = true;
      boolean advanced = false;
      while (!inFlight.isEmpty() && inFlight.peekFirst().completed) {
        readPoint = inFlight.pollFirst().last;
        advanced = true;
      }
      if (advanced) {
        lock.notifyAll();
      }
    }
  }

  /** Waits until the entry is visible to new readers. */
  void await(WriteEntry e) throws InterruptedIOException {
    // Usually its own completion advanced the read point; otherwise an earlier writer is about to
    // complete, so spin briefly before paying for a park and a wake-up.
    for (int i = 0; i < AWAIT_SPINS; i++) {
      if (readPoint >= e.last) {
        return;
      }
      Thread.onSpinWait();
    }
    synchronized (lock) {
      while (readPoint < e.last) {
        try {
          lock.wait();
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          InterruptedIOException iioe =
              new InterruptedIOException("interrupted waiting for sequence id " + e.last);
          iioe.initCause(ie);
          throw iioe;
        }
      }
    }
  }

  /**
   * Moves both points to at least {@code seq}; only while nothing is in flight (recovery).
   *
   * @throws IllegalStateException when writes are in flight
   */
  void advanceTo(long seq) {
    synchronized (lock) {
      if (!inFlight.isEmpty()) {
        throw new IllegalStateException("cannot advance MVCC with writes in flight");
      }
      if (seq > writePoint) {
        writePoint = seq;
        readPoint = seq;
      }
    }
  }

  /** The highest sequence id a new reader sees. */
  long readPoint() {
    return readPoint;
  }

  /** The highest sequence id handed out. */
  long writePoint() {
    synchronized (lock) {
      return writePoint;
    }
  }
}
