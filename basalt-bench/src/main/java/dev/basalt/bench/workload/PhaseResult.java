package dev.basalt.bench.workload;

import java.util.List;

/**
 * The outcome of one phase (the load, or one workload) against one system.
 *
 * @param phase "load" or the workload's letter
 * @param operations top-level operations completed while measuring (a read-modify-write counts
 *     once, although its read and its update are also recorded under READ and UPDATE, as YCSB does)
 * @param seconds measured wall-clock time
 */
record PhaseResult(
    String phase,
    String description,
    String distribution,
    int threads,
    double targetOpsPerSecond,
    long operations,
    double seconds,
    List<OpResult> byOperation) {

  PhaseResult {
    byOperation = List.copyOf(byOperation);
  }

  double opsPerSecond() {
    return seconds > 0 ? operations / seconds : 0;
  }

  long errors() {
    return byOperation.stream().mapToLong(OpResult::errors).sum();
  }
}
