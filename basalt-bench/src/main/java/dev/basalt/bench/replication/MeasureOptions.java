package dev.basalt.bench.replication;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The settings of {@link ReplicationMeasure}, from its command line. The workload defaults are
 * those of the published comparison (docs/PERFORMANCE.md section 1: 100,000 records, 8 threads, 8
 * regions, 10 s of warm-up and 30 s measured, servers with a 4 GiB heap).
 */
record MeasureOptions(
    Path root,
    String launcher,
    String heap,
    List<String> serverSettings,
    long records,
    int threads,
    int regions,
    long warmupSeconds,
    long maxSeconds,
    String runnerOpts,
    long probePeriodMillis,
    long idleSeconds,
    long outageSeconds,
    int outageRate,
    int outageThreads,
    OutageMode outageMode,
    int costRuns,
    List<String> stages) {

  /** How the peer is taken down for the outage. */
  enum OutageMode {
    /** SIGTERM (a clean stop), then a new process on the same root and ports. */
    STOP,
    /** SIGSTOP, then SIGCONT: a hung peer whose connections stay open. */
    PAUSE
  }

  static final String USAGE =
      String.join(
          "\n",
          "usage: ReplicationMeasure [options]",
          "",
          "Starts two Basalt standalone servers (A and B) as child processes, replicates the workload",
          "runner's table from A to B, and measures replication lag under the runner's load and A",
          "phases, catch-up after an outage of B, and the throughput cost of the peer on A.",
          "",
          "  --root DIR           work directory (the servers' roots, logs, report.md); default: new",
          "                       directory under /tmp",
          "  --basalt PATH        launcher of the servers (bin/basalt)",
          "  --heap SIZE          heap of each server, as BASALT_HEAP (4g)",
          "  -D KEY=VALUE         server setting for both servers (repeatable)",
          "  --records N          records of the load phase (100000)",
          "  --threads N          runner threads (8)",
          "  --regions N          regions of the table, pre-split (8)",
          "  --warmup S           runner warm-up before each measured A phase (10)",
          "  --max-seconds S      measured seconds of each A phase (30)",
          "  --runner-opts OPTS   JVM options of the runner (\"-Xms2g -Xmx2g -XX:+AlwaysPreTouch\")",
          "  --probe-period MS    the lag probe writes a marker this often (100)",
          "  --idle-seconds S     lag probe alone before the load, and after the outage (10)",
          "  --outage-seconds S   how long B is down (120)",
          "  --outage-rate N      rows per second written to A while B is down (1000)",
          "  --outage-threads N   writer threads during the outage (4)",
          "  --outage-mode M      stop (SIGTERM, restart on the same root) or pause (SIGSTOP/SIGCONT)",
          "                       (stop)",
          "  --cost-runs N        A phases with and without the peer, each (3)",
          "  --stages LIST        of lag,outage,compare,cost (all, in that order)",
          "  --help               this text");

  static MeasureOptions parse(String... args) {
    Path root = null;
    String launcher = "bin/basalt";
    String heap = "4g";
    List<String> settings = new ArrayList<>();
    long records = 100_000;
    int threads = 8;
    int regions = 8;
    long warmup = 10;
    long maxSeconds = 30;
    String runnerOpts = "-Xms2g -Xmx2g -XX:+AlwaysPreTouch";
    long probePeriod = 100;
    long idleSeconds = 10;
    long outageSeconds = 120;
    int outageRate = 1000;
    int outageThreads = 4;
    OutageMode mode = OutageMode.STOP;
    int costRuns = 3;
    List<String> stages = List.of("lag", "outage", "compare", "cost");
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        throw new IllegalArgumentException("help");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(arg + " needs a value");
      }
      String v = args[++i];
      switch (arg) {
        case "--root" -> root = Path.of(v);
        case "--basalt" -> launcher = v;
        case "--heap" -> heap = v;
        case "-D" -> {
          if (!v.contains("=")) {
            throw new IllegalArgumentException("-D needs KEY=VALUE, got '" + v + "'");
          }
          settings.add(v);
        }
        case "--records" -> records = positive(arg, v);
        case "--threads" -> threads = (int) positive(arg, v);
        case "--regions" -> regions = (int) positive(arg, v);
        case "--warmup" -> warmup = nonNegative(arg, v);
        case "--max-seconds" -> maxSeconds = positive(arg, v);
        case "--runner-opts" -> runnerOpts = v;
        case "--probe-period" -> probePeriod = positive(arg, v);
        case "--idle-seconds" -> idleSeconds = nonNegative(arg, v);
        case "--outage-seconds" -> outageSeconds = positive(arg, v);
        case "--outage-rate" -> outageRate = (int) positive(arg, v);
        case "--outage-threads" -> outageThreads = (int) positive(arg, v);
        case "--outage-mode" -> mode = mode(v);
        case "--cost-runs" -> costRuns = (int) nonNegative(arg, v);
        case "--stages" -> stages = stages(v);
        default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
      }
    }
    return new MeasureOptions(
        root,
        launcher,
        heap,
        List.copyOf(settings),
        records,
        threads,
        regions,
        warmup,
        maxSeconds,
        runnerOpts,
        probePeriod,
        idleSeconds,
        outageSeconds,
        outageRate,
        outageThreads,
        mode,
        costRuns,
        stages);
  }

  boolean runs(String stage) {
    return stages.contains(stage);
  }

  private static long positive(String option, String value) {
    long n = number(option, value);
    if (n < 1) {
      throw new IllegalArgumentException(option + " must be at least 1, got " + value);
    }
    return n;
  }

  private static long nonNegative(String option, String value) {
    long n = number(option, value);
    if (n < 0) {
      throw new IllegalArgumentException(option + " must not be negative, got " + value);
    }
    return n;
  }

  private static long number(String option, String value) {
    try {
      return Long.parseLong(value.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a whole number, got '" + value + "'");
    }
  }

  private static OutageMode mode(String value) {
    try {
      return OutageMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--outage-mode is stop or pause, got '" + value + "'");
    }
  }

  private static List<String> stages(String value) {
    List<String> known = List.of("lag", "outage", "compare", "cost");
    List<String> out = new ArrayList<>();
    for (String s : value.split(",")) {
      String stage = s.trim().toLowerCase(Locale.ROOT);
      if (!known.contains(stage)) {
        throw new IllegalArgumentException(
            "--stages takes " + String.join(",", known) + ", got '" + s + "'");
      }
      out.add(stage);
    }
    return List.copyOf(out);
  }
}
