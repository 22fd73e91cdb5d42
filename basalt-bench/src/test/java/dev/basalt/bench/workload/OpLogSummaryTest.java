package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpLogSummaryTest {
  @TempDir Path dir;

  /**
   * One operation finishes every 100 us, except for two stalls: 4 ms and 12 ms with nothing
   * finishing. Scans of 1-50 rows take 1 ms, of 51-100 rows 2 ms.
   */
  @Test
  void findsStallsAndLengthDependence() throws Exception {
    StringBuilder sb = new StringBuilder(OpLog.HEADER).append('\n');
    long end = 10_000;
    for (int i = 0; i < 10_000; i++) {
      end += i == 3000 ? 4_000 : i == 7000 ? 12_000 : 100;
      int length = 1 + i % 100;
      long latency = length <= 50 ? 1_000 : 2_000;
      sb.append("E,")
          .append(i % 8)
          .append(",SCAN,")
          .append(end - latency)
          .append(',')
          .append(latency)
          .append(',')
          .append(length)
          .append('\n');
    }
    // The 12 ms stall runs from 713,900 to 725,900 us: one insert was in flight across all of it,
    // one started inside it.
    sb.append("E,8,INSERT,713000,13500,0\nE,9,INSERT,714000,20000,0\n");
    sb.append("A,0,READ,0,300,0\nA,1,UPDATE,50,500,0\n");
    Path file = dir.resolve("ops.csv");
    Files.writeString(file, sb);

    Map<String, OpLogSummary.Phase> phases = OpLogSummary.read(file);
    assertThat(phases.keySet()).containsExactly("E", "A");
    OpLogSummary.Phase e = phases.get("E");
    assertThat(e.stalls(1_000).count()).isEqualTo(2);
    assertThat(e.stalls(3_000).count()).isEqualTo(2);
    assertThat(e.stalls(10_000).count()).isEqualTo(1);
    assertThat(e.stalls(3_000).micros()).isEqualTo(16_000);
    assertThat(e.stalls(10_000).inFlight()).isEqualTo(1);
    assertThat(e.stalls(1_000).inFlight()).isEqualTo(1);
    // ~1 completion per 101.6 us: more than 1 ms without one is ~5e-5 likely per interval.
    assertThat(e.poissonGapsLongerThan(1_000)).isBetween(0.3, 0.8);

    List<long[]> bands = e.scansByLength();
    assertThat(bands).hasSize(10);
    assertThat(bands.get(0)).containsExactly(1, 10, 1_000, 1_000, 1_000);
    assertThat(bands.get(9)).containsExactly(91, 100, 1_000, 2_000, 2_000);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    e.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("phase E: 10,002 operations")
        .contains("SCAN                  10,000  p50   1,000 us  p99   2,000 us")
        .contains("      1-10       1,000  p50   1,000 us  p99   1,000 us")
        .contains(
            "> 10 ms:       1 (independent completions at this rate: 0), 12 ms in all;"
                + " 1 operations (0.01%) in flight across one");
  }

  @Test
  void percentilesAreNearestRank() {
    long[] s = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertThat(OpLogSummary.at(s, 0.5)).isEqualTo(5);
    assertThat(OpLogSummary.at(s, 0.99)).isEqualTo(10);
    assertThat(OpLogSummary.at(new long[] {7}, 0.99)).isEqualTo(7);
    assertThat(OpLogSummary.at(new long[0], 0.5)).isZero();
  }

  @Test
  void badFilesAreNamedWithTheirLine() throws Exception {
    Path notLog = dir.resolve("x.csv");
    Files.writeString(notLog, "a,b\n");
    assertThatThrownBy(() -> OpLogSummary.read(notLog))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an op log");
    Path shortLine = dir.resolve("y.csv");
    Files.writeString(shortLine, OpLog.HEADER + "\nE,0,SCAN,1,2\n");
    assertThatThrownBy(() -> OpLogSummary.read(shortLine))
        .hasMessage("line 2: expected 6 fields, got 5: 'E,0,SCAN,1,2'");
    Path notNumber = dir.resolve("z.csv");
    Files.writeString(notNumber, OpLog.HEADER + "\nE,0,SCAN,1,fast,3\n");
    assertThatThrownBy(() -> OpLogSummary.read(notNumber))
        .hasMessageStartingWith("line 2: not a number");
  }
}
