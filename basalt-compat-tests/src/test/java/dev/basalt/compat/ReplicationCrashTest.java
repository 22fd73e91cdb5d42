package dev.basalt.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 on either side of a replication peer while rows flow: a writer puts rows into the source
 * (recording those acknowledged), the source or the sink server (a child JVM) is killed with
 * SIGKILL mid-stream and started again on the same directory, and then every acknowledged row must
 * reach the peer. Duplicates are allowed (a batch shipped again after a crash), loss is not.
 */
class ReplicationCrashTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final TableName TABLE = TableName.valueOf("replcrash");
  private static final Duration CONVERGE = Duration.ofSeconds(90);

  @TempDir Path dir;

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** A standalone server in a child JVM on fixed ports, so a restart keeps its cluster key. */
  private static final class Child {
    final Path dir;
    final int master;
    final int regionServer;
    final int zk;
    int life;
    Process process;

    Child(Path dir) throws IOException {
      this.dir = dir;
      this.master = freePort();
      this.regionServer = freePort();
      this.zk = freePort();
    }

    void start() throws Exception {
      life++;
      process =
          ChildServer.start(
              dir,
              life,
              List.of(),
              List.of(
                  "-D", "hbase.master.port=" + master,
                  "-D", "hbase.regionserver.port=" + regionServer,
                  "-D", "hbase.zookeeper.property.clientPort=" + zk,
                  "-D", "basalt.replication.peer.refresh=200"));
    }

    void kill() throws InterruptedException {
      process.destroyForcibly(); // SIGKILL
      process.waitFor(30, TimeUnit.SECONDS);
    }

    void stop() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }

    String key() {
      return "127.0.0.1:" + zk + ":/hbase";
    }

    Configuration conf() {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", "127.0.0.1");
      conf.setInt("hbase.zookeeper.property.clientPort", zk);
      conf.setInt("hbase.rpc.timeout", 5_000);
      conf.setInt("hbase.client.operation.timeout", 10_000);
      conf.setInt("hbase.client.retries.number", 2);
      conf.setInt("hbase.client.pause", 50);
      conf.setInt("zookeeper.recovery.retry", 1);
      conf.setInt("zookeeper.recovery.retry.intervalmill", 100);
      return conf;
    }
  }

  private static void createTable(Configuration conf) throws IOException {
    try (Connection c = ConnectionFactory.createConnection(conf);
        Admin admin = c.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(CF)
                      .setScope(HConstants.REPLICATION_SCOPE_GLOBAL)
                      .build())
              .build());
    }
  }

  private static void addPeer(Configuration source, String sinkKey) throws IOException {
    try (Connection c = ConnectionFactory.createConnection(source);
        Admin admin = c.getAdmin()) {
      admin.addReplicationPeer(
          "crash", ReplicationPeerConfig.newBuilder().setClusterKey(sinkKey).build());
    }
  }

  /** Writes rows until stopped (or the server dies), recording each acknowledged one. */
  private static Thread writer(
      Configuration conf, String prefix, Set<String> acked, AtomicBoolean stop) {
    Thread t =
        new Thread(
            () -> {
              try (Connection c = ConnectionFactory.createConnection(conf);
                  Table table = c.getTable(TABLE)) {
                for (int i = 0; !stop.get() && i < 100_000; i++) {
                  String row = String.format("%s%06d", prefix, i);
                  table.put(new Put(Bytes.toBytes(row)).addColumn(CF, Q, Bytes.toBytes(i)));
                  acked.add(row);
                }
              } catch (IOException | RuntimeException e) {
                // the server was killed under it: the last write was not acknowledged
              }
            },
            "writer-" + prefix);
    t.start();
    return t;
  }

  private static TreeSet<String> rows(Configuration conf) throws IOException {
    TreeSet<String> out = new TreeSet<>();
    try (Connection c = ConnectionFactory.createConnection(conf);
        Table table = c.getTable(TABLE);
        ResultScanner rs = table.getScanner(new Scan())) {
      for (Result r : rs) {
        out.add(Bytes.toString(r.getRow()));
      }
    }
    return out;
  }

  private static void awaitAll(Configuration peer, Set<String> acked) throws Exception {
    long deadline = System.nanoTime() + CONVERGE.toNanos();
    while (true) {
      TreeSet<String> missing = new TreeSet<>(acked);
      try {
        missing.removeAll(rows(peer));
      } catch (IOException e) {
        // the peer is still starting
      }
      if (missing.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            missing.size()
                + " of "
                + acked.size()
                + " acknowledged rows never reached the peer, e.g. "
                + missing.first());
      }
      Thread.sleep(200);
    }
  }

  @Test
  void killingTheSourceWhileItShipsLosesNothing() throws Exception {
    Child source = new Child(dir.resolve("source"));
    Files.createDirectories(source.dir);
    try (StandaloneCluster sink = StandaloneCluster.start(dir.resolve("sink"))) {
      source.start();
      createTable(source.conf());
      createTable(sink.zooKeeperClientConf());
      addPeer(source.conf(), "127.0.0.1:" + sink.zooKeeperPort() + ":/hbase");
      Set<String> acked = new ConcurrentSkipListSet<>();
      AtomicBoolean stop = new AtomicBoolean();
      Thread w = writer(source.conf(), "a", acked, stop);
      Thread.sleep(2_000);
      source.kill();
      stop.set(true); // the writer's call in flight fails on its own; nothing more is acknowledged
      assertThat(acked).isNotEmpty();
      source.start(); // replays its log; its source resumes from the stored position
      awaitAll(sink.zooKeeperClientConf(), acked);
      w.join(30_000);
      source.stop();
    } finally {
      if (source.process != null) {
        source.process.destroyForcibly();
      }
    }
  }

  @Test
  void killingTheSinkWhileItAppliesLosesNothing() throws Exception {
    Child sink = new Child(dir.resolve("sink"));
    Files.createDirectories(sink.dir);
    try (StandaloneCluster source = StandaloneCluster.start(dir.resolve("source"))) {
      sink.start();
      createTable(source.zooKeeperClientConf());
      createTable(sink.conf());
      addPeer(source.zooKeeperClientConf(), sink.key());
      Set<String> acked = new ConcurrentSkipListSet<>();
      AtomicBoolean stop = new AtomicBoolean();
      Thread w = writer(source.zooKeeperClientConf(), "b", acked, stop);
      Thread.sleep(2_000);
      sink.kill(); // the writer goes on: the source keeps its queue and retries
      Thread.sleep(1_000);
      sink.start();
      Thread.sleep(1_000);
      stop.set(true);
      w.join(30_000);
      assertThat(acked).hasSizeGreaterThan(10);
      awaitAll(sink.conf(), acked);
      sink.stop();
    } finally {
      if (sink.process != null) {
        sink.process.destroyForcibly();
      }
    }
  }
}
