package dev.basalt.bench.workload;

import java.util.HashSet;
import java.util.Set;

/**
 * The record numbers of inserts during the run phases (workloads D and E), shared by all workers.
 * {@link #next} hands out numbers in order; {@link #lastAcknowledged} is the highest number below
 * which every insert has completed, so that a read never chooses a record whose insert is still in
 * flight (YCSB's acknowledged counter: with several threads, insert n+1 can finish before n).
 *
 * <p>Thread-safe. Inserts are a few percent of the operations, so one lock is enough.
 */
final class InsertSequence {
  private long nextNumber;
  private volatile long lastAcknowledged;
  private final Set<Long> doneAhead = new HashSet<>();

  /**
   * @param records how many records the load phase inserted (numbers 0 to records - 1)
   */
  InsertSequence(long records) {
    this.nextNumber = records;
    this.lastAcknowledged = records - 1;
  }

  synchronized long next() {
    return nextNumber++;
  }

  /** Marks an insert finished (whether it succeeded or not, as YCSB does). */
  synchronized void acknowledge(long number) {
    if (number != lastAcknowledged + 1) {
      doneAhead.add(number);
      return;
    }
    long last = number;
    while (doneAhead.remove(last + 1)) {
      last++;
    }
    lastAcknowledged = last;
  }

  long lastAcknowledged() {
    return lastAcknowledged;
  }

  /** Records that exist or are being inserted. */
  synchronized long issued() {
    return nextNumber;
  }
}
