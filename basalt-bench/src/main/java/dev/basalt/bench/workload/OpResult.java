package dev.basalt.bench.workload;

/**
 * The measured figures of one operation type in one phase. Latencies are in microseconds, taken
 * from an HdrHistogram with 3 significant digits.
 *
 * @param count operations recorded (including failed ones)
 * @param errors operations that threw
 * @param notFound reads that found no record (a load problem when non-zero)
 */
record OpResult(
    String operation,
    long count,
    long errors,
    long notFound,
    double meanMicros,
    long p50Micros,
    long p95Micros,
    long p99Micros,
    long p999Micros,
    long maxMicros) {}
