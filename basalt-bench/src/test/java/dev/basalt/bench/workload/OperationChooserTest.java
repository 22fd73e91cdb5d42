package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OperationChooserTest {
  @Test
  void drawsFollowTheWeights() {
    for (String name : WorkloadSpec.PRESET_ORDER) {
      WorkloadSpec spec = WorkloadSpec.preset(name);
      OperationChooser chooser = new OperationChooser(spec, new SplittableRandom(5));
      Map<Operation, Integer> counts = new EnumMap<>(Operation.class);
      int draws = 200_000;
      for (int i = 0; i < draws; i++) {
        counts.merge(chooser.next(), 1, Integer::sum);
      }
      for (Operation op : Operation.values()) {
        double expected = spec.weight(op);
        double seen = counts.getOrDefault(op, 0) / (double) draws;
        if (expected == 0) {
          assertThat(seen).as("%s %s", name, op).isZero();
        } else {
          assertThat(seen).as("%s %s", name, op).isCloseTo(expected, within(0.005));
        }
      }
    }
  }

  @Test
  void boundariesBetweenOperations() {
    OperationChooser b = new OperationChooser(WorkloadSpec.preset("B"), new SplittableRandom(1));
    assertThat(b.pick(0.0)).isEqualTo(Operation.READ);
    assertThat(b.pick(0.9499)).isEqualTo(Operation.READ);
    assertThat(b.pick(0.95)).isEqualTo(Operation.UPDATE);
    assertThat(b.pick(0.999999)).isEqualTo(Operation.UPDATE);
    OperationChooser c = new OperationChooser(WorkloadSpec.preset("C"), new SplittableRandom(1));
    assertThat(c.pick(0.999999)).isEqualTo(Operation.READ);
  }

  @Test
  void weightsNeedNotSumToOne() {
    Map<Operation, Double> mix = new EnumMap<>(Operation.class);
    mix.put(Operation.READ, 3.0);
    mix.put(Operation.SCAN, 1.0);
    WorkloadSpec spec = new WorkloadSpec("X", "custom", mix, Distribution.UNIFORM, 10);
    OperationChooser chooser = new OperationChooser(spec, new SplittableRandom(1));
    assertThat(chooser.pick(0.7499)).isEqualTo(Operation.READ);
    assertThat(chooser.pick(0.75)).isEqualTo(Operation.SCAN);
  }

  @Test
  void presetsAreYcsbsCoreWorkloads() {
    assertThat(WorkloadSpec.preset("a").mix())
        .containsOnly(Map.entry(Operation.READ, 0.5), Map.entry(Operation.UPDATE, 0.5));
    assertThat(WorkloadSpec.preset("D").distribution()).isEqualTo(Distribution.LATEST);
    assertThat(WorkloadSpec.preset("E").mix())
        .containsOnly(Map.entry(Operation.SCAN, 0.95), Map.entry(Operation.INSERT, 0.05));
    assertThat(WorkloadSpec.preset("E").maxScanLength()).isEqualTo(100);
    assertThat(WorkloadSpec.preset("F").weight(Operation.READ_MODIFY_WRITE)).isEqualTo(0.5);
    assertThatThrownBy(() -> WorkloadSpec.preset("G")).hasMessageContaining("unknown workload 'G'");
  }
}
