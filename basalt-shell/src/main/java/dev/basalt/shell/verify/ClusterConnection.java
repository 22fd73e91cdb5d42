package dev.basalt.shell.verify;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A connection to one side (source or peer), opened within a bounded time. The HBase client retries
 * an unreachable ZooKeeper or bootstrap server for minutes; a verify run pointed at a stopped
 * cluster says so within {@code timeout}: first a TCP connect to the endpoints, then the connection
 * and every table check on a separate thread that is abandoned when time is up.
 */
final class ClusterConnection implements AutoCloseable {
  private static final int TCP_TIMEOUT_MS = 3000;

  private final String side;
  private final ClusterAddress address;
  private final Connection connection;

  private ClusterConnection(String side, ClusterAddress address, Connection connection) {
    this.side = side;
    this.address = address;
    this.connection = connection;
  }

  /**
   * Connects to {@code address} as the {@code side} ("source" or "peer") and checks that each of
   * {@code tables} exists there with each of {@code families} (empty: any).
   *
   * @throws VerifyException when nothing answers, time runs out, or a table or family is missing
   */
  static ClusterConnection open(
      String side,
      ClusterAddress address,
      Configuration conf,
      List<TableName> tables,
      List<String> families,
      Duration timeout)
      throws VerifyException {
    checkReachable(side, address);
    CompletableFuture<Connection> opening = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                opening.complete(connectAndCheck(side, address, conf, tables, families));
              } catch (Throwable e) {
                opening.completeExceptionally(e);
              }
            },
            "verify-connect-" + side);
    t.setDaemon(true);
    t.start();
    try {
      return new ClusterConnection(
          side, address, opening.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
    } catch (TimeoutException e) {
      // the thread goes on retrying; close whatever it opens once it gives up
      opening.thenAccept(ClusterConnection::closeQuietly);
      throw new VerifyException(
          "the "
              + side
              + " cluster at "
              + address
              + " did not answer within "
              + timeout.toSeconds()
              + " s (is it running? --timeout gives it longer)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VerifyException("interrupted while connecting to the " + side + " cluster");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof VerifyException v) {
        throw v;
      }
      throw new VerifyException(
          "cannot connect to the " + side + " cluster at " + address + ": " + firstLine(cause),
          cause);
    }
  }

  private static Connection connectAndCheck(
      String side,
      ClusterAddress address,
      Configuration conf,
      List<TableName> tables,
      List<String> families)
      throws IOException, VerifyException {
    Connection c = ConnectionFactory.createConnection(conf);
    try (Admin admin = c.getAdmin()) {
      for (TableName table : tables) {
        if (!admin.tableExists(table)) {
          throw new VerifyException(
              "table '" + table + "' does not exist on the " + side + " cluster (" + address + ")");
        }
        if (!families.isEmpty()) {
          TableDescriptor d = admin.getDescriptor(table);
          for (String f : families) {
            if (!d.hasColumnFamily(Bytes.toBytes(f))) {
              throw new VerifyException(
                  "column family '"
                      + f
                      + "' does not exist in table '"
                      + table
                      + "' on the "
                      + side
                      + " cluster (its families: "
                      + familyNames(d)
                      + ")");
            }
          }
        }
      }
      return c;
    } catch (IOException | VerifyException | RuntimeException e) {
      closeQuietly(c);
      throw e;
    }
  }

  private static String familyNames(TableDescriptor d) {
    StringBuilder sb = new StringBuilder();
    for (ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(f.getNameAsString());
    }
    return sb.toString();
  }

  /** A TCP connect to any endpoint: refused or silent ones fail in seconds, not minutes. */
  private static void checkReachable(String side, ClusterAddress address) throws VerifyException {
    IOException last = null;
    for (InetSocketAddress a : address.endpoints()) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(a.getHostString(), a.getPort()), TCP_TIMEOUT_MS);
        return;
      } catch (IOException e) {
        last = e;
      }
    }
    throw new VerifyException(
        "cannot reach the "
            + side
            + " cluster at "
            + address
            + (last != null && last.getMessage() != null ? " (" + last.getMessage() + ")" : "")
            + "; is it running?");
  }

  Table table(TableName name) throws IOException {
    return connection.getTable(name);
  }

  Connection connection() {
    return connection;
  }

  ClusterAddress address() {
    return address;
  }

  static String firstLine(Throwable t) {
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (IOException | RuntimeException e) {
      // closing a connection that never worked: nothing to tell
    }
  }

  @Override
  public void close() {
    closeQuietly(connection);
  }
}
