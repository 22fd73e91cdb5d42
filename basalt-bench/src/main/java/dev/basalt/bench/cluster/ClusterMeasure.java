package dev.basalt.bench.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The cluster-mode figures of docs/PERFORMANCE.md (issue 27), measured on {@code bin/basalt
 * local-cluster} as a user starts it, with the stock client:
 *
 * <ol>
 *   <li>start to first served request: from launching {@code local-cluster} to the first successful
 *       {@code Admin.listTableNames()} (the definition the standalone figure uses, {@code
 *       FirstRequestProbe}), to every process ready, and to the first put + get on a table created
 *       then;
 *   <li>create of a 100-region table across the 3 region servers;
 *   <li>the longest gap a probe (put + get every 50 ms) sees during 10 {@code Admin.move} calls of
 *       its table's regions, and during an {@code Admin.balance()} that has regions to move;
 *   <li>meta lookups per 1,000 operations during the moves, counted by the client (Scan RPCs of its
 *       connection: the traffic itself never scans), for the probe and for a load of 4 threads
 *       doing put + get back to back on the same table.
 * </ol>
 *
 * Not a test and not run by the build. Run from the repository (build first: {@code mvn -B
 * -DskipTests package}):
 *
 * <pre>
 * java -cp basalt-bench/target/benchmarks.jar dev.basalt.bench.cluster.ClusterMeasure \
 *     [--root DIR] [--basalt bin/basalt] [--regionservers 3] [--moves 10] [--regions 100]
 * </pre>
 *
 * The cluster's root (default: a new directory under /tmp) is left for its logs; the cluster is
 * stopped with SIGTERM at the end, and the time that took is printed too.
 */
public final class ClusterMeasure {
  private static final long PROBE_PERIOD_MILLIS = 50;
  private static final int LOAD_THREADS = 4;
  private static final int PROBE_REGIONS = 12;

  private final Map<String, String> results = new LinkedHashMap<>();
  private Path root;
  private String basalt = "bin/basalt";
  private int regionServers = 3;
  private int moves = 10;
  private int bigTableRegions = 100;

  private ClusterMeasure() {}

  public static void main(String[] args) throws Exception {
    ClusterMeasure m = new ClusterMeasure();
    m.parse(args);
    m.run();
  }

