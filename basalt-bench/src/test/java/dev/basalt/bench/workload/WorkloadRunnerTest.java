package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole runner against an in-memory store: counts and outcomes, never timings. */
class WorkloadRunnerTest {
  @TempDir Path dir;

  @Test
  void loadsThenRunsEveryWorkload() throws Exception {
    Path json = dir.resolve("r.json");
    RunnerOptions o =
        RunnerOptions.parse(
            "--zookeeper",
            "unused:1",
            "--records",
            "500",
            "--operations",
            "400",
            "--threads",
            "3",
            "--fields",
            "4",
            "--field-length",
            "8",
            "--max-scan-length",
            "5",
            "--regions",
            "4",
            "--recreate-table",
            "--label",
            "mem",
            "--json",
            json.toString());
    InMemoryStore store = new InMemoryStore();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    RunReport report =
        WorkloadRunner.run(o, store, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(store.recreations).as("the first load and the reload before E").isEqualTo(2);
    assertThat(store.preparedRegions).isEqualTo(4);
    assertThat(store.sessionsOpen.get()).isZero();
    assertThat(report.phases())
        .extracting(PhaseResult::phase)
        .containsExactly("load", "A", "B", "C", "F", "D", "reload", "E");
    for (PhaseResult p : report.phases()) {
      long expected = p.phase().endsWith("load") ? 500 : 400;
      assertThat(p.operations()).as(p.phase()).isEqualTo(expected);
      assertThat(p.errors()).as(p.phase()).isZero();
      for (OpResult op : p.byOperation()) {
        assertThat(op.notFound()).as(p.phase() + " " + op.operation()).isZero();
        assertThat(op.p50Micros()).isLessThanOrEqualTo(op.p99Micros());
        assertThat(op.p99Micros()).isLessThanOrEqualTo(op.maxMicros());
      }
    }
    // D inserted records, but the reload dropped them: E's inserts came on top of the 500 loaded
    // records, numbered from 500 on again, every field of each written.
    assertThat(inserts(report, "D")).isPositive();
    long inserts = inserts(report, "E");
    assertThat(inserts).isPositive();
    assertThat(store.rows.keySet())
        .containsExactlyInAnyOrderElementsOf(
            LongStream.range(0, 500 + inserts).mapToObj(KeyNames::rowKey).toList());
    assertThat(store.rows.firstEntry().getValue()).hasSize(4);
    // F's read-modify-writes are also recorded as their reads and updates.
    PhaseResult f = report.phases().get(4);
    long rmw = count(f, "READ-MODIFY-WRITE");
    assertThat(count(f, "READ") + rmw).isEqualTo(400 + rmw);
    assertThat(count(f, "UPDATE")).isEqualTo(rmw);

    assertThat(ResultJson.read(Files.readString(json))).isEqualTo(report);
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains("[mem E] done: 400 ops").contains(ResultTable.HEADER);
  }

  @Test
  void aSecondInvocationRunsWithoutLoading() throws Exception {
    InMemoryStore store = new InMemoryStore();
    runQuietly(store, "--records", "200", "--workloads", "load");
    RunReport c =
        runQuietly(
            store,
            "--records",
            "200",
            "--workloads",
            "c",
            "--threads",
            "2",
            "--distribution",
            "uniform",
            "--recreate-table");
    assertThat(store.recreations).as("only a loading invocation drops the table").isZero();
    assertThat(c.phases().get(0).byOperation().get(0).notFound()).isZero();
    assertThat(c.phases().get(0).distribution()).isEqualTo("uniform");
  }

  /**
   * A run phase stops at its time limit with operations left; the load, which the run phases depend
   * on, inserts every record however long it takes.
   */
  @Test
  void theTimeLimitStopsRunPhasesButNotTheLoad() throws Exception {
    InMemoryStore store = new InMemoryStore();
    store.insertMillis = 5; // 400 records on 2 threads: about a second
    RunReport r =
        runQuietly(
            store,
            "--records",
            "400",
            "--operations",
            "1000000000",
            "--max-seconds",
            "1",
            "--threads",
            "2",
            "--workloads",
            "load,c");
    assertThat(r.phases().get(0).operations()).isEqualTo(400);
    assertThat(store.rows).hasSize(400);
    assertThat(r.phases().get(1).operations()).isPositive().isLessThan(1_000_000_000L);
    assertThat(r.phases().get(1).byOperation().get(0).notFound()).isZero();
  }

  /** Every measured operation of every run phase is in the op log; the load's are not. */
  @Test
  void theOpLogHoldsEveryMeasuredOperation() throws Exception {
    Path log = dir.resolve("ops.csv");
    RunReport r =
        runQuietly(
            new InMemoryStore(),
            "--records",
            "300",
            "--operations",
            "250",
            "--threads",
            "2",
            "--max-scan-length",
            "7",
            "--workloads",
            "load,e,a",
            "--recreate-table",
            "--op-log",
            log.toString());
    List<String> lines = Files.readAllLines(log);
    assertThat(lines.get(0)).isEqualTo(OpLog.HEADER);
    assertThat(lines.subList(1, lines.size()))
        .hasSize(500)
        .allSatisfy(l -> assertThat(l).matches("(E|A),[01],[A-Z-]+,\\d+,\\d+,\\d+"));
    long scans = lines.stream().filter(l -> l.startsWith("E,") && l.contains(",SCAN,")).count();
    assertThat(scans).isEqualTo(count(r.phases().get(1), "SCAN"));
    assertThat(lines.stream().filter(l -> l.contains(",SCAN,")))
        .allSatisfy(
            l -> assertThat(Integer.parseInt(l.substring(l.lastIndexOf(',') + 1))).isBetween(1, 7));
    assertThat(lines.stream().filter(l -> l.startsWith("A,")))
        .hasSize(250)
        .allSatisfy(l -> assertThat(l).endsWith(",0"));
    assertThat(OpLogSummary.read(log).keySet()).containsExactly("E", "A");
  }

  /** Runs the runner against {@code store} (through a made-up quorum), printing nowhere. */
  private static RunReport runQuietly(DataStore store, String... args) throws Exception {
    String[] all = new String[args.length + 2];
    all[0] = "--zookeeper";
    all[1] = "x:1";
    System.arraycopy(args, 0, all, 2, args.length);
    return WorkloadRunner.run(
        RunnerOptions.parse(all),
        store,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  private static long inserts(RunReport report, String phase) {
    return report.phases().stream()
        .filter(p -> p.phase().equals(phase))
        .mapToLong(p -> count(p, "INSERT"))
        .sum();
  }

  private static long count(PhaseResult p, String op) {
    return p.byOperation().stream()
        .filter(o -> o.operation().equals(op))
        .mapToLong(OpResult::count)
        .sum();
  }
}
