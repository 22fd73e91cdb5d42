package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressReporterTest {
  private static final long S = 1_000_000_000L;

  @Test
  void aLineGivesTotalsTheIntervalRateAndPercentilesPerOperation() {
    OperationStats stats = new OperationStats();
    for (int i = 1; i <= 100; i++) {
      stats.record(Operation.READ, i * 10L);
      stats.completed();
    }
    stats.record(Operation.UPDATE, 5000);
    stats.completed();
    PhaseControl control = new PhaseControl(1000, false);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressReporter r =
        new ProgressReporter(new PrintStream(bytes, true, StandardCharsets.UTF_8), "hb", "A", 0);
    r.report(control, stats, 10 * S);
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "[hb A]     10 s  101 ops  10 ops/s  READ p50 500 p99 990 us  UPDATE p50 5,003 p99"
                + " 5,003 us\n");

    // The next interval only counts what happened since (1 op in 2 s, rounded half up).
    bytes.reset();
    stats.record(Operation.READ, 100);
    stats.completed();
    r.report(control, stats, 12 * S);
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .isEqualTo("[hb A]     12 s  102 ops  1 ops/s  READ p50 100 p99 100 us\n");
  }

  @Test
  void warmupIsSaidAndNotSampled() {
    OperationStats stats = new OperationStats();
    PhaseControl control = new PhaseControl(10, true);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new ProgressReporter(new PrintStream(bytes, true, StandardCharsets.UTF_8), "hb", "C", 0)
        .report(control, stats, 10 * S);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("[hb C]     10 s  warming up\n");
  }
}
