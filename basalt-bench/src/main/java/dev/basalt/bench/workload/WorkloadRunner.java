package dev.basalt.bench.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * YCSB-style workload runner (issue 9): loads records and runs YCSB's core workloads A-F through
 * the stock HBase client against any HBase-protocol cluster, printing a progress line every few
 * seconds and, at the end, per-operation latency percentiles and throughput as a table (and as JSON
 * with {@code --json}).
 *
 * <pre>
 * java -cp basalt-bench/target/benchmarks.jar dev.basalt.bench.workload.WorkloadRunner \
 *     --zookeeper 127.0.0.1:2181 --records 100000 --operations 100000 --threads 8 \
 *     --workloads load,a,b,c,f,d,e --json results.json
 * </pre>
 *
 * Exit status: 0 when every phase ran (operation errors are reported, not fatal), 1 when the
 * cluster could not be used, 2 for bad arguments.
 */
public final class WorkloadRunner {
  private WorkloadRunner() {}

  public static void main(String[] args) {
    RunnerOptions options;
    try {
      options = RunnerOptions.parse(args);
    } catch (UsageException e) {
      boolean help = e.getMessage().equals("help");
      PrintStream to = help ? System.out : System.err;
      if (!help) {
        to.println("error: " + e.getMessage());
        to.println();
      }
      to.println(RunnerOptions.USAGE);
      System.exit(help ? 0 : 2);
      return;
    }
    try {
      run(options, System.out);
      System.exit(0);
    } catch (Exception e) {
      System.err.println("error: " + e);
      e.printStackTrace(System.err);
      System.exit(1);
    }
  }

  static RunReport run(RunnerOptions options, PrintStream out)
      throws IOException, InterruptedException {
    try (DataStore store = new HBaseStore(options)) {
      return run(options, store, out);
    }
  }

  /** Runs every phase against {@code store}; prints and (with --json) writes the results. */
  static RunReport run(RunnerOptions options, DataStore store, PrintStream out)
      throws IOException, InterruptedException {
    out.println("[" + options.label() + "] " + store.describe());
    out.println("[" + options.label() + "] " + settings(options));
    boolean loads = options.phases().get(0).equals("load");
    store.prepareTable(loads && options.recreateTable(), options.regions());

    PhaseRunner runner = new PhaseRunner(options, store, out);
    List<PhaseResult> results = new ArrayList<>();
    for (String phase : options.phases()) {
      PhaseResult r = runner.runPhase(phase);
      results.add(r);
      out.printf(
          Locale.ROOT,
          "[%s %s] done: %,d ops in %.1f s, %,.0f ops/s, %,d errors%s%n",
          options.label(),
          phase,
          r.operations(),
          r.seconds(),
          r.opsPerSecond(),
          r.errors(),
          r.hasServerCpu()
              ? String.format(
                  Locale.ROOT,
                  ", server CPU %.1f s (%,.0f us per op)",
                  r.serverCpuMillis() / 1000.0,
                  r.serverCpuMicrosPerOperation())
              : "");
    }
    RunReport report = new RunReport(options.label(), store.describe(), settings(options), results);
    out.println();
    out.print(ResultTable.format(results));
    if (options.jsonFile() != null) {
      Path file = Path.of(options.jsonFile());
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      Files.writeString(file, ResultJson.write(report), StandardCharsets.UTF_8);
      out.println("results written to " + file);
    }
    return report;
  }

  static Map<String, String> settings(RunnerOptions o) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("records", Long.toString(o.records()));
    s.put("operations", Long.toString(o.operations()));
    s.put("threads", Integer.toString(o.threads()));
    s.put("fields", o.fieldCount() + " x " + o.fieldLength() + " B");
    s.put("target", o.targetOpsPerSecond() > 0 ? o.targetOpsPerSecond() + " ops/s" : "none");
    s.put("warmup", o.warmupSeconds() + " s");
    s.put("maxSeconds", o.maxSeconds() > 0 ? o.maxSeconds() + " s" : "none");
    s.put("distribution", o.distribution() == null ? "per workload" : o.distribution().label());
    s.put("maxScanLength", Integer.toString(o.maxScanLength()));
    s.put("regions", Integer.toString(o.regions()));
    s.put("seed", Long.toString(o.seed()));
    s.put("serverPid", o.serverPid() > 0 ? Long.toString(o.serverPid()) : "none");
    s.put("writeBuffer", "none (every put is one synchronous RPC)");
    return s;
  }
}
