package dev.basalt.bench.workload;

import java.util.List;

/**
 * The outcome of one phase (the load, or one workload) against one system.
 *
 * @param phase "load" or the workload's letter
 * @param operations top-level operations completed while measuring (a read-modify-write counts
 *     once, although its read and its update are also recorded under READ and UPDATE, as YCSB does)
 * @param seconds measured wall-clock time
 * @param serverCpuMillis CPU time the server process spent (every thread, from /proc) during the
 *     measured window, or -1 when not measured (no --server-pid, or another machine)
 */
record PhaseResult(
    String phase,
    String description,
    String distribution,
    int threads,
    double targetOpsPerSecond,
    long operations,
    double seconds,
    List<OpResult> byOperation,
    long serverCpuMillis) {

  PhaseResult {
    byOperation = List.copyOf(byOperation);
  }

  /** A phase whose server CPU was not measured. */
  PhaseResult(
      String phase,
      String description,
      String distribution,
      int threads,
      double targetOpsPerSecond,
      long operations,
      double seconds,
      List<OpResult> byOperation) {
    this(
        phase,
        description,
        distribution,
        threads,
        targetOpsPerSecond,
        operations,
        seconds,
        byOperation,
        -1);
  }

  boolean hasServerCpu() {
    return serverCpuMillis >= 0 && operations > 0;
  }

  /** Server CPU microseconds per operation of the measured window (see {@link #hasServerCpu}). */
  double serverCpuMicrosPerOperation() {
    return hasServerCpu() ? serverCpuMillis * 1000.0 / operations : 0;
  }

  double opsPerSecond() {
    return seconds > 0 ? operations / seconds : 0;
  }

  long errors() {
    return byOperation.stream().mapToLong(OpResult::errors).sum();
  }
}
