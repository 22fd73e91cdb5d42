package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InsertSequenceTest {
  @Test
  void acknowledgedOnlyAdvancesOverAContiguousRun() {
    InsertSequence s = new InsertSequence(10);
    assertThat(s.lastAcknowledged()).isEqualTo(9);
    assertThat(s.next()).isEqualTo(10);
    assertThat(s.next()).isEqualTo(11);
    assertThat(s.next()).isEqualTo(12);
    s.acknowledge(12);
    s.acknowledge(11);
    assertThat(s.lastAcknowledged()).isEqualTo(9);
    s.acknowledge(10);
    assertThat(s.lastAcknowledged()).isEqualTo(12);
    assertThat(s.issued()).isEqualTo(13);
  }
}
