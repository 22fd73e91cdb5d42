package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class YcsbResultsTest {
  /** The shape of YCSB 0.17.0's text output (hdrhistogram.percentiles=50,95,99,99.9). */
  private static final String E_OUTPUT =
      String.join(
          "\n",
          "DBWrapper: report latency for each error is false and specific error codes ...",
          "[OVERALL], RunTime(ms), 10000",
          "[OVERALL], Throughput(ops/sec), 2000.5",
          "[TOTAL_GCS_G1_Young_Generation], Count, 4",
          "[TOTAL_GC_TIME], Time(ms), 32",
          "[CLEANUP], Operations, 8",
          "[CLEANUP], AverageLatency(us), 2761.625",
          "[INSERT], Operations, 1000",
          "[INSERT], AverageLatency(us), 1500.25",
          "[INSERT], MinLatency(us), 309",
          "[INSERT], MaxLatency(us), 61327",
          "[INSERT], 50thPercentileLatency(us), 1137",
          "[INSERT], 95thPercentileLatency(us), 5183",
          "[INSERT], 99thPercentileLatency(us), 9623",
          "[INSERT], 99.9PercentileLatency(us), 20711",
          "[INSERT], Return=OK, 1000",
          "[SCAN], Operations, 19000",
          "[SCAN], AverageLatency(us), 3700",
          "[SCAN], MaxLatency(us), 99000",
          "[SCAN], 50thPercentileLatency(us), 2700",
          "[SCAN], 95thPercentileLatency(us), 8300",
          "[SCAN], 99thPercentileLatency(us), 13600",
          "[SCAN], 99.9PercentileLatency(us), 52800",
          "[SCAN], Return=OK, 19000",
          "[SCAN], Return=ERROR, 3",
          "[SCAN], Return=NOT_FOUND, 2",
          "[SCAN-FAILED], Operations, 5",
          "[SCAN-FAILED], AverageLatency(us), 100",
          "");

  @Test
  void readsThroughputLatenciesAndStatusesAsTheRunnersPhase() {
    PhaseResult e = YcsbResults.phase("e", 20_000, 8, E_OUTPUT, 5_000);
    assertThat(e.phase()).isEqualTo("E");
    assertThat(e.operations()).isEqualTo(20_005);
    assertThat(e.seconds()).isEqualTo(10.0);
    assertThat(e.threads()).isEqualTo(8);
    assertThat(e.serverCpuMillis()).isEqualTo(5_000);
    assertThat(e.byOperation())
        .containsExactly(
            new OpResult("INSERT", 1000, 0, 0, 1500.25, 1137, 5183, 9623, 20711, 61327),
            new OpResult("SCAN", 19_005, 3, 2, 3700, 2700, 8300, 13600, 52800, 99000));
  }

  @Test
  void loadPhasesKeepTheirNameAndAnythingElseIsRefused() {
    PhaseResult load = YcsbResults.phase("reload", 500, 2, E_OUTPUT, -1);
    assertThat(load.phase()).isEqualTo("reload");
    assertThat(load.description()).isEqualTo("insert 500 records (YCSB)");
    assertThat(load.hasServerCpu()).isFalse();
    assertThatThrownBy(() -> YcsbResults.phase("e", 1, 1, "Exception in thread main", 0))
        .hasMessageContaining("no [OVERALL], RunTime(ms) line");
  }
}
