package dev.basalt.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's promise end to end: every write the stock client saw acknowledged survives a SIGKILL
 * of the server process. {@code bin/basalt standalone}'s main class runs in a child JVM; the test
 * writes through the stock client from several threads, kills the child at an arbitrary moment,
 * starts a new one on the same directory, and reads everything back. A clean stop (SIGTERM) ends
 * the test and must exit with status 0.
 */
class StandaloneCrashTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] COUNTER = Bytes.toBytes("n");
  private static final TableName TABLE = TableName.valueOf("crash");
  private static final int CYCLES = Integer.getInteger("basalt.serverCrashCycles", 3);
  @TempDir Path dir;

  /** A standalone server in a child JVM and the address it published. */
  private record Child(Process process, String zooKeeper, String bootstrap) {}

  private Child startChild(int n) throws Exception {
    Process p =
        ChildServer.start(
            dir,
            n,
            List.of(),
            List.of(
                "-D",
                "hbase.master.port=0",
                "-D",
                "hbase.regionserver.port=0",
                "-D",
                "hbase.zookeeper.property.clientPort=0"));
    Map<String, String> addresses = new java.util.HashMap<>();
    for (String line : Files.readAllLines(ChildServer.readyFile(dir, n), StandardCharsets.UTF_8)) {
      int eq = line.indexOf('=');
      addresses.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return new Child(p, addresses.get("zookeeper"), addresses.get("bootstrap"));
  }

  private static Configuration conf(Child c) {
    return conf(c, 10_000, 20_000);
  }

  /**
   * Writers find the server through the RPC registry with short timeouts: once it is killed every
   * call can only fail, and a refused connection fails at once, where the ZooKeeper registry would
   * wait out its reconnect attempts. A writer that times out while the server lives just stops
   * early (its last write was not acknowledged). Reads after each restart use ZooKeeper.
   */
  private static Configuration writerConf(Child c) {
    Configuration conf = conf(c, 5_000, 10_000);
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", c.bootstrap());
    return conf;
  }

  private static Configuration conf(Child c, int rpcTimeout, int operationTimeout) {
    Configuration conf = HBaseConfiguration.create();
    String[] hostPort = c.zooKeeper().split(":");
    conf.set("hbase.zookeeper.quorum", hostPort[0]);
    conf.set("hbase.zookeeper.property.clientPort", hostPort[1]);
    conf.setInt("hbase.rpc.timeout", rpcTimeout);
    conf.setInt("hbase.client.operation.timeout", operationTimeout);
    conf.setInt("hbase.client.retries.number", 2);
    conf.setInt("hbase.client.pause", 50);
    // Once the server is killed its ZooKeeper is gone too: give up on it quickly.
    conf.setInt("zookeeper.recovery.retry", 1);
    conf.setInt("zookeeper.recovery.retry.intervalmill", 100);
    return conf;
  }

  @Test
  void acknowledgedWritesSurviveKillingTheServer() throws Exception {
    Map<String, Integer> acked = new ConcurrentHashMap<>();
    AtomicLong ackedIncrements = new AtomicLong();
    AtomicLong sentIncrements = new AtomicLong();
    Child child = startChild(0);
    try (Connection c = ConnectionFactory.createConnection(conf(child));
        Admin admin = c.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
              .build(),
          new byte[][] {Bytes.toBytes("row-3"), Bytes.toBytes("row-6")});
    }
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      writeUntilKilled(child, cycle, acked, ackedIncrements, sentIncrements);
      child = startChild(cycle + 1);
      verify(child, acked, ackedIncrements.get(), sentIncrements.get());
    }
    child.process().destroy(); // SIGTERM: the clean shutdown path
    assertThat(child.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    // 143 = killed by SIGTERM, which is how a JVM reports it even after its shutdown hook ran
    assertThat(child.process().exitValue()).isIn(0, 143);
    assertThat(Files.readString(dir.resolve("server-" + CYCLES + ".log")))
        .contains("Basalt standalone stopped");
  }

  private void writeUntilKilled(
      Child child,
      int cycle,
      Map<String, Integer> acked,
      AtomicLong ackedIncrements,
      AtomicLong sentIncrements)
      throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try (Connection c = ConnectionFactory.createConnection(writerConf(child))) {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        done.add(
            writers.submit(
                () -> {
                  try (Table t = c.getTable(TABLE)) {
                    for (int i = 0; !stop.get(); i++) {
                      String row = "row-" + (i % 10) + "-" + cycle + "-" + writer + "-" + i;
                      t.put(new Put(Bytes.toBytes(row)).addColumn(CF, Q, Bytes.toBytes(i)));
                      acked.put(row, i);
                      sentIncrements.incrementAndGet();
                      t.incrementColumnValue(Bytes.toBytes("counter"), CF, COUNTER, 1);
                      ackedIncrements.incrementAndGet();
                    }
                  } catch (IOException | RuntimeException expected) {
                    // the server died under us: whatever was not acknowledged may be lost
                  }
                  return null;
                }));
      }
      long target = acked.size() + 200 + (long) (Math.random() * 800);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (acked.size() < target && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      child.process().destroyForcibly(); // SIGKILL
      child.process().waitFor(30, TimeUnit.SECONDS);
      stop.set(true);
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      writers.shutdownNow();
    }
  }

  private void verify(Child child, Map<String, Integer> acked, long ackedInc, long sentInc)
      throws Exception {
    assertThat(acked).isNotEmpty();
    try (Connection c = ConnectionFactory.createConnection(conf(child));
        Table t = c.getTable(TABLE)) {
      List<String> rows = new ArrayList<>(acked.keySet());
      List<Get> gets = new ArrayList<>();
      for (String row : rows) {
        gets.add(new Get(Bytes.toBytes(row)));
      }
      Result[] results = t.get(gets);
      for (int i = 0; i < rows.size(); i++) {
        assertThat(results[i].getValue(CF, Q)).as("acknowledged row %s", rows.get(i)).isNotNull();
        assertThat(Bytes.toInt(results[i].getValue(CF, Q))).isEqualTo(acked.get(rows.get(i)));
      }
      long counter = Bytes.toLong(t.get(new Get(Bytes.toBytes("counter"))).getValue(CF, COUNTER));
      assertThat(counter).isBetween(ackedInc, sentInc);
    }
  }
}
