package dev.basalt.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.function.IntSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Table;

/**
 * What commands share: the client configuration, one connection to the cluster (opened at the first
 * command that needs it, so help and syntax errors work without a cluster), the output and its
 * formatter, and the cancellation of the running command.
 */
final class Session implements AutoCloseable {
  /** HBase's switch between ISO-like and millisecond timestamps in shell output. */
  static final String EPOCH_TIMESTAMPS_KEY = "hbase.shell.timestamp.format.epoch";

  private final Configuration conf;
  private final PrintWriter out;
  private final Formatter formatter;
  private final Cancellation cancellation = new Cancellation();
  private final boolean debug;
  private Connection connection;
  private Admin admin;
  private volatile boolean exitRequested;

  Session(Configuration conf, PrintWriter out, IntSupplier width, ZoneId zone, boolean debug) {
    this.conf = conf;
    this.out = out;
    this.debug = debug;
    this.formatter = new Formatter(out, width, zone, conf.getBoolean(EPOCH_TIMESTAMPS_KEY, false));
  }

  Configuration conf() {
    return conf;
  }

  PrintWriter out() {
    return out;
  }

  Formatter formatter() {
    return formatter;
  }

  Cancellation cancellation() {
    return cancellation;
  }

  boolean debug() {
    return debug;
  }

  /** exit or quit ran: the shell stops after the current statement. */
  void requestExit() {
    exitRequested = true;
  }

  boolean exitRequested() {
    return exitRequested;
  }

  /** Where the client looks for the cluster, for error messages. */
  String endpoint() {
    String bootstrap = conf.get("hbase.client.bootstrap.servers");
    if (bootstrap != null && !bootstrap.isEmpty()) {
      return bootstrap;
    }
    String quorum = conf.get("hbase.zookeeper.quorum", "localhost");
    return quorum.contains(":")
        ? quorum
        : quorum + ":" + conf.get("hbase.zookeeper.property.clientPort", "2181");
  }

  synchronized Connection connection() throws IOException {
    if (connection == null) {
      Reachability.check(conf);
      connection = ConnectionFactory.createConnection(conf);
    }
    return connection;
  }

  synchronized Admin admin() throws IOException {
    if (admin == null) {
      admin = connection().getAdmin();
    }
    return admin;
  }

  Table table(TableName name) throws IOException {
    return connection().getTable(name);
  }

  @Override
  public synchronized void close() {
    try {
      if (admin != null) {
        admin.close();
      }
      if (connection != null) {
        connection.close();
      }
    } catch (IOException | RuntimeException e) {
      // closing at exit: nothing left to do about it
    }
  }
}
