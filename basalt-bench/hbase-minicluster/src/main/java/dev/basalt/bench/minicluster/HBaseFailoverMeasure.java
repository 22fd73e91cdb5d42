package dev.basalt.bench.minicluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase 2.6's failover figures on a mini cluster (issue 28 "Targets", for comparison with
 * basalt-bench's ChaosSoak): 2 masters and 3 region servers in this JVM on the local filesystem, a
 * 12-region table with 600 rows, a probe (put + get every 50 ms, one row per region, on a client
 * connection of its own) throughout, then
 *
 * <ul>
 *   <li>{@code --rs-kills N} times: {@code MiniHBaseCluster.killRegionServer} of the region server
 *       with the most regions of the table, timed until hbase:meta has each of its regions OPEN on
 *       another server; a new region server is then started and the regions spread again;
 *   <li>{@code --master-kills N} times: {@code killMaster} (an abort) of the active master, timed
 *       until the standby is active and initialized, a meta scan answers, and a createTable is done;
 *       a new standby is then started.
 * </ul>
 *
 * Region servers here are threads of one JVM: {@code killRegionServer} is HRegionServer.kill(), an
 * abort that skips closing regions and flushing but then closes the server's ZooKeeper session, so
 * the master learns of the death at once from its deleted znode. A real kill -9 leaves the session
 * to expire (zookeeper.session.timeout, 90 s by default) unless something else tells the master.
 * Prints one line per cycle and the median and max of each figure; all figures also checked: every
 * row written before reads back after the last cycle.
 *
 * <pre>
 * java [add-opens] -cp CLASSPATH dev.basalt.bench.minicluster.HBaseFailoverMeasure --dir DIR
 *     [--rs-kills 10] [--master-kills 3]
 * </pre>
 */
