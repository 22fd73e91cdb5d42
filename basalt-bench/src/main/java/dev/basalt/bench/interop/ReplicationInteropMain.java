package dev.basalt.bench.interop;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks replication between a running Apache HBase 2.x cluster and a running Basalt cluster, both
 * ways, through the stock client only (issue 30 item 7): HBase to Basalt, Basalt to HBase, and
 * master-master without loops. Prints one PASS or FAIL line per check, with the details under it;
 * exits 0 when every check passed, 1 when one failed, 2 on bad arguments.
 * basalt-bench/scripts/replication-interop.sh starts the two clusters and runs this.
 *
 * <pre>
 * java -cp basalt-bench/target/benchmarks.jar dev.basalt.bench.interop.ReplicationInteropMain \
 *     --hbase HOST:ZKPORT --basalt HOST:ZKPORT [--checks hbase-to-basalt,basalt-to-hbase,master-master,cell-ttl]
 *     [--timeout-seconds 60] [--hbase-cluster]
 * </pre>
 *
 * {@code --hbase-cluster}: HBase is a real cluster, a process per region server, rather than a mini
 * cluster, whose region servers share one JVM and so report the same replication figures.
 *
 * <p>Both clusters keep their znodes under {@code /hbase}; each reaches the other by the cluster
 * key {@code HOST:ZKPORT:/hbase}, so the addresses must be ones the clusters can reach too.
 */
public final class ReplicationInteropMain {
  static final String HBASE_TO_BASALT = "hbase-to-basalt";
  static final String BASALT_TO_HBASE = "basalt-to-hbase";
  static final String MASTER_MASTER = "master-master";
  static final String CELL_TTL = "cell-ttl";
  static final List<String> CHECKS =
      List.of(HBASE_TO_BASALT, BASALT_TO_HBASE, MASTER_MASTER, CELL_TTL);
  private static final String USAGE =
      "usage: ReplicationInteropMain --hbase HOST:ZKPORT --basalt HOST:ZKPORT"
          + " [--checks hbase-to-basalt,basalt-to-hbase,master-master,cell-ttl]"
          + " [--timeout-seconds 60] [--hbase-cluster]";

  private ReplicationInteropMain() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    String hbaseZk = null;
    String basaltZk = null;
    Set<String> checks = new LinkedHashSet<>(CHECKS);
    long timeoutSeconds = 60;
    boolean hbaseMini = true;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--hbase" -> hbaseZk = value(args, ++i);
          case "--basalt" -> basaltZk = value(args, ++i);
          case "--checks" -> {
            checks = new LinkedHashSet<>(List.of(value(args, ++i).split(",")));
            for (String c : checks) {
              if (!CHECKS.contains(c)) {
                throw new IllegalArgumentException("unknown check '" + c + "'");
              }
            }
          }
          case "--timeout-seconds" -> timeoutSeconds = Long.parseLong(value(args, ++i));
          case "--hbase-cluster" -> hbaseMini = false;
          default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
        }
      }
      if (hbaseZk == null || basaltZk == null) {
        throw new IllegalArgumentException("--hbase and --basalt are required");
      }
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(USAGE);
      return 2;
    }

    String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000);
    InteropChecks c = new InteropChecks(out, timeoutSeconds * 1000, runId);
    List<String> failed = new ArrayList<>();
    try (Side hbase = Side.connect("HBase", hbaseZk, hbaseMini);
        Side basalt = Side.connect("Basalt", basaltZk, false)) {
      for (String check : checks) {
        String title =
            switch (check) {
              case HBASE_TO_BASALT -> "HBase -> Basalt";
              case BASALT_TO_HBASE -> "Basalt -> HBase";
              case MASTER_MASTER -> "HBase <-> Basalt (master-master)";
              default -> "cell TTLs, both ways";
            };
        out.println(title + ":");
        try {
          String summary =
              switch (check) {
                case HBASE_TO_BASALT -> c.oneWay(hbase, basalt, "h2b", true);
                case BASALT_TO_HBASE -> c.oneWay(basalt, hbase, "b2h", false);
                case MASTER_MASTER -> c.masterMaster(hbase, basalt);
                default -> c.cellTtl(hbase, basalt);
              };
          out.println("PASS " + title + ": " + summary);
        } catch (InteropChecks.CheckFailed e) {
          out.println("FAIL " + title + ": " + e.getMessage());
          failed.add(title);
        } catch (Exception e) {
          out.println("FAIL " + title + ": " + e);
          failed.add(title);
        }
        out.flush();
      }
    }
    out.println(
        failed.isEmpty()
            ? "all " + checks.size() + " checks passed"
            : failed.size()
                + " of "
                + checks.size()
                + " checks failed: "
                + String.join(", ", failed));
    return failed.isEmpty() ? 0 : 1;
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }
}
