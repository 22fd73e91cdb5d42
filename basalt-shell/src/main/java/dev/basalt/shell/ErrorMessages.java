package dev.basalt.shell;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.ipc.RemoteException;

/**
 * One line for a failed command: what failed and what to do. HBase exceptions are recognised by
 * class name, whether the client rebuilt them locally or they arrived as a RemoteException, so the
 * same text appears against Basalt and against HBase.
 */
final class ErrorMessages {
  private static final Pattern FAMILY =
      Pattern.compile("[Cc]olumn family '?([^' ]+)'? does not exist");

  /** Commands whose first argument is a region name. */
  private static final Set<String> REGION_COMMANDS = Set.of("move", "assign", "unassign");

  private ErrorMessages() {}

  /** The message for {@code error}, raised by {@code statement}, without the "ERROR: " prefix. */
  static String describe(Throwable error, Statement statement, Session session) {
    if (error instanceof UsageException || error instanceof CancelledException) {
      return error.getMessage();
    }
    Throwable t = root(error);
    String name = className(t);
    String message = Arguments.firstLine(remoteMessage(t));
    String table = firstArgument(statement);
    String cmd = statement.command();
    switch (name) {
      case "TableNotFoundException":
        return "table '" + orMessage(table, message) + "' does not exist; 'list' shows the tables";
      case "TableExistsException":
        return "table '"
            + orMessage(table, message)
            + "' already exists; 'describe '"
            + orMessage(table, message)
            + "'' shows it";
      case "TableNotEnabledException":
        return "table '"
            + orMessage(table, message)
            + "' is disabled; enable it first: enable '"
            + orMessage(table, message)
            + "'";
      case "TableNotDisabledException":
        return "table '"
            + orMessage(table, message)
            + "' is enabled; disable it first: disable '"
            + orMessage(table, message)
            + "'";
      case "NamespaceNotFoundException":
        return "namespace '"
            + namespace(statement, table, message)
            + "' does not exist; 'list_namespace' shows the namespaces";
      case "NamespaceExistException":
        return "namespace '" + orMessage(table, message) + "' already exists";
      case "NoSuchColumnFamilyException":
        {
          Matcher m = FAMILY.matcher(message);
          String family = m.find() ? m.group(1) : "?";
          return "column family '"
              + family
              + "' does not exist in table '"
              + table
              + "'; 'describe '"
              + table
              + "'' shows its families";
        }
      case "UnknownRegionException":
        return "region '"
            + (REGION_COMMANDS.contains(cmd) ? orMessage(table, message) : message)
            + "' does not exist; list_regions 'TABLE' shows a table's regions (the encoded name"
            + " is the hash at the end of a region name)";
      case "ReplicationPeerNotFoundException":
        // the server's message is the peer id alone
        return "replication peer '"
            + orMessage(firstArgument(statement), message)
            + "' does not exist; 'list_peers' shows the peers";
      case "NoServerForRegionException":
      case "RegionOfflineException":
      case "NotServingRegionException":
        // what a client sees reading a disabled table; say so when that is the reason
        if (table != null && isDisabled(session, table)) {
          return "table '" + table + "' is disabled; enable it first: enable '" + table + "'";
        }
        break;
      default:
        break;
    }
    if (isConnectionFailure(t, name)) {
      return "cannot reach the cluster at "
          + session.endpoint()
          + " ("
          + name
          + (message.isEmpty() ? "" : ": " + message)
          + "); is it running? Start one with bin/basalt standalone, or point -z HOST:PORT at it";
    }
    if (t instanceof InterruptedIOException || t instanceof InterruptedException) {
      return cmd + " was interrupted";
    }
    return cmd + " failed: " + name + (message.isEmpty() ? "" : ": " + message);
  }

  private static boolean isDisabled(Session session, String table) {
    try {
      return session.admin().isTableDisabled(org.apache.hadoop.hbase.TableName.valueOf(table));
    } catch (Exception | LinkageError e) {
      return false; // the original error is reported instead
    }
  }

  /** Peels wrappers (retries exhausted, futures) down to the exception that says what happened. */
  static Throwable root(Throwable t) {
    for (int i = 0; i < 10; i++) {
      Throwable next = null;
      if (t instanceof RetriesExhaustedWithDetailsException r && r.getNumExceptions() > 0) {
        next = r.getCause(0);
      } else if (t.getCause() instanceof RemoteException
          && t.getMessage() != null
          && t.getMessage().startsWith("Unable to load exception received from server")) {
        // An exception class the client lacks (HBase's ConstraintException lives in its
        // server): the remote exception under it has the class name and the message.
        next = t.getCause();
      } else if (t instanceof RetriesExhaustedException
          || t instanceof ExecutionException
          || t instanceof CompletionException
          || t instanceof java.io.UncheckedIOException) {
        next = t.getCause();
      }
      if (next == null || next == t) {
        return t;
      }
      t = next;
    }
    return t;
  }

  private static String className(Throwable t) {
    String full = t instanceof RemoteException r ? r.getClassName() : t.getClass().getName();
    return full.substring(full.lastIndexOf('.') + 1);
  }

  /**
   * The exception's message without the "full.ClassName: " the client puts before a server's
   * message when it rebuilds the server's exception (the class is named in the line already).
   */
  private static String remoteMessage(Throwable t) {
    String full = t instanceof RemoteException r ? r.getClassName() : t.getClass().getName();
    String m = t.getMessage() == null ? "" : t.getMessage();
    return m.startsWith(full + ": ") ? m.substring(full.length() + 2) : m;
  }

  private static boolean isConnectionFailure(Throwable t, String name) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ConnectException || c instanceof SocketTimeoutException) {
        return true;
      }
      String n = c.getClass().getSimpleName();
      if (n.equals("MasterNotRunningException")
          || n.equals("ZooKeeperConnectionException")
          || n.equals("ConnectionLossException")
          || n.equals("CallTimeoutException")
          || n.equals("ConnectionClosedException")
          || n.equals("MasterRegistryFetchException")
          || n.equals("FailedServerException")) {
        return true;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    // the ZooKeeper registry gives up with a DoNotRetryIOException that only says it timed out
    String m = t.getMessage();
    return name.equals("ConnectException")
        || (m != null
            && (m.contains("Zookeeper GET could not be completed")
                || m.contains("CONNECTIONLOSS")));
  }

  private static String firstArgument(Statement s) {
    if (!s.args().isEmpty() && s.args().get(0) instanceof ShellString str) {
      return str.text();
    }
    return null;
  }

  private static String orMessage(String preferred, String message) {
    return preferred != null ? preferred : message;
  }

  private static String namespace(Statement s, String firstArg, String message) {
    if (firstArg == null) {
      return message;
    }
    int colon = firstArg.indexOf(':');
    boolean namespaceCommand = s.command().endsWith("_namespace");
    return colon > 0 && !namespaceCommand ? firstArg.substring(0, colon) : firstArg;
  }
}