public final class HBaseFailoverMeasure {
  private static final TableName TABLE = TableName.valueOf("failover");
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] INFO = Bytes.toBytes("info");
  private static final int REGIONS = 12;
  private static final int ROWS = 600;

  private HBaseFailoverMeasure() {}

  public static void main(String[] args) throws Exception {
    Path dir = null;
    int rsKills = 10;
    int masterKills = 3;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--dir" -> dir = Path.of(args[++i]);
        case "--rs-kills" -> rsKills = Integer.parseInt(args[++i]);
        case "--master-kills" -> masterKills = Integer.parseInt(args[++i]);
        default -> {
          System.err.println(
              "usage: HBaseFailoverMeasure --dir DIR [--rs-kills N] [--master-kills N]");
          System.exit(2);
        }
      }
    }
    if (dir == null) {
      System.err.println("--dir is required");
      System.exit(2);
    }
    Files.createDirectories(dir);
    System.setProperty("test.build.data.basedirectory", dir.toAbsolutePath().toString());
    Configuration conf = HBaseConfiguration.create();
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.setLong("hbase.balancer.period", TimeUnit.HOURS.toMillis(1));
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    util.startMiniZKCluster();
    util.startMiniHBaseCluster(
        StartMiniClusterOption.builder().numMasters(2).numRegionServers(3).build());
    MiniHBaseCluster cluster = util.getMiniHBaseCluster();
    Configuration client = new Configuration(util.getConfiguration());
    client.setInt("hbase.rpc.timeout", 20_000);
    client.setInt("hbase.client.operation.timeout", 60_000);
    System.out.printf(
        "HBase %s mini cluster: 2 masters, 3 region servers; zookeeper.session.timeout %s ms%n",
        org.apache.hadoop.hbase.util.VersionInfo.getVersion(),
        util.getConfiguration().get("zookeeper.session.timeout", "90000 (default)"));
    Map<String, List<Long>> figures = new HashMap<>();
    try (Connection c = ConnectionFactory.createConnection(client)) {
      try (Admin admin = c.getAdmin()) {
        byte[][] splits = new byte[REGIONS - 1][];
        for (int i = 1; i < REGIONS; i++) {
          splits[i - 1] = Bytes.toBytes(String.format("r%02d", i));
        }
        admin.createTable(
            TableDescriptorBuilder.newBuilder(TABLE)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
                .build(),
            splits);
      }
      write(c);
      try (Probe probe = new Probe(client)) {
        for (int i = 1; i <= rsKills; i++) {
          spread(c, cluster);
          ServerName victim = busiest(c);
          probe.window();
          long t0 = System.nanoTime();
          cluster.killRegionServer(victim);
          long reopened = awaitMovedOff(c, victim, t0);
          probe.awaitRound();
          Probe.Window w = probe.window();
          add(figures, "rs kill: regions open elsewhere", reopened);
          add(figures, "rs kill: probe gap", w.maxGap);
          System.out.printf(
              "rs kill %d of %s: its regions open elsewhere after %d ms; probe: %s%n",
              i, victim, reopened, w);
          cluster.waitForRegionServerToStop(victim, 60_000);
          cluster.startRegionServer().waitForServerOnline();
        }
        for (int i = 1; i <= masterKills; i++) {
          HMaster active = cluster.getMaster();
          ServerName was = active.getServerName();
          probe.window();
          long t0 = System.nanoTime();
          cluster.killMaster(was);
          HMaster next = awaitOtherActive(cluster, was);
          long activeMillis = millisSince(t0);
          long metaMillis = awaitMeta(client, t0);
          TableName ddl = TableName.valueOf("ddl_" + i);
          try (Admin admin = c.getAdmin()) {
            admin.createTable(
                TableDescriptorBuilder.newBuilder(ddl)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
                    .build());
          }
          long ddlMillis = millisSince(t0);
          probe.awaitRound();
          Probe.Window w = probe.window();
          add(figures, "master kill: standby active", activeMillis);
          add(figures, "master kill: meta served", metaMillis);
          add(figures, "master kill: createTable done", ddlMillis);
          add(figures, "master kill: probe gap", w.maxGap);
          System.out.printf(
              "master kill %d: %s -> %s active after %d ms, meta scan %d ms, createTable %d ms;"
                  + " probe: %s%n",
              i, was, next.getServerName(), activeMillis, metaMillis, ddlMillis, w);
          cluster.waitForMasterToStop(was, 60_000);
          cluster.startMaster();
        }
      }
      check(c);
    } finally {
      util.shutdownMiniCluster();
    }
    System.out.println("== HBase mini cluster failover figures");
    for (Map.Entry<String, List<Long>> e : new java.util.TreeMap<>(figures).entrySet()) {
      List<Long> v = new ArrayList<>(e.getValue());
      Collections.sort(v);
      System.out.printf(
          "  %-36s median %d ms, max %d ms (n=%d)%n",
          e.getKey(), v.get(v.size() / 2), v.get(v.size() - 1), v.size());
    }
    System.exit(0); // the mini cluster leaves non-daemon threads behind
  }

  private static void add(Map<String, List<Long>> figures, String what, long millis) {
    figures.computeIfAbsent(what, k -> new ArrayList<>()).add(millis);
  }

  private static long millisSince(long t0) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
  }

  private static byte[] row(int region, String suffix) {
    return Bytes.toBytes(String.format("r%02d-%s", region, suffix));
  }

  private static void write(Connection c) throws IOException {
    try (Table t = c.getTable(TABLE)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(new Put(row(i % REGIONS, "w" + i)).addColumn(CF, Q, Bytes.toBytes(i)));
      }
      t.put(puts);
    }
  }

  private static void check(Connection c) throws IOException {
    try (Table t = c.getTable(TABLE)) {
      for (int i = 0; i < ROWS; i++) {
        byte[] v = t.get(new Get(row(i % REGIONS, "w" + i))).getValue(CF, Q);
        if (v == null || Bytes.toInt(v) != i) {
          throw new IllegalStateException("row " + i + " lost");
        }
      }
    }
    System.out.println("every row written before the kills reads back");
  }

  /** Meta's rows of the table: region -> {server, state}. */
  private static Map<RegionInfo, String[]> meta(Connection c) throws IOException {
    Map<RegionInfo, String[]> out = new HashMap<>();
    try (Table m = c.getTable(TableName.META_TABLE_NAME);
        ResultScanner s = m.getScanner(new Scan().addFamily(INFO))) {
      for (Result r : s) {
        byte[] ri = r.getValue(INFO, Bytes.toBytes("regioninfo"));
        RegionInfo info = ri == null ? null : RegionInfo.parseFromOrNull(ri);
        if (info == null || !info.getTable().equals(TABLE)) {
          continue;
        }
        byte[] server = r.getValue(INFO, Bytes.toBytes("server"));
        byte[] code = r.getValue(INFO, Bytes.toBytes("serverstartcode"));
        byte[] state = r.getValue(INFO, Bytes.toBytes("state"));
        String sn =
            server == null || code == null
                ? null
                : ServerName.valueOf(Bytes.toString(server), Bytes.toLong(code)).getServerName();
        out.put(info, new String[] {sn, state == null ? null : Bytes.toString(state)});
      }
    }
    return out;
  }

  private static ServerName busiest(Connection c) throws IOException {
    Map<String, Integer> per = new HashMap<>();
    for (String[] v : meta(c).values()) {
      per.merge(v[0], 1, Integer::sum);
    }
    String best = Collections.max(per.entrySet(), Map.Entry.comparingByValue()).getKey();
    return ServerName.valueOf(best);
  }

  /** Moves the table's regions so that each live region server holds a third of them. */
  private static void spread(Connection c, MiniHBaseCluster cluster)
      throws IOException, InterruptedException {
    try (Admin admin = c.getAdmin()) {
      List<ServerName> servers =
          new ArrayList<>(admin.getClusterMetrics().getLiveServerMetrics().keySet());
      Collections.sort(servers);
      List<RegionInfo> regions = new ArrayList<>(admin.getRegions(TABLE));
      regions.sort((a, b) -> Bytes.compareTo(a.getStartKey(), b.getStartKey()));
      for (int i = 0; i < regions.size(); i++) {
        admin.move(regions.get(i).getEncodedNameAsBytes(), servers.get(i % servers.size()));
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (meta(c).values().stream().allMatch(v -> "OPEN".equals(v[1]))) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IOException("regions not OPEN 60 s after spreading them");
  }

  private static long awaitMovedOff(Connection c, ServerName gone, long t0)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      Map<RegionInfo, String[]> m = meta(c);
      boolean done =
          m.size() == REGIONS
              && m.values().stream()
                  .allMatch(
                      v ->
                          "OPEN".equals(v[1])
                              && v[0] != null
                              && !v[0].equals(gone.getServerName()));
      if (done) {
        return millisSince(t0);
      }
      Thread.sleep(25);
    }
    throw new IOException("the regions of " + gone + " did not open elsewhere in 180 s");
  }

  private static HMaster awaitOtherActive(MiniHBaseCluster cluster, ServerName was)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      for (var t : cluster.getLiveMasterThreads()) {
        HMaster m = t.getMaster();
        if (!m.getServerName().equals(was) && m.isActiveMaster() && m.isInitialized()) {
          return m;
        }
      }
      Thread.sleep(10);
    }
    throw new IOException("no standby took over from " + was + " in 180 s");
  }

  /** Milliseconds from t0 until a meta scan through a client that gives up fast succeeds. */
  private static long awaitMeta(Configuration conf, long t0)
      throws IOException, InterruptedException {
    Configuration q = new Configuration(conf);
    q.setInt("hbase.client.retries.number", 1);
    q.setInt("hbase.rpc.timeout", 1_000);
    q.setInt("hbase.client.operation.timeout", 2_000);
    q.setInt("hbase.client.meta.operation.timeout", 2_000);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (true) {
      try (Connection quick = ConnectionFactory.createConnection(q)) {
        meta(quick);
        return millisSince(t0);
      } catch (IOException | RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw new IOException("meta not served 180 s after the kill", e);
        }
        Thread.sleep(20);
      }
    }
  }

  /** Put + get every 50 ms, one row per region in turn; the longest gap per window. */
  private static final class Probe implements AutoCloseable {
    record Window(long ops, long failures, long maxGap) {
      @Override
      public String toString() {
        return ops + " ops, " + failures + " failed, longest gap " + maxGap + " ms";
      }
    }

    private final Connection connection;
    private final Table table;
    private final Thread thread;
    private final AtomicLong ops = new AtomicLong();
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong maxGap = new AtomicLong();
    private volatile boolean stop;

    Probe(Configuration conf) throws IOException {
      connection = ConnectionFactory.createConnection(conf);
      table = connection.getTable(TABLE);
      thread = new Thread(this::run, "probe");
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      long last = System.nanoTime();
      long i = 0;
      while (!stop) {
        byte[] row = row((int) (i % REGIONS), "probe");
        byte[] value = Bytes.toBytes(i);
        try {
          table.put(new Put(row).addColumn(CF, Q, value));
          if (!Arrays.equals(table.get(new Get(row)).getValue(CF, Q), value)) {
            failures.incrementAndGet();
          }
        } catch (IOException | RuntimeException e) {
          failures.incrementAndGet();
        }
        long now = System.nanoTime();
        maxGap.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(now - last), Math::max);
        last = now;
        ops.incrementAndGet();
        total.incrementAndGet();
        i++;
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    void awaitRound() throws InterruptedException, IOException {
      long target = total.get() + REGIONS;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      while (total.get() < target) {
        if (System.nanoTime() > deadline) {
          throw new IOException("the probe did not complete a round in 180 s");
        }
        Thread.sleep(10);
      }
    }

    Window window() {
      return new Window(ops.getAndSet(0), failures.getAndSet(0), maxGap.getAndSet(0));
    }

    @Override
    public void close() throws Exception {
      stop = true;
      thread.join(180_000);
      table.close();
      connection.close();
    }
  }
}
