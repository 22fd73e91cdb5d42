package dev.basalt.server.rpc;

import dev.basalt.cell.Bytes;
import dev.basalt.util.BasaltIOException;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.FieldDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line for every request the server refuses or fails, so that an operator can see why a
 * client's calls fail without turning on debug logging: the method, the table or region the request
 * names, the client (address and user), the HBase exception class the client receives and its
 * message. Expected refusals (a missing table, a region that moved, a bad argument: a {@link
 * BasaltIOException}) are logged at INFO in one line; anything else (a bug, an I/O failure of the
 * storage) at WARN with its stack trace. A method the server does not implement is logged once per
 * method (at WARN), since a tool that calls it usually calls it again and again.
 *
 * <p>Only failures are logged; the cost (reflection over the request to find its table) is paid on
 * the failure path alone. Thread-safe.
 */
public final class CallFailureLog {
  private static final Logger LOG = LoggerFactory.getLogger(CallFailureLog.class);

  /** How deep into nested request messages a table or region name is looked for. */
  private static final int SEARCH_DEPTH = 3;

  private static final Set<String> UNIMPLEMENTED_SEEN = ConcurrentHashMap.newKeySet();

  private CallFailureLog() {}

  /**
   * Logs a failed call.
   *
   * @param where "Service.Method"
   * @param param the parsed request, or null when it could not be parsed
   * @param unimplemented whether the service has no handler for the method
   */
  static void callFailed(
      String where,
      Message param,
      SocketAddress client,
      String user,
      Throwable t,
      boolean unimplemented) {
    if (unimplemented) {
      if (UNIMPLEMENTED_SEEN.add(where)) {
        LOG.warn(
            "{} from {} is not implemented by this server (logged once per method): {}",
            where,
            who(client, user),
            t.getMessage());
      }
      return;
    }
    log(where + target(param), who(client, user), t, "failed");
  }

  /**
   * Logs the failed parts of a request that succeeded as a whole (a multi whose actions fail one by
   * one): one line for the request, naming the first failure.
   *
   * @param failed how many parts failed (at least 1)
   * @param total how many parts the request had
   * @param firstTarget the table or region of the first failed part, or null
   */
  public static void partsFailed(
      RpcCall call, int failed, int total, String firstTarget, Throwable first) {
    String where =
        call.service()
            + "."
            + call.method()
            + (firstTarget == null ? "" : " " + firstTarget)
            + " ("
            + failed
            + " of "
            + total
            + " actions failed; the first)";
    log(where, who(call.remoteAddress(), call.user()), first, "failed");
  }

  private static void log(String where, String who, Throwable t, String verb) {
    if (isExpected(t)) {
      BasaltIOException b = (BasaltIOException) t;
      LOG.info("{} from {} {}: {}: {}", where, who, verb, b.hbaseExceptionClass(), b.getMessage());
    } else {
      LOG.warn("{} from {} {} with an unexpected error", where, who, verb, t);
    }
  }

  /**
   * A refusal the server meant (its HBase class tells the client what happened), as opposed to a
   * bug or a storage failure, which an operator needs the stack trace of.
   */
  static boolean isExpected(Throwable t) {
    if (!(t instanceof BasaltIOException)) {
      return false;
    }
    Throwable cause = t.getCause();
    return cause == null || cause instanceof BasaltIOException;
  }

  private static String who(SocketAddress client, String user) {
    String address = client == null ? "an unknown address" : client.toString();
    return user == null || user.isEmpty() ? address : address + " (user " + user + ")";
  }

  /** " table t1" or " region ..." for the first table or region the request names, else "". */
  static String target(Message param) {
    if (param == null) {
      return "";
    }
    String t = find(param, SEARCH_DEPTH);
    return t == null ? "" : " " + t;
  }

  /** "region NAME" as the log lines name a region. */
  public static String regionOf(HBaseProtos.RegionSpecifier r) {
    return "region " + Bytes.toStringBinary(r.getValue().toByteArray());
  }

  private static String find(Message m, int depth) {
    if (m instanceof HBaseProtos.RegionSpecifier r) {
      return regionOf(r);
    }
    if (m instanceof HBaseProtos.TableName t) {
      return "table " + t.getNamespace().toStringUtf8() + ":" + t.getQualifier().toStringUtf8();
    }
    if (depth == 0) {
      return null;
    }
    for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      Object v = e.getValue();
      if (e.getKey().isRepeated()) {
        List<?> values = (List<?>) v;
        if (values.isEmpty()) {
          continue;
        }
        v = values.get(0);
      }
      if (v instanceof Message sub) {
        String found = find(sub, depth - 1);
        if (found != null) {
          return found;
        }
      } else if (e.getKey().getName().equals("scanner_id")) {
        return "scanner " + v;
      }
    }
    return null;
  }
}
