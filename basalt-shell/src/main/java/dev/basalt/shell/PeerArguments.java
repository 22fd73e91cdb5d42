package dev.basalt.shell;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The values the replication commands take, read the way hbase-shell's replication_admin.rb reads
 * them: a table-CFs hash ({'t1' => [], 'ns:t2' => ['cf1', 'cf2']}: an empty list or nil means every
 * replicable family), a list of namespaces, a CONFIG hash of strings and a DATA hash whose keys and
 * values become bytes (a number as its 8-byte long, as JRuby's Bytes.to_bytes picks for an
 * integer).
 */
final class PeerArguments {
  static final String TABLE_CFS_EXAMPLE = "{'t1' => [], 'ns1:t2' => ['cf1', 'cf2']}";

  private PeerArguments() {}

  /** The peer id, the first argument of every peer command. */
  static String peerId(Arguments a) throws UsageException {
    return a.text(0, "a peer id");
  }

  /** The table-CFs hash at argument {@code i}. */
  static Map<TableName, List<String>> tableCfs(Arguments a, int i) throws UsageException {
    return tableCfs(a.command(), "argument " + (i + 1), a.get(i));
  }

  /**
   * {table name => families}. The map is a HashMap and the lists ArrayLists, as the HBase shell
   * builds them, so that what the client sends (and prints back) is the same.
   */
  static Map<TableName, List<String>> tableCfs(String command, String what, Object value)
      throws UsageException {
    if (!(value instanceof Map<?, ?> hash)) {
      throw new UsageException(
          command
              + ": "
              + what
              + " must be a hash of tables and their families such as "
              + TABLE_CFS_EXAMPLE
              + ", got "
              + Arguments.shown(value));
    }
    Map<TableName, List<String>> out = new HashMap<>();
    for (Map.Entry<?, ?> e : hash.entrySet()) {
      TableName table = Arguments.tableName(command, (String) e.getKey());
      out.put(table, families(command, table, e.getValue()));
    }
    return out;
  }

  private static List<String> families(String command, TableName table, Object value)
      throws UsageException {
    if (value == null) {
      return null; // every replicable family, like []
    }
    return strings(value, new ArrayList<>(), () -> familiesError(command, table, value));
  }

  /**
   * One string, or a list of strings, added to {@code into}; anything else is {@code error}'s
   * exception.
   */
  private static <C extends Collection<String>> C strings(
      Object value, C into, Supplier<UsageException> error) throws UsageException {
    if (value instanceof ShellString s) {
      into.add(s.text());
      return into;
    }
    if (value instanceof List<?> list) {
      for (Object o : list) {
        if (!(o instanceof ShellString s)) {
          throw error.get();
        }
        into.add(s.text());
      }
      return into;
    }
    throw error.get();
  }

  private static UsageException familiesError(String command, TableName table, Object value) {
    return new UsageException(
        command
            + ": the families of "
            + table.getNameAsString()
            + " must be a list of family names such as ['cf1', 'cf2'] ([] for all), got "
            + Arguments.shown(value));
  }

  /** A list of namespaces (or one namespace) at argument {@code i}, as a set. */
  static Set<String> namespaces(Arguments a, int i) throws UsageException {
    return namespaces(a.command(), "argument " + (i + 1), a.get(i));
  }

  static Set<String> namespaces(String command, String what, Object value) throws UsageException {
    return strings(value, new HashSet<>(), () -> namespacesError(command, what, value));
  }

  private static UsageException namespacesError(String command, String what, Object value) {
    return new UsageException(
        command
            + ": "
            + what
            + " must be a list of namespaces such as ['ns1', 'ns2'], got "
            + Arguments.shown(value));
  }

  /** CONFIG => {'key' => 'value'}: per-peer configuration, strings (a number is written out). */
  static Map<String, String> config(Options o, String key) throws UsageException {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, Object> e : o.hash(key).entrySet()) {
      Object v = e.getValue();
      if (v instanceof ShellString s) {
        out.put(e.getKey(), s.text());
      } else if (v instanceof Long || v instanceof Boolean) {
        out.put(e.getKey(), v.toString());
      } else {
        throw new UsageException(
            o.command()
                + ": the values of "
                + key
                + " must be strings, got "
                + Arguments.shown(v)
                + " for "
                + e.getKey());
      }
    }
    return out;
  }

  /** DATA => {'key' => 'value'}: opaque peer data, bytes. */
  static Map<byte[], byte[]> data(Options o, String key) throws UsageException {
    Map<byte[], byte[]> out = new HashMap<>();
    for (Map.Entry<String, Object> e : o.hash(key).entrySet()) {
      Object v = e.getValue();
      byte[] value;
      if (v instanceof ShellString s) {
        value = s.bytes();
      } else if (v instanceof Long l) {
        value = Bytes.toBytes(l.longValue());
      } else {
        throw new UsageException(
            o.command()
                + ": the values of "
                + key
                + " must be strings or numbers, got "
                + Arguments.shown(v)
                + " for "
                + e.getKey());
      }
      out.put(ShellString.of(e.getKey()).bytes(), value);
    }
    return out;
  }
}
