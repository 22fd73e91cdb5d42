package dev.basalt.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash a client nonce exists for: the server makes an increment durable and dies before
 * answering; the stock client retries the call, with the same nonce, against the restarted server,
 * which must answer it without adding a second time. The server runs in a child JVM that halts at
 * the fault point right after the commit ({@code region.batch.afterCommit}), then restarts on the
 * same ports so that the client's own retries reach it.
 */
class StandaloneNonceCrashTest {
  private static final TableName TABLE = TableName.valueOf("nonces");
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] Q = Bytes.toBytes("n");
  private static final byte[] ROW = Bytes.toBytes("counter");

  @TempDir Path dir;

  @Test
  void anIncrementRetriedAcrossACrashIsAppliedOnce() throws Exception {
    int[] ports = {freePort(), freePort(), freePort()};
    Process first = start(0, ports, null);
    try (Connection c = ConnectionFactory.createConnection(conf(ports));
        Admin admin = c.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
              .build());
    }
    stop(first);

    Process crashing = start(1, ports, "region.batch.afterCommit=halt");
    try (Connection c = ConnectionFactory.createConnection(conf(ports));
        Table t = c.getTable(TABLE)) {
      CompletableFuture<Long> increment =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return t.incrementColumnValue(ROW, CF, Q, 5);
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      assertThat(crashing.waitFor(60, TimeUnit.SECONDS)).as("halted after the commit").isTrue();
      assertThat(crashing.exitValue()).isEqualTo(137);
      assertThat(increment).isNotDone(); // the client is retrying

      Process restarted = start(2, ports, null);
      try {
        assertThat(increment.get(120, TimeUnit.SECONDS)).as("the retry's answer").isEqualTo(5);
        long stored = Bytes.toLong(t.get(new Get(ROW)).getValue(CF, Q));
        assertThat(stored).as("applied once").isEqualTo(5);
        assertThat(t.incrementColumnValue(ROW, CF, Q, 1)).as("a new increment").isEqualTo(6);
      } finally {
        stop(restarted);
      }
    }
  }

  private static Configuration conf(int[] ports) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", ports[2]);
    conf.setInt("hbase.rpc.timeout", 10_000);
    conf.setInt("hbase.client.operation.timeout", 120_000);
    conf.setInt("hbase.client.retries.number", 40);
    conf.setInt("hbase.client.pause", 100);
    return conf;
  }

  private Process start(int n, int[] ports, String faults) throws Exception {
    return ChildServer.start(
        dir,
        n,
        faults == null ? List.of() : List.of("-Dbasalt.faultpoints=" + faults),
        List.of(
            "-D",
            "hbase.master.port=" + ports[0],
            "-D",
            "hbase.regionserver.port=" + ports[1],
            "-D",
            "hbase.zookeeper.property.clientPort=" + ports[2]));
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static int freePort() throws java.io.IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
