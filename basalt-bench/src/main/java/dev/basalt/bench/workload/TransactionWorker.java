package dev.basalt.bench.workload;

import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;

/**
 * One client thread of a run phase: draws operations from the workload's mix and keys from its
 * distribution, performs them through its own session and records their latency, as YCSB's core
 * workload does (see {@link WorkloadSpec} for the per-operation semantics). Failed operations are
 * counted and do not stop the thread.
 */
final class TransactionWorker implements Runnable {
  private final PhaseControl control;
  private final DataStore.Session session;
  private final OperationStats stats;
  private final OpLog.Writer log; // null: no --op-log
  private final Throttle throttle;
  private final OperationChooser operations;
  private final KeyChooser keys;
  private final InsertSequence inserts;
  private final UniformKeys fieldChooser;
  private final UniformKeys scanLengths;
  private final ValueSource values;
  private final byte[][] fieldNames;

  TransactionWorker(
      PhaseControl control,
      DataStore.Session session,
      OperationStats stats,
      OpLog.Writer log,
      Throttle throttle,
      WorkloadSpec spec,
      KeyChooser keys,
      InsertSequence inserts,
      int fieldCount,
      int fieldLength,
      RandomGenerator random) {
    this.control = control;
    this.session = session;
    this.stats = stats;
    this.log = log;
    this.throttle = throttle;
    this.operations = new OperationChooser(spec, random);
    this.keys = keys;
    this.inserts = inserts;
    this.fieldChooser = new UniformKeys(0, fieldCount - 1, random);
    this.scanLengths = new UniformKeys(1, spec.maxScanLength(), random);
    this.values = new ValueSource(random, fieldLength);
    this.fieldNames = KeyNames.fieldNames(fieldCount);
  }

  @Override
  public void run() {
    PhaseControl.Ticket ticket;
    while ((ticket = control.next()) != PhaseControl.Ticket.STOP) {
      long delay = throttle.delayBeforeNext(System.nanoTime());
      if (delay > 0) {
        LockSupport.parkNanos(delay);
      }
      boolean record = ticket == PhaseControl.Ticket.MEASURED;
      Operation op = operations.next();
      long start = System.nanoTime();
      int scanLength = 0;
      try {
        scanLength = perform(op, record);
      } catch (Exception e) {
        control.error(e);
        if (record) {
          stats.error(op);
        }
      }
      if (record) {
        long micros = (System.nanoTime() - start) / 1000;
        stats.record(op, micros);
        stats.completed();
        if (log != null) {
          log.add(start, op, micros, scanLength);
        }
      }
    }
  }

  /** Performs one operation; returns the rows a scan asked for (0 for other operations). */
  private int perform(Operation op, boolean record) throws Exception {
    switch (op) {
      case READ -> read(KeyNames.rowKeyBytes(keys.next()), record);
      case UPDATE -> update(KeyNames.rowKeyBytes(keys.next()));
      case INSERT -> insert();
      case SCAN -> {
        byte[] startRow = KeyNames.rowKeyBytes(keys.next());
        int length = (int) scanLengths.next();
        if (session.scan(startRow, length) == 0 && record) {
          stats.notFound(op);
        }
        return length;
      }
      case READ_MODIFY_WRITE -> {
        // The read and the update are also recorded on their own (YCSB records them through its
        // DB wrapper); the RMW latency covers both.
        byte[] row = KeyNames.rowKeyBytes(keys.next());
        long t0 = System.nanoTime();
        read(row, record);
        long t1 = System.nanoTime();
        update(row);
        long t2 = System.nanoTime();
        if (record) {
          stats.record(Operation.READ, (t1 - t0) / 1000);
          stats.record(Operation.UPDATE, (t2 - t1) / 1000);
        }
      }
    }
    return 0;
  }

  private void read(byte[] row, boolean record) throws Exception {
    if (session.read(row) == 0 && record) {
      stats.notFound(Operation.READ);
    }
  }

  private void update(byte[] row) throws Exception {
    session.update(row, fieldNames[(int) fieldChooser.next()], values.next());
  }

  private void insert() throws Exception {
    long n = inserts.next();
    try {
      session.insert(KeyNames.rowKeyBytes(n), fieldNames, values.record(fieldNames.length));
    } finally {
      inserts.acknowledge(n); // also on failure, as YCSB does, or "latest" would stall
    }
  }
}
