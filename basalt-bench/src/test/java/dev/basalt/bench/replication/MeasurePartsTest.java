package dev.basalt.bench.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parts of ReplicationMeasure that read other programs' output: the workload runner's lines (as
 * it printed them in a real run), /proc stat lines, and the command line.
 */
class MeasurePartsTest {
  private static final String[] RUNNER_OUTPUT = {
    "[lag] ZooKeeper quorum 127.0.0.1:40207, table usertable, family family",
    "[lag load]     10 s  1,377 ops  137 ops/s  INSERT p50 21,551 p99 431,359 us",
    "[lag load] done: 20,000 ops in 30.9 s, 646 ops/s, 0 errors",
    "[lag A]     10 s  17,632 ops  1,763 ops/s  READ p50 1,271 p99 45,055 us",
    "[lag A] done: 17,690 ops in 8.0 s, 2,210 ops/s, 0 errors",
    "",
    "| phase | ops/s | operation | count | errors | not found | mean us | p50 us | p95 us | p99 us"
        + " | p99.9 us | max us |",
    "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    "| load | 646 | INSERT | 20,000 | 0 | 0 | 12,303 | 5,019 | 44,575 | 149,247 | 342,527 |"
        + " 912,383 |",
    "| A | 2,210 | READ | 8,779 | 0 | 0 | 3,756 | 1,276 | 14,207 | 45,055 | 111,615 | 150,015 |",
    "|  |  | UPDATE | 8,911 | 0 | 0 | 3,469 | 1,164 | 12,487 | 38,559 | 124,159 | 216,831 |",
    "| F | 1,000 | READ-MODIFY-WRITE | 10 | 0 | 0 | 3 | 4 | 5 | 6 | 7 | 8 |",
  };

  @Test
  void runnerOutputGivesPhasesAsTheyEndAndEveryLatencyRow() {
    RunnerProcess.OutputParser parser = new RunnerProcess.OutputParser();
    List<String> ended = new ArrayList<>();
    for (String line : RUNNER_OUTPUT) {
      RunnerProcess.Phase p = parser.accept(line);
      if (p != null) {
        ended.add(p.name());
      }
    }
    assertThat(ended).containsExactly("load", "A");
    RunnerProcess.Result r = parser.result(0);
    assertThat(r.phase("a").opsPerSecond()).isEqualTo(2210);
    assertThat(r.phase("load").operations()).isEqualTo(20_000);
    assertThat(r.phase("load").seconds()).isEqualTo(30.9);
    assertThat(r.latency("load", "INSERT")).containsExactly(5_019, 149_247);
    assertThat(r.latency("a", "READ")).containsExactly(1_276, 45_055);
    assertThat(r.latency("A", "UPDATE")).containsExactly(1_164, 38_559);
    assertThat(r.latency("f", "READ-MODIFY-WRITE")).containsExactly(4, 6);
    assertThat(r.latency("a", "INSERT")).isNull();
    assertThatThrownBy(() -> r.phase("c")).hasMessageContaining("did not finish phase c");
  }

  @Test
  void lagTableHasARowPerStageOfEitherSource() {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    Report report = new Report(new java.io.PrintStream(bytes, true));
    org.HdrHistogram.Histogram lag = new org.HdrHistogram.Histogram(3);
    lag.recordValue(120);
    org.HdrHistogram.Histogram put = new org.HdrHistogram.Histogram(3);
    put.recordValue(900);
    SourceSampler.Figures outage = new SourceSampler.Figures();
    outage.samples = 3;
    report.lagTable(
        java.util.Map.of("load", lag),
        java.util.Map.of("load", put),
        java.util.Map.of("load", put),
        java.util.Map.of("outage", outage));
    assertThat(bytes.toString())
        .contains("| outage | 0 |  |  |  |  |  | 3 samples, no replication sources reported |")
        .contains("| load | 1 | 120 | 120 | 120 | 900 / 900 | 900 / 900 / 900 |  |");
  }

  @Test
  void statLineGivesUserPlusSystemTicksAndANameWithSpacesAndParentheses() {
    String line =
        "4242 (replication-1 (x) y) S 1 2 3 0 -1 4194368 100 0 0 0 250 37 0 0 20 0 1 0 99 0 0";
    ThreadCpu.Entry e = ThreadCpu.parse(line);
    assertThat(e.name()).isEqualTo("replication-1 (x) y");
    assertThat(e.ticks()).isEqualTo(287);
    assertThatThrownBy(() -> ThreadCpu.parse("garbage")).hasMessageContaining("not a stat line");
  }

  @Test
  void ownThreadsAreReadFromProc() {
    ThreadCpu now = ThreadCpu.of(ProcessHandle.current().pid());
    ThreadCpu empty = ThreadCpu.of(Long.MAX_VALUE); // no such process
    assertThat(now.millisSince(empty)).isGreaterThan(0);
    assertThat(now.millisSince(now)).isZero();
    assertThat(now.millisSince(empty, "no thread is called this")).isZero();
  }

  @Test
  void optionsHaveThePublishedDefaultsAndRefuseBadValues() {
    MeasureOptions o = MeasureOptions.parse();
    assertThat(o.records()).isEqualTo(100_000);
    assertThat(o.threads()).isEqualTo(8);
    assertThat(o.regions()).isEqualTo(8);
    assertThat(o.outageSeconds()).isEqualTo(120);
    assertThat(o.outageMode()).isEqualTo(MeasureOptions.OutageMode.STOP);
    assertThat(o.runs("cost")).isTrue();

    MeasureOptions p =
        MeasureOptions.parse(
            "--outage-mode", "PAUSE", "--stages", "lag,compare", "-D", "k=v", "--records", "2_000");
    assertThat(p.outageMode()).isEqualTo(MeasureOptions.OutageMode.PAUSE);
    assertThat(p.runs("lag")).isTrue();
    assertThat(p.runs("cost")).isFalse();
    assertThat(p.serverSettings()).containsExactly("k=v");
    assertThat(p.records()).isEqualTo(2_000);

    assertThatThrownBy(() -> MeasureOptions.parse("--records", "0"))
        .hasMessage("--records must be at least 1, got 0");
    assertThatThrownBy(() -> MeasureOptions.parse("--outage-mode", "kill"))
        .hasMessageContaining("stop or pause");
    assertThatThrownBy(() -> MeasureOptions.parse("--stages", "lag,speed"))
        .hasMessageContaining("'speed'");
    assertThatThrownBy(() -> MeasureOptions.parse("-D", "novalue"))
        .hasMessageContaining("KEY=VALUE");
    assertThatThrownBy(() -> MeasureOptions.parse("--threads"))
        .hasMessage("--threads needs a value");
    assertThatThrownBy(() -> MeasureOptions.parse("--colour", "red"))
        .hasMessage("unknown option '--colour'");
  }
}
