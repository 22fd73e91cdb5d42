package dev.basalt.bench.workload;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One workload: the mix of operations and how keys and scan lengths are chosen. The presets are
 * YCSB's core workloads (workloads/workloada ... workloadf in YCSB), with YCSB's defaults for what
 * they leave out: reads fetch every field, updates write one randomly chosen field, scan lengths
 * are uniform in [1, maxScanLength].
 *
 * @param name "A" ... "F" for the presets
 * @param mix operation proportions; need not sum to 1 (they are weights)
 */
record WorkloadSpec(
    String name,
    String description,
    Map<Operation, Double> mix,
    Distribution distribution,
    int maxScanLength) {

  WorkloadSpec {
    mix = Map.copyOf(mix);
    if (mix.isEmpty() || mix.values().stream().anyMatch(w -> !(w >= 0))) {
      throw new IllegalArgumentException("workload " + name + ": weights must be >= 0");
    }
    if (mix.values().stream().mapToDouble(Double::doubleValue).sum() <= 0) {
      throw new IllegalArgumentException("workload " + name + ": no operation has a weight");
    }
    if (maxScanLength < 1) {
      throw new IllegalArgumentException("workload " + name + ": max scan length must be >= 1");
    }
  }

  static final int YCSB_MAX_SCAN_LENGTH = 100;

  /** The preset names in the order YCSB's documentation runs them (D and E insert, so last). */
  static final List<String> PRESET_ORDER = List.of("A", "B", "C", "F", "D", "E");

  static WorkloadSpec preset(String name) {
    switch (name.trim().toUpperCase(Locale.ROOT)) {
      case "A":
        return of(
            "A",
            "update heavy: 50% read, 50% update",
            Distribution.ZIPFIAN,
            Operation.READ,
            0.5,
            Operation.UPDATE,
            0.5);
      case "B":
        return of(
            "B",
            "read mostly: 95% read, 5% update",
            Distribution.ZIPFIAN,
            Operation.READ,
            0.95,
            Operation.UPDATE,
            0.05);
      case "C":
        return of("C", "read only", Distribution.ZIPFIAN, Operation.READ, 1.0);
      case "D":
        return of(
            "D",
            "read latest: 95% read, 5% insert",
            Distribution.LATEST,
            Operation.READ,
            0.95,
            Operation.INSERT,
            0.05);
      case "E":
        return of(
            "E",
            "short scans: 95% scan, 5% insert",
            Distribution.ZIPFIAN,
            Operation.SCAN,
            0.95,
            Operation.INSERT,
            0.05);
      case "F":
        return of(
            "F",
            "read-modify-write: 50% read, 50% read-modify-write",
            Distribution.ZIPFIAN,
            Operation.READ,
            0.5,
            Operation.READ_MODIFY_WRITE,
            0.5);
      default:
        throw new IllegalArgumentException(
            "unknown workload '" + name + "' (expected load, reload or one of A, B, C, D, E, F)");
    }
  }

  private static WorkloadSpec of(
      String name, String description, Distribution distribution, Object... opsAndWeights) {
    Map<Operation, Double> mix = new EnumMap<>(Operation.class);
    for (int i = 0; i < opsAndWeights.length; i += 2) {
      mix.put((Operation) opsAndWeights[i], (Double) opsAndWeights[i + 1]);
    }
    return new WorkloadSpec(name, description, mix, distribution, YCSB_MAX_SCAN_LENGTH);
  }

  WorkloadSpec withDistribution(Distribution d) {
    return new WorkloadSpec(name, description, mix, d, maxScanLength);
  }

  WorkloadSpec withMaxScanLength(int length) {
    return new WorkloadSpec(name, description, mix, distribution, length);
  }

  double weight(Operation op) {
    return mix.getOrDefault(op, 0.0);
  }

  double insertFraction() {
    double total = mix.values().stream().mapToDouble(Double::doubleValue).sum();
    return weight(Operation.INSERT) / total;
  }
}
