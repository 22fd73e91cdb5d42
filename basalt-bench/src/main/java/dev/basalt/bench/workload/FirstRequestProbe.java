package dev.basalt.bench.workload;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Measures "time to first successful request": started together with a server, it waits until the
 * ZooKeeper port accepts connections (polling every 10 ms), then tries {@code
 * Admin.listTableNames()} through the stock client's ZooKeeper registry until one succeeds, and
 * prints the milliseconds since the moment the caller started the server (passed in, so the probe's
 * own JVM start-up overlaps the server's, as a real client's would). Waiting for the port first
 * keeps the stock ZooKeeper client's reconnect back-off (up to a second per refused attempt) out of
 * a figure meant to describe the server.
 *
 * <pre>
 * java -cp benchmarks.jar dev.basalt.bench.workload.FirstRequestProbe HOST:ZKPORT START_EPOCH_MS
 * </pre>
 */
public final class FirstRequestProbe {
  private FirstRequestProbe() {}

  private static boolean accepts(String host, int port) {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress(host, port), 100);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: FirstRequestProbe HOST:ZKPORT START_EPOCH_MS");
      System.exit(2);
    }
    String[] hostPort = args[0].split(":");
    long start = Long.parseLong(args[1]);
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", hostPort[0]);
    conf.set("hbase.zookeeper.property.clientPort", hostPort[1]);
    conf.setInt("hbase.rpc.timeout", 2_000);
    conf.setInt("hbase.client.operation.timeout", 3_000);
    conf.setInt("hbase.client.retries.number", 1);
    conf.setInt("zookeeper.recovery.retry", 0);
    long deadline = System.currentTimeMillis() + 300_000;
    while (!accepts(hostPort[0], Integer.parseInt(hostPort[1]))) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("nothing listens on " + args[0]);
      }
      Thread.sleep(10);
    }
    System.out.println("zooKeeperPortMillis=" + (System.currentTimeMillis() - start));
    while (true) {
      try (Connection c = ConnectionFactory.createConnection(conf);
          Admin admin = c.getAdmin()) {
        admin.listTableNames();
        System.out.println("firstRequestMillis=" + (System.currentTimeMillis() - start));
        return;
      } catch (IOException | RuntimeException e) {
        if (System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }
}
