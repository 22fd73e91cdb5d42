package dev.basalt.shell.verify;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Table;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * bin/basalt verify-replication: compares tables between two clusters row by row, through the stock
 * HBase client, and reports HBase VerifyReplication's counters without MapReduce. Exit codes: 0
 * every row is good, 1 some row is bad, 2 the comparison could not run (bad arguments, an unknown
 * table or family, a cluster that does not answer, a failed read).
 */
@CommandLine.Command(
    name = "basalt verify-replication",
    mixinStandardHelpOptions = true,
    versionProvider = VerifyReplicationMain.Version.class,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Compares TABLE on the source cluster with its copy on the peer cluster, row by row and",
      "cell by cell (family, qualifier, timestamp, type, value), and prints HBase",
      "VerifyReplication's counters and the first differing rows. Quiesce writes first, or use",
      "--recompareSleep so that rows still in flight are read again before they count as bad.",
      "CLUSTER is a cluster key (zk1,zk2:2181:/hbase, as in add_peer) or the bootstrap servers",
      "of the RPC registry (host:port[,host:port...]).",
      "Exit code: 0 every row good, 1 some row bad, 2 the comparison could not run."
    })
public final class VerifyReplicationMain implements Callable<Integer> {
  /** Client settings with this prefix go to the peer's connection only (as in HBase's tool). */
  static final String PEER_PREFIX = "verifyrep.peer.";

  @Option(
      names = "--source",
      paramLabel = "CLUSTER",
      description = "the source cluster (default: the configuration's, else localhost:2181:/hbase)")
  String source;

  @Option(
      names = "--peer",
      required = true,
      paramLabel = "CLUSTER",
      description = "the peer cluster, whose copy is compared with the source's")
  String peer;

  @Option(
      names = "--peerTableName",
      paramLabel = "NAME",
      description = "the table's name on the peer, when it differs (one TABLE only)")
  String peerTableName;

  @Option(
      names = "--starttime",
      paramLabel = "MS",
      description = "compare only cells with a timestamp >= MS (default 0)")
  long startTime = 0;

  @Option(
      names = "--endtime",
      paramLabel = "MS",
      description = "compare only cells with a timestamp < MS (default: no end)")
  long endTime = Long.MAX_VALUE;

  @Option(
      names = "--versions",
      paramLabel = "N",
      description = "versions per column to compare (default: the scan's, 1)")
  int versions = -1;

  @Option(
      names = "--families",
      split = ",",
      paramLabel = "FAMILY",
      description = "compare only these column families (comma-separated)")
  List<String> families = new ArrayList<>();

  @Option(
      names = "--row-prefixes",
      split = ",",
      paramLabel = "PREFIX",
      description = "compare only rows starting with one of these prefixes (comma-separated)")
  List<String> rowPrefixes = new ArrayList<>();

  @Option(names = "--raw", description = "compare delete markers and deleted cells too (raw scan)")
  boolean raw;

  @Option(
      names = "--batch",
      paramLabel = "N",
      description = "at most N cells per result from the servers (for very wide rows)")
  int batch = -1;

  @Option(
      names = "--caching",
      paramLabel = "N",
      description = "rows per scanner round trip (default: the client's, by result size)")
  int caching = -1;

  @Option(
      names = {"--recompareSleep", "--recomparesleep"},
      paramLabel = "MS",
      description =
          "re-read a bad row on both sides MS after it was found, and count it good if they agree"
              + " then (replication lag); default 0, no re-check")
  long recompareSleep = 0;

  @Option(
      names = "--recompareTries",
      paramLabel = "N",
      description = "re-checks of a bad row before it counts as bad (default 1)")
  int recompareTries = 1;

  @Option(
      names = "--recompareBackoffExponent",
      paramLabel = "E",
      description =
          "each further re-check waits 2^E times longer than the one before (default 1; 0 waits"
              + " the same each time)")
  int recompareBackoffExponent = 1;

