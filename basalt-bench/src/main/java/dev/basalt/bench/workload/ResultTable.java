package dev.basalt.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Formats phase results as a Markdown table: one row per operation type of each phase, with the
 * phase's throughput on its first row. Markdown so that the same text reads well in a terminal and
 * pastes into docs/PERFORMANCE.md.
 */
final class ResultTable {
  private ResultTable() {}

  static final String HEADER =
      "| phase | ops/s | operation | count | errors | not found | mean us | p50 us | p95 us"
          + " | p99 us | p99.9 us | max us |";
  static final String RULE =
      "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |";

  static String format(List<PhaseResult> phases) {
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    lines.add(RULE);
    for (PhaseResult p : phases) {
      boolean first = true;
      for (OpResult o : p.byOperation()) {
        lines.add(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %,d | %,d | %,d | %,.0f | %,d | %,d | %,d | %,d | %,d |",
                first ? p.phase() : "",
                first ? String.format(Locale.ROOT, "%,.0f", p.opsPerSecond()) : "",
                o.operation(),
                o.count(),
                o.errors(),
                o.notFound(),
                o.meanMicros(),
                o.p50Micros(),
                o.p95Micros(),
                o.p99Micros(),
                o.p999Micros(),
                o.maxMicros()));
        first = false;
      }
      if (first) { // nothing recorded at all
        lines.add("| " + p.phase() + " | 0 | (no operations) |  |  |  |  |  |  |  |  |  |");
      }
    }
    return String.join("\n", lines) + "\n";
  }
}
