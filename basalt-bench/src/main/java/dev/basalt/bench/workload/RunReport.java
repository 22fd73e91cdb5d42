package dev.basalt.bench.workload;

import java.util.List;
import java.util.Map;

/**
 * Everything one runner invocation measured against one system, with the settings it used: what the
 * JSON file holds and what the comparison report reads back.
 *
 * @param settings the run's settings as label -> value, in a stable order
 */
record RunReport(
    String label, String target, Map<String, String> settings, List<PhaseResult> phases) {
  RunReport {
    settings = Map.copyOf(settings);
    phases = List.copyOf(phases);
  }
}
