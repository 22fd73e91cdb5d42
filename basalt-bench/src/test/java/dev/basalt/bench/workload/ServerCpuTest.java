package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerCpuTest {
  @Test
  void parsesUtimePlusStimeAfterACommandNameWithSpacesAndParentheses() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    String line = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 9 0 0 0 1234 567 0 0 20 0 40";
    assertThat(ServerCpu.parseTicks(line)).isEqualTo(1234 + 567);
    assertThatThrownBy(() -> ServerCpu.parseTicks("garbage"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a /proc stat line");
  }

  @Test
  void readsThisProcessAndCountsTheCpuItSpends() {
    long pid = ProcessHandle.current().pid();
    long before = ServerCpu.millis(pid);
    assertThat(before).isGreaterThanOrEqualTo(0);
    long end = System.nanoTime() + 300_000_000L; // 0.3 s of CPU, far above the 10 ms tick
    long x = 0;
    while (System.nanoTime() < end) {
      x += x * 31 + 7;
    }
    long spent = ServerCpu.between(before, ServerCpu.millis(pid));
    assertThat(spent).as("spin result %d", x).isGreaterThanOrEqualTo(100);
  }

  @Test
  void aMissingProcessReadsAsUnmeasured() {
    assertThat(ServerCpu.millis(0)).isEqualTo(-1);
    assertThat(ServerCpu.millis(Long.MAX_VALUE)).isEqualTo(-1);
    assertThat(ServerCpu.between(-1, 5)).isEqualTo(-1);
    assertThat(ServerCpu.between(5, 12)).isEqualTo(7);
  }

  @Test
  void runnerOptionTakesAPid() throws Exception {
    assertThat(RunnerOptions.parse("--zookeeper", "h:1", "--server-pid", "77").serverPid())
        .isEqualTo(77);
    assertThat(RunnerOptions.parse("--zookeeper", "h:1").serverPid()).isZero();
    assertThatThrownBy(() -> RunnerOptions.parse("--zookeeper", "h:1", "--server-pid", "0"))
        .hasMessage("--server-pid must be at least 1, got 0");
  }

  private static PhaseResult phase(String name, long ops, long cpuMillis) {
    return new PhaseResult(
        name,
        "short ranges: 95% scan, 5% insert",
        "zipfian",
        8,
        0,
        ops,
        10,
        List.of(new OpResult("SCAN", ops, 0, 0, 100, 90, 300, 450, 900, 1000)),
        cpuMillis);
  }

  @Test
  void cpuPerOperationRoundTripsThroughJsonAndOldFilesReadAsUnmeasured() {
    RunReport r = new RunReport("x", "y", Map.of(), List.of(phase("E", 40_000, 36_000)));
    String json = ResultJson.write(r);
    assertThat(json).contains("\"serverCpuMillis\": 36000");
    PhaseResult back = ResultJson.read(json).phases().get(0);
    assertThat(back).isEqualTo(r.phases().get(0));
    assertThat(back.serverCpuMicrosPerOperation()).isEqualTo(900.0);
    PhaseResult old = ResultJson.read(ResultJson.write(ResultFormatsTest.sample())).phases().get(0);
    assertThat(old.hasServerCpu()).isFalse();
    assertThat(ResultJson.write(ResultFormatsTest.sample())).doesNotContain("serverCpuMillis");
  }

  @Test
  void reportShowsCpuPerOperationBesideThroughputOnlyWhenMeasured() {
    SystemRun hbase =
        new SystemRun(
            "HBase",
            new RunReport("h", "y", Map.of(), List.of(phase("E", 10_000, 8_900))),
            Map.of());
    SystemRun basalt =
        new SystemRun(
            "Basalt",
            new RunReport("b", "y", Map.of(), List.of(phase("E", 20_000, 4_450))),
            Map.of());
    String s = ComparisonReport.section(hbase, basalt, "");
    assertThat(s)
        .contains(
            "| phase | HBase | Basalt | Basalt ÷ HBase | target | HBase server CPU per op |"
                + " Basalt server CPU per op | Basalt ÷ HBase |")
        .contains("| E (short ranges) | 1,000 | 2,000 | 2.00x | >= 1.5x | 890 | 223 | 0.25x |");
    String without =
        ComparisonReport.section(
            new SystemRun("HBase", ResultFormatsTest.sample(), Map.of()),
            SystemRun.pending("Basalt"),
            "");
    assertThat(without).doesNotContain("server CPU per op");
  }
}
