package dev.basalt.bench.workload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;

/**
 * One client thread of the load phase: inserts whole records, taking record numbers from a counter
 * shared by all load threads until every record 0..records-1 has been inserted.
 */
final class LoadWorker implements Runnable {
  private final PhaseControl control;
  private final DataStore.Session session;
  private final OperationStats stats;
  private final Throttle throttle;
  private final AtomicLong nextRecord;
  private final long records;
  private final ValueSource values;
  private final byte[][] fieldNames;

  LoadWorker(
      PhaseControl control,
      DataStore.Session session,
      OperationStats stats,
      Throttle throttle,
      AtomicLong nextRecord,
      long records,
      int fieldCount,
      int fieldLength,
      RandomGenerator random) {
    this.control = control;
    this.session = session;
    this.stats = stats;
    this.throttle = throttle;
    this.nextRecord = nextRecord;
    this.records = records;
    this.values = new ValueSource(random, fieldLength);
    this.fieldNames = KeyNames.fieldNames(fieldCount);
  }

  @Override
  public void run() {
    while (!control.stopped()) {
      long n = nextRecord.getAndIncrement();
      if (n >= records) {
        return;
      }
      long delay = throttle.delayBeforeNext(System.nanoTime());
      if (delay > 0) {
        LockSupport.parkNanos(delay);
      }
      byte[] row = KeyNames.rowKeyBytes(n);
      byte[][] record = values.record(fieldNames.length);
      long start = System.nanoTime();
      try {
        session.insert(row, fieldNames, record);
      } catch (Exception e) {
        control.error(e);
        stats.error(Operation.INSERT);
      }
      stats.record(Operation.INSERT, (System.nanoTime() - start) / 1000);
      stats.completed();
    }
  }
}
