package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpLogTest {
  @TempDir Path dir;

  @Test
  void writesEachWorkersOperationsAfterOneHeader() throws Exception {
    Path file = dir.resolve("sub/ops.csv");
    long phaseStart = 5_000_000_000L;
    OpLog e = new OpLog();
    OpLog.Writer w0 = e.writer();
    OpLog.Writer w1 = e.writer();
    for (int i = 0; i < 3000; i++) { // past the first buffer
      w0.add(phaseStart + 1_000L * i, Operation.SCAN, 700 + i, 1 + i % 100);
    }
    w1.add(phaseStart + 2_500_000L, Operation.INSERT, 1234, 0);
    e.appendTo(file, true, "E", phaseStart);

    OpLog a = new OpLog();
    a.writer().add(99_000L, Operation.READ_MODIFY_WRITE, 88, 0);
    a.appendTo(file, false, "F", 0);

    var lines = Files.readAllLines(file);
    assertThat(lines).hasSize(1 + 3000 + 1 + 1);
    assertThat(lines.get(0)).isEqualTo(OpLog.HEADER);
    assertThat(lines.get(1)).isEqualTo("E,0,SCAN,0,700,1");
    assertThat(lines.get(3000)).isEqualTo("E,0,SCAN,2999,3699,100");
    assertThat(lines.get(3001)).isEqualTo("E,1,INSERT,2500,1234,0");
    assertThat(lines.get(3002)).isEqualTo("F,0,READ-MODIFY-WRITE,99,88,0");

    // A new first phase replaces the file.
    a.appendTo(file, true, "F", 0);
    assertThat(Files.readAllLines(file))
        .containsExactly(OpLog.HEADER, "F,0,READ-MODIFY-WRITE,99,88,0");
  }
}
