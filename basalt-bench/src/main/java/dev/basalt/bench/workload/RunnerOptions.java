package dev.basalt.bench.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The workload runner's settings, parsed from the command line ({@link #parse}). Defaults are
 * YCSB's where YCSB has one (1,000 records and operations, 10 fields of 100 bytes, table
 * "usertable"), so a run without options is a small YCSB run.
 */
record RunnerOptions(
    String zookeeper,
    String bootstrap,
    String table,
    String family,
    List<String> phases,
    long records,
    long operations,
    long maxSeconds,
    int threads,
    double targetOpsPerSecond,
    long warmupSeconds,
    int fieldCount,
    int fieldLength,
    Distribution distribution,
    int maxScanLength,
    int regions,
    boolean recreateTable,
    long statusIntervalSeconds,
    long seed,
    String label,
    String jsonFile,
    String opLogFile,
    long serverPid,
    Map<String, String> clientSettings) {

  static final String USAGE =
      String.join(
          "\n",
          "usage: WorkloadRunner (--zookeeper HOST:PORT[,HOST:PORT...] | --bootstrap HOST:PORT[,...])",
          "                      [options]",
          "",
          "Runs YCSB's core workloads through the stock HBase client against any HBase-protocol",
          "cluster and prints per-operation latency percentiles and throughput.",
          "",
          "  --zookeeper Q          ZooKeeper quorum of the cluster (host:port pairs)",
          "  --bootstrap S          bootstrap servers for the RPC connection registry instead",
          "  --workloads LIST       phases in order, from load,reload,a,b,c,d,e,f (default",
          "                         load,a,b,c,f,d,reload,e: YCSB's procedure); reload drops",
          "                         and re-creates the table and loads it again",
          "  --records N            records the load phase inserts and the others read (1000)",
          "  --operations N         operations per run phase, after warm-up (1000)",
          "  --max-seconds S        stop a run phase after S measured seconds even if operations",
          "                         remain (0: none); the load always inserts every record",
          "  --threads N            client threads (1)",
          "  --target OPS           target operations per second over all threads (0: as fast as",
          "                         possible)",
          "  --warmup S             seconds of unrecorded operations before each run phase (0)",
          "  --fields N             fields per record (10)",
          "  --field-length N       bytes per field (100)",
          "  --distribution D       zipfian, uniform or latest: overrides the workloads' own",
          "  --max-scan-length N    longest scan of workload E (100)",
          "  --table NAME           table (usertable)",
          "  --family NAME          column family (family)",
          "  --regions N            regions of a table the runner creates, pre-split (1)",
          "  --recreate-table       drop the table first if it exists",
          "  --status-interval S    seconds between progress lines (10)",
          "  --seed N               seed of every random choice (42)",
          "  --label NAME           name of the system under test in reports (cluster)",
          "  --json FILE            also write the results as JSON to FILE",
          "  --op-log FILE          also write every measured operation (start, latency, scan",
          "                         length) as CSV to FILE; summarise it with OpLogSummary",
          "  --server-pid PID       also measure the CPU time of that process (the server, on",
          "                         this machine; every thread, from /proc/PID/stat) in each",
          "                         phase's measured window",
          "  -D KEY=VALUE           HBase client setting (repeatable)",
          "  --help                 this text",
          "",
          "For latency figures give this JVM a fixed heap touched at start (java -Xms2g -Xmx2g",
          "-XX:+AlwaysPreTouch ...), as compare-hbase.sh does: a growing heap and young pauses",
          "every few hundred milliseconds in the client otherwise land in the measured tail.");

  static RunnerOptions parse(String... args) throws UsageException {
    Builder b = new Builder();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String inlineValue = null;
      if (arg.startsWith("--") && arg.contains("=")) {
        inlineValue = arg.substring(arg.indexOf('=') + 1);
        arg = arg.substring(0, arg.indexOf('='));
      }
      if (arg.equals("--help") || arg.equals("-h")) {
        throw new UsageException("help");
      }
      if (arg.equals("--recreate-table")) {
        b.recreateTable = true;
        continue;
      }
      if (arg.startsWith("-D") && arg.length() > 2) { // -Dkey=value
        b.setting(arg.substring(2));
        continue;
      }
      String value;
      if (inlineValue != null) {
        value = inlineValue;
      } else {
        if (i + 1 >= args.length) {
          throw new UsageException(arg + " needs a value");
        }
        value = args[++i];
      }
      switch (arg) {
        case "--zookeeper" -> b.zookeeper = nonEmpty(arg, value);
        case "--bootstrap" -> b.bootstrap = nonEmpty(arg, value);
        case "--workloads" -> b.phases = phases(value);
        case "--records" -> b.records = longAtLeast(arg, value, 1);
        case "--operations" -> b.operations = longAtLeast(arg, value, 1);
        case "--max-seconds" -> b.maxSeconds = longAtLeast(arg, value, 0);
        case "--threads" -> b.threads = (int) longBetween(arg, value, 1, 1024);
        case "--target" -> b.target = nonNegative(arg, value);
        case "--warmup" -> b.warmupSeconds = longAtLeast(arg, value, 0);
        case "--fields" -> b.fieldCount = (int) longBetween(arg, value, 1, 1000);
        case "--field-length" -> b.fieldLength = (int) longBetween(arg, value, 1, 1 << 20);
        case "--distribution" -> b.distribution = distribution(arg, value);
        case "--max-scan-length" -> b.maxScanLength = (int) longBetween(arg, value, 1, 100_000);
        case "--table" -> b.table = nonEmpty(arg, value);
        case "--family" -> b.family = nonEmpty(arg, value);
        case "--regions" -> b.regions = (int) longBetween(arg, value, 1, 10_000);
        case "--status-interval" -> b.statusInterval = longBetween(arg, value, 1, 86_400);
        case "--seed" -> b.seed = longValue(arg, value);
        case "--label" -> b.label = nonEmpty(arg, value);
        case "--json" -> b.json = nonEmpty(arg, value);
        case "--op-log" -> b.opLog = nonEmpty(arg, value);
        case "--server-pid" -> b.serverPid = longAtLeast(arg, value, 1);
        case "-D" -> b.setting(value);
        default -> throw new UsageException("unknown option '" + arg + "'");
      }
    }
    return b.build();
  }

  private static String nonEmpty(String option, String value) throws UsageException {
    if (value.isBlank()) {
      throw new UsageException(option + " needs a non-empty value");
    }
    return value.trim();
  }

  private static long longValue(String option, String value) throws UsageException {
    try {
      return Long.parseLong(value.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException(option + " expects a whole number, got '" + value + "'");
    }
  }

  private static long longAtLeast(String option, String value, long min) throws UsageException {
    long v = longValue(option, value);
    if (v < min) {
      throw new UsageException(option + " must be at least " + min + ", got " + v);
    }
    return v;
  }

  private static long longBetween(String option, String value, long min, long max)
      throws UsageException {
    long v = longValue(option, value);
    if (v < min || v > max) {
      throw new UsageException(option + " must be between " + min + " and " + max + ", got " + v);
    }
    return v;
  }

  private static double nonNegative(String option, String value) throws UsageException {
    double v;
    try {
      v = Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw new UsageException(option + " expects a number, got '" + value + "'");
    }
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new UsageException(option + " must be a finite number >= 0, got " + value);
    }
    return v;
  }

  private static Distribution distribution(String option, String value) throws UsageException {
    try {
      return Distribution.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + ": " + e.getMessage());
    }
  }

  private static List<String> phases(String value) throws UsageException {
    List<String> out = new ArrayList<>();
    for (String part : value.split(",")) {
      String p = part.trim().toUpperCase(Locale.ROOT);
      if (p.isEmpty()) {
        continue;
      }
      if (p.equals("LOAD") || p.equals("RELOAD")) {
        out.add(p.toLowerCase(Locale.ROOT));
        continue;
      }
      try {
        WorkloadSpec.preset(p);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--workloads: " + e.getMessage());
      }
      out.add(p);
    }
    if (out.isEmpty()) {
      throw new UsageException("--workloads needs at least one of load, a, b, c, d, e, f");
    }
    if (out.lastIndexOf("load") > 0) {
      throw new UsageException(
          "--workloads: load can only come first (reload loads again later), got '" + value + "'");
    }
    if (out.get(0).equals("reload")) {
      throw new UsageException(
          "--workloads: reload can only follow another phase (start with load and"
              + " --recreate-table), got '"
              + value
              + "'");
    }
    return Collections.unmodifiableList(out);
  }

  /** The workload of a run phase, with the command line's overrides applied. */
  WorkloadSpec workload(String phase) {
    WorkloadSpec spec = WorkloadSpec.preset(phase).withMaxScanLength(maxScanLength);
    return distribution == null ? spec : spec.withDistribution(distribution);
  }

  private static final class Builder {
    String zookeeper;
    String bootstrap;
    String table = "usertable";
    String family = "family";
    List<String> phases = List.of("load", "A", "B", "C", "F", "D", "reload", "E");
    long records = 1000;
    long operations = 1000;
    long maxSeconds;
    int threads = 1;
    double target;
    long warmupSeconds;
    int fieldCount = 10;
    int fieldLength = 100;
    Distribution distribution;
    int maxScanLength = WorkloadSpec.YCSB_MAX_SCAN_LENGTH;
    int regions = 1;
    boolean recreateTable;
    long statusInterval = 10;
    long seed = 42;
    String label = "cluster";
    String json;
    String opLog;
    long serverPid;
    final Map<String, String> settings = new LinkedHashMap<>();

    void setting(String keyValue) throws UsageException {
      int eq = keyValue.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("-D expects KEY=VALUE, got '" + keyValue + "'");
      }
      settings.put(keyValue.substring(0, eq).trim(), keyValue.substring(eq + 1).trim());
    }

    RunnerOptions build() throws UsageException {
      if ((zookeeper == null) == (bootstrap == null)) {
        throw new UsageException(
            "give exactly one of --zookeeper HOST:PORT or --bootstrap HOST:PORT");
      }
      return new RunnerOptions(
          zookeeper,
          bootstrap,
          table,
          family,
          phases,
          records,
          operations,
          maxSeconds,
          threads,
          target,
          warmupSeconds,
          fieldCount,
          fieldLength,
          distribution,
          maxScanLength,
          regions,
          recreateTable,
          statusInterval,
          seed,
          label,
          json,
          opLog,
          serverPid,
          Collections.unmodifiableMap(new LinkedHashMap<>(settings)));
    }
  }
}
