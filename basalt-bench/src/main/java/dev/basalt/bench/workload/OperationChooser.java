package dev.basalt.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Draws the next operation of a workload with probabilities proportional to its weights (YCSB's
 * discrete generator). Operations of weight zero are never drawn. Not thread-safe: one per worker.
 */
final class OperationChooser {
  private final Operation[] ops;
  private final double[] cumulative; // cumulative[i] = sum of weights 0..i, divided by the total
  private final RandomGenerator random;

  OperationChooser(WorkloadSpec spec, RandomGenerator random) {
    List<Operation> chosen = new ArrayList<>();
    List<Double> weights = new ArrayList<>();
    double total = 0;
    for (Operation op : Operation.values()) { // enum order: the same draw picks the same op
      double w = spec.weight(op);
      if (w > 0) {
        chosen.add(op);
        weights.add(w);
        total += w;
      }
    }
    this.ops = chosen.toArray(new Operation[0]);
    this.cumulative = new double[ops.length];
    double sum = 0;
    for (int i = 0; i < ops.length; i++) {
      sum += weights.get(i);
      cumulative[i] = sum / total;
    }
    this.random = random;
  }

  Operation next() {
    return pick(random.nextDouble());
  }

  /** The operation a uniform draw u in [0, 1) selects. */
  Operation pick(double u) {
    for (int i = 0; i < ops.length - 1; i++) {
      if (u < cumulative[i]) {
        return ops[i];
      }
    }
    return ops[ops.length - 1]; // also absorbs rounding in the last cumulative sum
  }
}