  @Option(
      names = "--show-bad-rows",
      paramLabel = "N",
      description =
          "print the first N bad rows of each table with their differing cells (default 20)")
  int showBadRows = 20;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      description = "give up on a cluster that does not answer within this time (default 30)")
  long timeoutSeconds = 30;

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "an hbase-site.xml style configuration file (for both clusters)")
  Path config;

  @Option(
      names = "-D",
      paramLabel = "KEY=VALUE",
      description =
          "a client setting for both clusters; verifyrep.peer.KEY=VALUE sets KEY for the peer only")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--debug", description = "stack traces on errors and the HBase client's logging")
  boolean debug;

  @Parameters(arity = "1..*", paramLabel = "TABLE", description = "the tables to compare")
  List<String> tables = new ArrayList<>();

  private PrintWriter out;
  private PrintWriter err;
  private TableVerifier.MismatchListener listener = TableVerifier.MismatchListener.NONE;

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the tool with the given streams and returns its exit code; public so that replication
   * tests elsewhere can compare their clusters with it.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, TableVerifier.MismatchListener.NONE);
  }

  /** The same, telling {@code listener} about each row the scans find bad (for tests). */
  static int run(
      String[] args, PrintStream out, PrintStream err, TableVerifier.MismatchListener listener) {
    VerifyReplicationMain main = new VerifyReplicationMain();
    main.out = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    main.err = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    main.listener = listener;
    CommandLine cl = new CommandLine(main);
    cl.setOut(main.out);
    cl.setErr(main.err);
    // a bad command line is one line naming the problem, not the whole usage text
    cl.setParameterExceptionHandler(
        (e, a) -> {
          main.err.println(
              "ERROR: " + e.getMessage() + " (bin/basalt verify-replication --help lists options)");
          return 2;
        });
    return cl.execute(args);
  }

  @Override
  public Integer call() {
    // before anything logs: logback.xml reads this to keep the client quiet unless --debug
    System.setProperty("basalt.shell.client.log", debug ? "INFO" : "OFF");
    try {
      return verify();
    } catch (VerifyException e) {
      err.println("ERROR: " + e.getMessage());
      if (debug && e.getCause() != null) {
        e.getCause().printStackTrace(err);
      }
      return 2;
    }
  }

  private int verify() throws VerifyException {
    ReadSpec spec = readSpec();
    List<TableName> sourceTables = new ArrayList<>();
    List<TableName> peerTables = new ArrayList<>();
    for (String t : tables) {
      sourceTables.add(tableName(t));
      peerTables.add(tableName(peerTableName != null ? peerTableName : t));
    }
    if (peerTableName != null && tables.size() > 1) {
      throw new VerifyException("--peerTableName goes with one TABLE, got " + tables.size());
    }
    Configuration base = baseConfiguration();
    ClusterAddress sourceAddress =
        source != null
            ? ClusterAddress.parse("--source", source)
            : ClusterAddress.fromConfiguration(base);
    // a peer id is looked up on the source once connected; an address is checked now
    ClusterAddress peerAddress =
        PeerLookup.isPeerId(peer) ? null : ClusterAddress.parse("--peer", peer);
    Configuration sourceConf = new Configuration(base);
    sourceAddress.applyTo(sourceConf);
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    try (ClusterConnection src =
        ClusterConnection.open(
            "source", sourceAddress, sourceConf, sourceTables, families, timeout)) {
      Configuration peerConf = new Configuration(base);
      if (peerAddress == null) {
        peerAddress = PeerLookup.resolve(src, peer, peerConf, timeout);
      }
      peerAddress.applyTo(peerConf);
      // the user's peer-only settings last: they win over the peer's own
      settings.forEach(
          (k, v) -> {
            if (k.startsWith(PEER_PREFIX) && k.length() > PEER_PREFIX.length()) {
              peerConf.set(k.substring(PEER_PREFIX.length()), v);
            }
          });
      try (ClusterConnection dst =
          ClusterConnection.open("peer", peerAddress, peerConf, peerTables, families, timeout)) {
        return compare(src, sourceTables, dst, peerTables, spec);
      }
    }
  }

  private int compare(
      ClusterConnection src,
      List<TableName> sourceTables,
      ClusterConnection dst,
      List<TableName> peerTables,
      ReadSpec spec)
      throws VerifyException {
    Counts total = new Counts();
    int differing = 0;
    for (int i = 0; i < sourceTables.size(); i++) {
      Counts c = verifyTable(src, sourceTables.get(i), dst, peerTables.get(i), spec);
      total.add(c);
      if (c.get(Counter.BADROWS) > 0) {
        differing++;
      }
    }
    if (sourceTables.size() > 1) {
      out.println("All " + sourceTables.size() + " tables:");
      total.print(out, "  ");
    }
    long bad = total.get(Counter.BADROWS);
    out.println(
        bad == 0
            ? "OK: every row matches (" + total.get(Counter.GOODROWS) + " rows)"
            : "DIFFERENT: "
                + bad
                + (bad == 1 ? " bad row in " : " bad rows in ")
                + differing
                + " of "
                + sourceTables.size()
                + (sourceTables.size() == 1 ? " table" : " tables"));
    out.flush();
    return bad == 0 ? 0 : 1;
  }

  private Counts verifyTable(
      ClusterConnection src,
      TableName sourceTable,
      ClusterConnection dst,
      TableName peerTable,
      ReadSpec spec)
      throws VerifyException {
    out.println(
        "Table "
            + sourceTable
            + " on the source ("
            + src.address()
            + ") against "
            + peerTable
            + " on the peer ("
            + dst.address()
            + "):");
    try (Table s = src.table(sourceTable);
        Table p = dst.table(peerTable)) {
      TableVerifier v =
          new TableVerifier(
              s,
              p,
              spec,
              new TableVerifier.RecheckPolicy(
                  recompareSleep,
                  recompareSleep > 0 ? recompareTries : 0,
                  recompareBackoffExponent),
              showBadRows,
              listener);
      Counts c = v.run();
      v.sample().print(out, "  ", c.get(Counter.BADROWS));
      c.print(out, "  ");
      if (recompareSleep > 0) {
        out.println(
            "  (re-checks: "
                + c.rechecks()
                + ", of which found the row good: "
                + c.recheckedGood()
                + ")");
      }
      out.flush();
      return c;
    } catch (IOException e) {
      throw new VerifyException(
          "comparing table "
              + sourceTable
              + " failed: "
              + e.getClass().getSimpleName()
              + ": "
              + ClusterConnection.firstLine(e),
          e);
    }
  }

  private ReadSpec readSpec() throws VerifyException {
    if (startTime < 0) {
      throw new VerifyException("--starttime must be >= 0, got " + startTime);
    }
    if (endTime <= startTime) {
      throw new VerifyException(
          "--endtime (" + endTime + ") must be after --starttime (" + startTime + ")");
    }
    positiveIfSet("--versions", versions);
    positiveIfSet("--batch", batch);
    positiveIfSet("--caching", caching);
    if (recompareSleep < 0 || recompareTries < 0 || recompareBackoffExponent < 0) {
      throw new VerifyException(
          "--recompareSleep, --recompareTries and --recompareBackoffExponent must be >= 0");
    }
    if (showBadRows < 0 || timeoutSeconds <= 0) {
      throw new VerifyException("--show-bad-rows must be >= 0 and --timeout > 0");
    }
    for (String f : families) {
      if (f.isEmpty()) {
        throw new VerifyException("--families has an empty family name");
      }
    }
    for (String p : rowPrefixes) {
      if (p.isEmpty()) {
        throw new VerifyException("--row-prefixes has an empty prefix");
      }
    }
    return new ReadSpec(
        List.copyOf(families),
        startTime,
        endTime,
        versions,
        List.copyOf(rowPrefixes),
        raw,
        batch,
        caching);
  }

  private static void positiveIfSet(String option, int value) throws VerifyException {
    if (value != -1 && value < 1) {
      throw new VerifyException(option + " must be >= 1, got " + value);
    }
  }

  private static TableName tableName(String name) throws VerifyException {
    try {
      return TableName.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new VerifyException(
          "'" + name + "' is not a valid table name: " + ClusterConnection.firstLine(e));
    }
  }

  /** hbase-default.xml, then --config, then -D (later wins); the peer-only settings left out. */
  private Configuration baseConfiguration() throws VerifyException {
    Configuration conf = HBaseConfiguration.create();
    if (config != null) {
      if (!Files.isReadable(config)) {
        throw new VerifyException("cannot read the configuration file " + config);
      }
      conf.addResource(new org.apache.hadoop.fs.Path(config.toAbsolutePath().toString()));
    }
    settings.forEach(
        (k, v) -> {
          if (!k.startsWith(PEER_PREFIX)) {
            conf.set(k, v);
          }
        });
    // the client retries a ZooKeeper read 30 times by default (minutes against a stopped
    // cluster); a configuration file or -D that sets the key wins
    if (conf.get("zookeeper.recovery.retry") == null) {
      conf.setInt("zookeeper.recovery.retry", 3);
    }
    return conf;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        "basalt verify-replication on the HBase client "
            + org.apache.hadoop.hbase.util.VersionInfo.getVersion()
      };
    }
  }
}
