package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultFormatsTest {
  static RunReport sample() {
    PhaseResult load =
        new PhaseResult(
            "load",
            "insert 1000 records",
            "-",
            4,
            0,
            1000,
            2.0,
            List.of(new OpResult("INSERT", 1000, 0, 0, 812.5, 700, 1500, 2900, 8100, 12_000)));
    PhaseResult a =
        new PhaseResult(
            "A",
            "update heavy: 50% read, 50% update",
            "zipfian",
            4,
            1000,
            2000,
            4.0,
            List.of(
                new OpResult("READ", 1000, 2, 1, 500.25, 400, 900, 1800, 5000, 9000),
                new OpResult("UPDATE", 1000, 0, 0, 600, 500, 1000, 2000, 6000, 10_000)));
    return new RunReport(
        "hbase", "ZooKeeper quorum 127.0.0.1:2181", Map.of("records", "1000"), List.of(load, a));
  }

  @Test
  void jsonRoundTrips() {
    RunReport r = sample();
    String text = ResultJson.write(r);
    assertThat(text).contains("\"opsPerSecond\": 500.0").contains("\"p999Micros\": 5000");
    assertThat(ResultJson.read(text)).isEqualTo(r);
  }

  @Test
  void readingAFileOfAnotherShapeFailsClearly() {
    assertThatThrownBy(() -> ResultJson.read("[]")).hasMessage("the file is not a JSON object");
    assertThatThrownBy(
            () ->
                ResultJson.read(
                    "{\"label\":\"x\",\"target\":\"y\",\"settings\":{},\"phases\":[{\"phase\":1}]}"))
        .hasMessage("byOperation is not a JSON array");
  }

  @Test
  void tableHasOneRowPerOperationAndThroughputOnTheFirst() {
    String table = ResultTable.format(sample().phases());
    assertThat(table.split("\n"))
        .containsExactly(
            ResultTable.HEADER,
            ResultTable.RULE,
            "| load | 500 | INSERT | 1,000 | 0 | 0 | 813 | 700 | 1,500 | 2,900 | 8,100 | 12,000 |",
            "| A | 500 | READ | 1,000 | 2 | 1 | 500 | 400 | 900 | 1,800 | 5,000 | 9,000 |",
            "|  |  | UPDATE | 1,000 | 0 | 0 | 600 | 500 | 1,000 | 2,000 | 6,000 | 10,000 |");
  }
}
