package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;

/**
 * Regions and namespaces: split, flush, compactions, namespaces (status: {@link StatusCommand}).
 */
final class ClusterCommands {
  private ClusterCommands() {}

  static List<Command> all() {
    return List.of(
        Command.of("split", "tools", FirstArg.TABLE, ClusterCommands::split),
        Command.of("flush", "tools", FirstArg.TABLE, ClusterCommands::flush),
        Command.of("compact", "tools", FirstArg.TABLE, (a, s) -> compact(a, s, false)),
        Command.of("major_compact", "tools", FirstArg.TABLE, (a, s) -> compact(a, s, true)),
        Command.of("list_namespace", "namespace", FirstArg.NONE, ClusterCommands::listNamespaces),
        Command.of(
            "create_namespace", "namespace", FirstArg.NONE, ClusterCommands::createNamespace),
        Command.of(
            "drop_namespace", "namespace", FirstArg.NAMESPACE, ClusterCommands::dropNamespace),
        Command.of(
            "describe_namespace",
            "namespace",
            FirstArg.NAMESPACE,
            ClusterCommands::describeNamespace));
  }

  /**
   * Region names hold commas and table names cannot, so a name with a comma is a region (as printed
   * by the HBase shell and web UI), anything else a table.
   */
  private static boolean isRegionName(String name) {
    return name.indexOf(',') >= 0;
  }

  private static void split(Arguments a, Session s) throws Exception {
    a.expect(1, 2, "split 't1' [, 'splitKey'] or split 'regionName' [, 'splitKey']");
    String target = a.text(0, "a table or region name");
    byte[] key = a.has(1) ? a.bytes(1, "a split key") : null;
    Admin admin = s.admin();
    if (isRegionName(target)) {
      byte[] region = a.bytes(0, "a region name");
      if (key == null) {
        admin.splitRegionAsync(region).get();
      } else {
        admin.splitRegionAsync(region, key).get();
      }
    } else if (key == null) {
      admin.split(a.table(0));
    } else {
      admin.split(a.table(0), key);
    }
  }

  private static void flush(Arguments a, Session s) throws Exception {
    a.expect(1, 2, "flush 't1' [, 'cf'] or flush 'regionName'");
    String target = a.text(0, "a table or region name");
    Admin admin = s.admin();
    byte[] family = a.has(1) ? a.bytes(1, "a column family") : null;
    if (isRegionName(target)) {
      if (family == null) {
        admin.flushRegion(a.bytes(0, "a region name"));
      } else {
        admin.flushRegion(a.bytes(0, "a region name"), family);
      }
    } else if (family == null) {
      admin.flush(a.table(0));
    } else {
      admin.flush(a.table(0), family);
    }
  }

  private static void compact(Arguments a, Session s, boolean major) throws Exception {
    a.expect(1, 2, a.command() + " 't1' [, 'cf'] or " + a.command() + " 'regionName' [, 'cf']");
    String target = a.text(0, "a table or region name");
    Admin admin = s.admin();
    byte[] family = a.has(1) ? a.bytes(1, "a column family") : null;
    if (isRegionName(target)) {
      byte[] region = a.bytes(0, "a region name");
      if (major) {
        if (family == null) {
          admin.majorCompactRegion(region);
        } else {
          admin.majorCompactRegion(region, family);
        }
      } else if (family == null) {
        admin.compactRegion(region);
      } else {
        admin.compactRegion(region, family);
      }
      return;
    }
    TableName table = a.table(0);
    if (major) {
      if (family == null) {
        admin.majorCompact(table);
      } else {
        admin.majorCompact(table, family);
      }
    } else if (family == null) {
      admin.compact(table);
    } else {
      admin.compact(table, family);
    }
  }

  private static void listNamespaces(Arguments a, Session s) throws Exception {
    a.expect(0, 1, "list_namespace [, 'regex']");
    Pattern p = null;
    if (a.has(0)) {
      try {
        p = Pattern.compile(a.text(0, "a regular expression"));
      } catch (PatternSyntaxException e) {
        throw new UsageException("list_namespace: bad regular expression: " + e.getDescription());
      }
    }
    List<String> names = new ArrayList<>();
    for (NamespaceDescriptor nd : s.admin().listNamespaceDescriptors()) {
      if (p == null || p.matcher(nd.getName()).matches()) {
        names.add(nd.getName());
      }
    }
    Formatter f = s.formatter();
    f.header("NAMESPACE");
    for (String n : names) {
      f.line(n);
    }
    f.footer(names.size());
  }

  private static void createNamespace(Arguments a, Session s) throws Exception {
    a.expect(1, 2, "create_namespace 'ns' [, {'PROPERTY' => 'value'}]");
    NamespaceDescriptor.Builder b = NamespaceDescriptor.create(a.text(0, "a namespace name"));
    for (Map.Entry<String, Object> e : a.options(1).map().entrySet()) {
      if (!(e.getValue() instanceof ShellString v)) {
        throw new UsageException("create_namespace: property values must be strings");
      }
      b.addConfiguration(e.getKey(), v.text());
    }
    s.admin().createNamespace(b.build());
  }

  private static void dropNamespace(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "drop_namespace 'ns'");
    s.admin().deleteNamespace(a.text(0, "a namespace name"));
  }

  private static void describeNamespace(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "describe_namespace 'ns'");
    NamespaceDescriptor nd = s.admin().getNamespaceDescriptor(a.text(0, "a namespace name"));
    Formatter f = s.formatter();
    f.header("DESCRIPTION");
    f.line(nd.toString());
  }
}
