package dev.basalt.bench.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the text YCSB's own client prints at the end of a run (one file per phase, one client JVM
 * per phase) into the workload runner's JSON, so that compare-hbase.sh's comparison report reads
 * both clients' results alike (CLIENT=ycsb, issue 36). YCSB's lines look like {@code [SCAN],
 * 99thPercentileLatency(us), 4711}; failed operations are measured under {@code [SCAN-FAILED]} and
 * counted per status under {@code [SCAN], Return=ERROR}. The server's CPU time of each phase is
 * measured by the script around the client JVM and given here.
 *
 * <pre>
 * java -cp benchmarks.jar dev.basalt.bench.workload.YcsbResults --label basalt --threads 8 \
 *     --records 100000 --json basalt.json --phase load load.txt 1520 --phase E e.txt 8710
 * </pre>
 */
public final class YcsbResults {
  private YcsbResults() {}

  public static void main(String[] args) throws IOException {
    String label = "cluster";
    String json = null;
    int threads = 1;
    long records = 0;
    List<PhaseResult> phases = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--label" -> label = args[++i];
        case "--json" -> json = args[++i];
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--records" -> records = Long.parseLong(args[++i]);
        case "--phase" -> {
          String name = args[++i];
          String text = Files.readString(Path.of(args[++i]), StandardCharsets.UTF_8);
          long cpu = Long.parseLong(args[++i]);
          phases.add(phase(name, records, threads, text, cpu));
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (json == null || phases.isEmpty()) {
      throw new IllegalArgumentException("--json FILE and at least one --phase are required");
    }
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("client", "YCSB core (site.ycsb.Client, dev.basalt.bench.ycsb.HBaseBinding)");
    settings.put("records", Long.toString(records));
    settings.put("threads", Integer.toString(threads));
    RunReport report = new RunReport(label, "YCSB", settings, phases);
    System.out.print(ResultTable.format(phases));
    Files.writeString(Path.of(json), ResultJson.write(report), StandardCharsets.UTF_8);
  }

  /** One phase from YCSB's output; {@code serverCpuMillis} is -1 when not measured. */
  static PhaseResult phase(
      String name, long records, int threads, String ycsbOutput, long serverCpuMillis) {
    Map<String, Map<String, String>> sections = new LinkedHashMap<>();
    for (String line : ycsbOutput.split("\n")) {
      String[] f = line.split(",", 3);
      if (f.length != 3 || !f[0].startsWith("[") || !f[0].endsWith("]")) {
        continue;
      }
      sections
          .computeIfAbsent(f[0].substring(1, f[0].length() - 1), k -> new LinkedHashMap<>())
          .put(f[1].trim(), f[2].trim());
    }
    Map<String, String> overall = sections.get("OVERALL");
    if (overall == null || !overall.containsKey("RunTime(ms)")) {
      throw new IllegalArgumentException(
          "phase " + name + ": no [OVERALL], RunTime(ms) line: not YCSB's output, or it failed");
    }
    double seconds = Double.parseDouble(overall.get("RunTime(ms)")) / 1000;
    // YCSB counts a read-modify-write once in its throughput, as the runner does
    long operations =
        Math.round(Double.parseDouble(overall.getOrDefault("Throughput(ops/sec)", "0")) * seconds);
    List<OpResult> ops = new ArrayList<>();
    for (Map.Entry<String, Map<String, String>> e : sections.entrySet()) {
      String op = e.getKey();
      if (op.equals("OVERALL") || op.equals("CLEANUP") || op.endsWith("-FAILED")) {
        continue;
      }
      if (!e.getValue().containsKey("Operations")) {
        continue; // garbage collection lines ([TOTAL_GCS_...]) and the like
      }
      ops.add(operation(op, e.getValue(), sections.get(op + "-FAILED")));
    }
    boolean load = name.equals("load") || name.equals("reload");
    WorkloadSpec spec = load ? null : WorkloadSpec.preset(name.toUpperCase(Locale.ROOT));
    return new PhaseResult(
        load ? name : spec.name(),
        load ? "insert " + records + " records (YCSB)" : spec.description(),
        load ? "-" : spec.distribution().label(),
        threads,
        0,
        operations,
        seconds,
        ops,
        serverCpuMillis);
  }

  private static OpResult operation(String op, Map<String, String> s, Map<String, String> failed) {
    long ok = longOf(s, "Operations");
    long failedCount = failed == null ? 0 : longOf(failed, "Operations");
    long notFound = longOf(s, "Return=NOT_FOUND");
    long errors = -notFound;
    for (Map.Entry<String, String> e : s.entrySet()) {
      if (e.getKey().startsWith("Return=") && !e.getKey().equals("Return=OK")) {
        errors += Long.parseLong(e.getValue());
      }
    }
    return new OpResult(
        op,
        ok + failedCount,
        errors,
        notFound,
        Double.parseDouble(s.getOrDefault("AverageLatency(us)", "0")),
        longOf(s, "50thPercentileLatency(us)"),
        longOf(s, "95thPercentileLatency(us)"),
        longOf(s, "99thPercentileLatency(us)"),
        longOf(s, "99.9PercentileLatency(us)"),
        longOf(s, "MaxLatency(us)"));
  }

  private static long longOf(Map<String, String> s, String key) {
    String v = s.get(key);
    return v == null ? 0 : Math.round(Double.parseDouble(v));
  }
}
