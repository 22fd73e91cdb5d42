package dev.basalt.bench.replication;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The workload runner ({@code dev.basalt.bench.workload.WorkloadRunner}) in a JVM of its own, as
 * the published figures ran it, with this JVM's class path. Its output goes to a log file; the
 * lines that end a phase ({@code [label phase] done: ...}) are parsed, and each is passed on as it
 * comes, so the caller can move its own stage along with the runner's phases.
 */
final class RunnerProcess {
  private static final Pattern DONE =
      Pattern.compile(
          "^\\[\\S+ (\\S+)\\] done: ([\\d,]+) ops in ([\\d.]+) s, ([\\d,]+) ops/s, ([\\d,]+) errors");

  /**
   * A result table row: | phase | ops/s | operation | count | errors | not found | mean | p50...
   */
  private static final Pattern ROW =
      Pattern.compile("^\\|\\s*(\\S*)\\s*\\|\\s*[\\d,]*\\s*\\|\\s*([A-Z-]+)\\s*\\|(.*)\\|\\s*$");

  /** One finished phase: its throughput, and p50/p99 (µs) per operation type. */
  record Phase(String name, long operations, double seconds, double opsPerSecond, long errors) {}

  /** What a run of the runner gave. */
  record Result(List<Phase> phases, Map<String, long[]> p50p99ByPhaseAndOp, int exitStatus) {
    Phase phase(String name) {
      for (Phase p : phases) {
        if (p.name().equalsIgnoreCase(name)) { // the runner prints A-F in capitals
          return p;
        }
      }
      throw new IllegalStateException("the runner did not finish phase " + name);
    }

    /** p50 and p99 in µs of {@code op} in {@code phase}, or null. */
    long[] latency(String phase, String op) {
      return p50p99ByPhaseAndOp.get(phase.toLowerCase(Locale.ROOT) + " " + op);
    }
  }

  private RunnerProcess() {}

  /**
   * Runs the runner with {@code args} after {@code jvmOptions} and waits for it; {@code onDone} is
   * called on the reading thread as each phase ends.
   */
  static Result run(String jvmOptions, List<String> args, Path log, Consumer<Phase> onDone)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    if (!jvmOptions.isBlank()) {
      cmd.addAll(Arrays.asList(jvmOptions.trim().split("\\s+")));
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("dev.basalt.bench.workload.WorkloadRunner");
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    OutputParser parser = new OutputParser();
    try (BufferedReader in =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out =
            new PrintWriter(
                Files.newBufferedWriter(
                    log,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND))) {
      out.println("$ " + String.join(" ", cmd.subList(cmd.indexOf("-cp") + 2, cmd.size())));
      String line;
      while ((line = in.readLine()) != null) {
        out.println(line);
        out.flush();
        Phase done = parser.accept(line);
        if (done != null) {
          onDone.accept(done);
        }
      }
    }
    return parser.result(p.waitFor());
  }

  /** Reads the runner's output a line at a time: the phases' ends and the result table's rows. */
  static final class OutputParser {
    private final List<Phase> phases = new ArrayList<>();
    private final Map<String, long[]> latencies = new LinkedHashMap<>();
    private String tablePhase = "";

    /** Takes one line; returns the phase it ends, if it is a "done" line, else null. */
    Phase accept(String line) {
      Matcher done = DONE.matcher(line);
      if (done.find()) {
        Phase ph =
            new Phase(
                done.group(1),
                number(done.group(2)),
                Double.parseDouble(done.group(3)),
                number(done.group(4)),
                number(done.group(5)));
        phases.add(ph);
        return ph;
      }
      Matcher row = ROW.matcher(line);
      if (row.find()) {
        if (!row.group(1).isEmpty()) {
          tablePhase = row.group(1).toLowerCase(Locale.ROOT);
        }
        // count | errors | not found | mean | p50 | p95 | p99 | p99.9 | max
        String[] cells = row.group(3).split("\\|");
        if (cells.length >= 7) {
          latencies.put(
              tablePhase + " " + row.group(2), new long[] {number(cells[4]), number(cells[6])});
        }
      }
      return null;
    }

    Result result(int exitStatus) {
      return new Result(List.copyOf(phases), Map.copyOf(latencies), exitStatus);
    }
  }

  private static long number(String s) {
    return Long.parseLong(s.trim().replace(",", ""));
  }
}
