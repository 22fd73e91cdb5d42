package dev.basalt.bench.workload;

/**
 * Drops (if present) and creates the benchmark table, pre-split, exactly as the workload runner's
 * load does, without running a phase: YCSB's own client (compare-hbase.sh with CLIENT=ycsb) never
 * creates its table, and this way both clients meet the same regions. Takes the runner's options
 * (--zookeeper or --bootstrap, --table, --family, --regions, -D).
 *
 * <pre>
 * java -cp benchmarks.jar dev.basalt.bench.workload.TableSetup --zookeeper 127.0.0.1:2181 \
 *     --regions 8
 * </pre>
 */
public final class TableSetup {
  private TableSetup() {}

  public static void main(String[] args) throws Exception {
    RunnerOptions options;
    try {
      options = RunnerOptions.parse(args);
    } catch (UsageException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    try (HBaseStore store = new HBaseStore(options)) {
      store.prepareTable(true, options.regions());
      System.out.println(
          "created "
              + options.table()
              + " ("
              + store.describe()
              + ", "
              + options.regions()
              + " regions)");
    }
  }
}