  private void parse(String[] args) throws IOException {
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--root" -> root = Path.of(value);
        case "--basalt" -> basalt = value;
        case "--regionservers" -> regionServers = Integer.parseInt(value);
        case "--moves" -> moves = Integer.parseInt(value);
        case "--regions" -> bigTableRegions = Integer.parseInt(value);
        default -> {
          System.err.println(
              "usage: ClusterMeasure [--root DIR] [--basalt bin/basalt] [--regionservers N]"
                  + " [--moves N] [--regions N]");
          System.exit(2);
        }
      }
      i++;
    }
    if (root == null) {
      root = Files.createTempDirectory("basalt-cluster-measure");
    }
  }

  private void run() throws Exception {
    int zkPort = freePort();
    Path ready = root.resolveSibling(root.getFileName() + ".ready");
    Path out = root.resolveSibling(root.getFileName() + ".out");
    Files.deleteIfExists(ready);
    long t0 = System.nanoTime();
    Process cluster =
        new ProcessBuilder(
                basalt,
                "local-cluster",
                "--regionservers",
                Integer.toString(regionServers),
                "--root",
                root.toString(),
                "--zookeeper-port",
                Integer.toString(zkPort),
                "--ready-file",
                ready.toString())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    try {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", "127.0.0.1");
      conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
      conf.setInt("hbase.rpc.timeout", 20_000);
      conf.setInt("hbase.client.operation.timeout", 60_000);
      measureStart(cluster, conf, t0, zkPort, ready);
      try (Connection c = ConnectionFactory.createConnection(conf);
          Admin admin = c.getAdmin()) {
        measureFirstData(c, admin, t0);
        measureBigCreate(c, admin);
        measureMovesAndBalance(c, admin, conf);
      }
    } finally {
      long s0 = System.nanoTime();
      cluster.destroy(); // SIGTERM: local-cluster stops its processes cleanly
      if (cluster.waitFor(180, TimeUnit.SECONDS)) {
        results.put("stopMillis", Long.toString(millisSince(s0)));
      } else {
        cluster.destroyForcibly();
        results.put("stopMillis", "did not stop within 180 s (killed)");
      }
      results.put("root", root.toString());
      results.forEach((k, v) -> System.out.println(k + "=" + v));
    }
  }

  /** Launch to ZooKeeper listening, to the first listTableNames, to every process ready. */
  private void measureStart(Process cluster, Configuration conf, long t0, int zkPort, Path ready)
      throws Exception {
    long deadline = t0 + TimeUnit.SECONDS.toNanos(300);
    while (!accepts(zkPort)) {
      check(cluster, deadline, "ZooKeeper to listen");
      Thread.sleep(10);
    }
    results.put("zooKeeperPortMillis", Long.toString(millisSince(t0)));
    Configuration quick = new Configuration(conf);
    quick.setInt("hbase.rpc.timeout", 2_000);
    quick.setInt("hbase.client.operation.timeout", 3_000);
    quick.setInt("hbase.client.retries.number", 1);
    quick.setInt("zookeeper.recovery.retry", 0);
    while (true) {
      try (Connection c = ConnectionFactory.createConnection(quick);
          Admin admin = c.getAdmin()) {
        admin.listTableNames();
        results.put("firstRequestMillis", Long.toString(millisSince(t0)));
        break;
      } catch (IOException | RuntimeException e) {
        check(cluster, deadline, "a first answer");
        Thread.sleep(20);
      }
    }
    while (!Files.exists(ready)) {
      check(cluster, deadline, "every process to be ready");
      Thread.sleep(20);
    }
    results.put("allReadyMillis", Long.toString(millisSince(t0)));
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(ready)) {
      p.load(in);
    }
    results.put("logs", p.getProperty("logs"));
  }

  private void measureFirstData(Connection c, Admin admin, long t0) throws IOException {
    TableName first = TableName.valueOf("measure_first");
    admin.createTable(
        TableDescriptorBuilder.newBuilder(first)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(ClientTraffic.CF))
            .build());
    try (Table t = c.getTable(first)) {
      byte[] row = Bytes.toBytes("row");
      t.put(new Put(row).addColumn(ClientTraffic.CF, ClientTraffic.Q, Bytes.toBytes("v")));
      t.get(new Get(row));
    }
    results.put("firstPutGetOnNewTableMillis", Long.toString(millisSince(t0)));
  }

  private void measureBigCreate(Connection c, Admin admin) throws IOException {
    TableName big = TableName.valueOf("measure_" + bigTableRegions);
    long t = System.nanoTime();
    create(admin, big, bigTableRegions);
    results.put("create" + bigTableRegions + "RegionsMillis", Long.toString(millisSince(t)));
    results.put("create" + bigTableRegions + "RegionsPerServer", perServer(c, big).toString());
    // dropped again, so that the balance below has only the probed table's regions to even out
    t = System.nanoTime();
    admin.disableTable(big);
    results.put("disable" + bigTableRegions + "RegionsMillis", Long.toString(millisSince(t)));
    admin.deleteTable(big);
  }

  private void measureMovesAndBalance(Connection c, Admin admin, Configuration conf)
      throws Exception {
    TableName probed = TableName.valueOf("measure_probe");
    create(admin, probed, PROBE_REGIONS);
    List<byte[]> rows = new ArrayList<>();
    List<byte[]> loadRows = new ArrayList<>(); // apart from the probe's, which checks its reads
    for (int i = 0; i < PROBE_REGIONS; i++) {
      rows.add(Bytes.toBytes(String.format("r%03d-probe", i)));
      loadRows.add(Bytes.toBytes(String.format("r%03d-load", i)));
    }
    List<ServerName> servers = new ArrayList<>(admin.getRegionServers());
    try (ClientTraffic probe = ClientTraffic.probe(conf, probed, rows, PROBE_PERIOD_MILLIS);
        ClientTraffic load = ClientTraffic.load(conf, probed, loadRows, LOAD_THREADS)) {
      probe.await(PROBE_REGIONS);
      probe.reset();
      load.reset();
      List<HRegionLocation> locations = locations(c, probed);
      List<Long> moveMillis = new ArrayList<>();
      for (int i = 0; i < moves; i++) {
        HRegionLocation l = locations.get(i % locations.size());
        ServerName to = servers.get((servers.indexOf(l.getServerName()) + 1) % servers.size());
        long t = System.nanoTime();
        admin.move(l.getRegion().getEncodedNameAsBytes(), to);
        moveMillis.add(millisSince(t));
        probe.await(PROBE_REGIONS); // the probe has been to the moved region since
        locations = locations(c, probed);
      }
      record("moves", probe.seen(), load.seen());
      results.put("moveMillis", moveMillis.toString());

      // an unbalanced cluster: every region of the probed table moved onto one server first
      ServerName target = servers.get(0);
      for (HRegionLocation l : locations(c, probed)) {
        if (!l.getServerName().equals(target)) {
          admin.move(l.getRegion().getEncodedNameAsBytes(), target);
        }
      }
      probe.await(PROBE_REGIONS);
      results.put("beforeBalancePerServer", allRegionsPerServer(admin).toString());
      probe.reset();
      load.reset();
      long t = System.nanoTime();
      boolean ran = admin.balance();
      results.put("balanceMillis", Long.toString(millisSince(t)) + (ran ? "" : " (did not run)"));
      probe.await(PROBE_REGIONS);
      record("balance", probe.seen(), load.seen());
      results.put("afterBalancePerServer", allRegionsPerServer(admin).toString());
    }
  }

  private void record(String phase, ClientTraffic.Seen probe, ClientTraffic.Seen load) {
    results.put(phase + ".probe.maxGapMillis", Long.toString(probe.maxGapMillis()));
    results.put(phase + ".probe.operations", Long.toString(probe.operations()));
    results.put(phase + ".probe.failures", Long.toString(probe.failures()));
    results.put(phase + ".probe.metaScans", Long.toString(probe.metaScans()));
    results.put(phase + ".load.operations", Long.toString(load.operations()));
    results.put(phase + ".load.failures", Long.toString(load.failures()));
    results.put(phase + ".load.maxGapMillis", Long.toString(load.maxGapMillis()));
    results.put(phase + ".load.metaScans", Long.toString(load.metaScans()));
    results.put(
        phase + ".metaScansPer1000Ops",
        String.format(
            "%.2f (probe %.2f, load %.2f)",
            (probe.metaScans() + load.metaScans())
                * 1000.0
                / Math.max(1, probe.operations() + load.operations()),
            probe.metaScansPer1000(),
            load.metaScansPer1000()));
    if (probe.failure() != null || load.failure() != null) {
      results.put(
          phase + ".firstFailure", probe.failure() != null ? probe.failure() : load.failure());
    }
  }

  private static void create(Admin admin, TableName name, int regions) throws IOException {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = Bytes.toBytes(String.format("r%03d", i));
    }
    admin.createTable(
        TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(ClientTraffic.CF))
            .build(),
        splits);
  }

  private static List<HRegionLocation> locations(Connection c, TableName t) throws IOException {
    try (RegionLocator l = c.getRegionLocator(t)) {
      return l.getAllRegionLocations();
    }
  }

  private static Map<String, Integer> perServer(Connection c, TableName t) throws IOException {
    Map<String, Integer> per = new TreeMap<>();
    for (HRegionLocation l : locations(c, t)) {
      per.merge(l.getServerName().getAddress().toString(), 1, Integer::sum);
    }
    return per;
  }

  private static Map<String, Integer> allRegionsPerServer(Admin admin) throws IOException {
    Map<String, Integer> per = new TreeMap<>();
    for (ServerName s : admin.getRegionServers()) {
      per.put(s.getAddress().toString(), admin.getRegions(s).size());
    }
    return per;
  }

  private static void check(Process cluster, long deadline, String what) throws IOException {
    if (!cluster.isAlive()) {
      throw new IOException("local-cluster exited (" + cluster.exitValue() + ") before " + what);
    }
    if (System.nanoTime() - deadline > 0) {
      throw new IOException("gave up waiting for " + what);
    }
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 100);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static long millisSince(long t0) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
  }
}
