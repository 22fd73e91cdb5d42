package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PhaseControlTest {
  @Test
  void warmupTicketsAreUnlimitedAndMeasuredOnesCounted() {
    PhaseControl c = new PhaseControl(3, true);
    for (int i = 0; i < 10; i++) {
      assertThat(c.next()).isEqualTo(PhaseControl.Ticket.WARMUP);
    }
    c.startMeasuring();
    assertThat(c.measuring()).isTrue();
    assertThat(c.next()).isEqualTo(PhaseControl.Ticket.MEASURED);
    assertThat(c.next()).isEqualTo(PhaseControl.Ticket.MEASURED);
    assertThat(c.next()).isEqualTo(PhaseControl.Ticket.MEASURED);
    assertThat(c.next()).isEqualTo(PhaseControl.Ticket.STOP);
    assertThat(c.stopped()).isTrue();
  }

  @Test
  void stopEndsThePhaseEvenInWarmup() {
    PhaseControl c = new PhaseControl(100, true);
    c.stop();
    assertThat(c.next()).isEqualTo(PhaseControl.Ticket.STOP);
  }

  @Test
  void keepsTheFirstError() {
    PhaseControl c = new PhaseControl(1, false);
    c.error(new IllegalStateException("first"));
    c.error(new IllegalStateException("second"));
    assertThat(c.firstError()).hasMessage("first");
  }
}
