package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/** Table DDL: create, alter, describe, list, exists, enable, disable, drop, truncate. */
final class TableCommands {
  private static final String DDL = "ddl";

  private TableCommands() {}

  static List<Command> all() {
    List<String> createKeys = new ArrayList<>(Descriptors.FAMILY_KEYS);
    createKeys.addAll(Descriptors.TABLE_KEYS);
    createKeys.add("SPLITS");
    createKeys.remove("METHOD");
    List<String> alterKeys = new ArrayList<>(Descriptors.FAMILY_KEYS);
    alterKeys.addAll(Descriptors.TABLE_KEYS);
    return List.of(
        Command.of("create", DDL, FirstArg.NONE, TableCommands::create).withOptions(createKeys),
        Command.of("alter", DDL, FirstArg.TABLE, TableCommands::alter).withOptions(alterKeys),
        Command.of("describe", DDL, FirstArg.TABLE, TableCommands::describe),
        Command.of("list", DDL, FirstArg.NONE, TableCommands::list),
        Command.of("exists", DDL, FirstArg.TABLE, TableCommands::exists),
        Command.of("enable", DDL, FirstArg.TABLE, (a, s) -> tableOp(a, s, Admin::enableTable)),
        Command.of("disable", DDL, FirstArg.TABLE, (a, s) -> tableOp(a, s, Admin::disableTable)),
        Command.of("is_enabled", DDL, FirstArg.TABLE, (a, s) -> state(a, s, true)),
        Command.of("is_disabled", DDL, FirstArg.TABLE, (a, s) -> state(a, s, false)),
        Command.of("drop", DDL, FirstArg.TABLE, (a, s) -> tableOp(a, s, Admin::deleteTable)),
        Command.of("truncate", DDL, FirstArg.TABLE, TableCommands::truncate));
  }

  @FunctionalInterface
  private interface TableAction {
    void apply(Admin admin, TableName table) throws Exception;
  }

  private static void tableOp(Arguments a, Session s, TableAction action) throws Exception {
    a.expect(1, 1, a.command() + " 't1'");
    action.apply(s.admin(), a.table(0));
  }

  private static void create(Arguments a, Session s) throws Exception {
    if (a.count() < 2) {
      throw new UsageException(
          "create needs a table name and at least one column family; usage: create 't1', 'cf'");
    }
    TableName name = a.table(0);
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name);
    byte[][] splits = null;
    int families = 0;
    for (int i = 1; i < a.count(); i++) {
      if (a.isString(i)) {
        b.setColumnFamily(
            Descriptors.family("create", new Options("create", Map.of("NAME", a.get(i))), null));
        families++;
        continue;
      }
      Options o = a.options(i);
      if (o.has("NAME")) {
        b.setColumnFamily(Descriptors.family("create", o, null));
        families++;
      } else {
        if (o.has("NUMREGIONS") || o.has("SPLITALGO")) {
          throw new UsageException(
              "create: NUMREGIONS/SPLITALGO are not supported; give the split points: SPLITS => ['a', 'm']");
        }
        if (o.has("SPLITS")) {
          splits = Descriptors.splits(o);
        }
        Descriptors.table("create", o, b);
      }
    }
    if (families == 0) {
      throw new UsageException(
          "create needs at least one column family; usage: create 't1', 'cf' or create 't1', {NAME => 'cf'}");
    }
    if (splits != null && splits.length > 0) {
      s.admin().createTable(b.build(), splits);
    } else {
      s.admin().createTable(b.build());
    }
    s.out().println("Created table " + name.getNameAsString());
  }

  private static void alter(Arguments a, Session s) throws Exception {
    if (a.count() < 2) {
      throw new UsageException(
          "alter needs a table and at least one change; usage: alter 't1', NAME => 'cf', VERSIONS => 5");
    }
    TableName name = a.table(0);
    Admin admin = s.admin();
    TableDescriptor current = admin.getDescriptor(name);
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(current);
    for (int i = 1; i < a.count(); i++) {
      Options o = a.isString(i) ? new Options("alter", Map.of("NAME", a.get(i))) : a.options(i);
      applyAlter(o, name, current, b);
      current = b.build();
    }
    s.out().println("Updating all regions with the new schema...");
    admin.modifyTable(b.build());
    int regions = admin.getRegions(name).size();
    s.out().println(regions + "/" + regions + " regions updated.");
    s.out().println("Done.");
  }

  private static void applyAlter(
      Options o, TableName table, TableDescriptor current, TableDescriptorBuilder b)
      throws UsageException {
    String method = o.has("METHOD") ? o.text("METHOD") : null;
    if (o.has("delete") || "delete".equals(method)) {
      String family = o.has("delete") ? o.text("delete") : o.text("NAME");
      byte[] f = ShellString.of(family).bytes();
      if (!current.hasColumnFamily(f)) {
        throw new UsageException(
            "alter: table '"
                + table.getNameAsString()
                + "' has no column family '"
                + family
                + "'; 'describe' shows its families");
      }
      b.removeColumnFamily(f);
    } else if ("table_att_unset".equals(method)) {
      for (ShellString key : o.strings("NAME")) {
        b.removeValue(key.bytes());
      }
    } else if (method != null && !"table_att".equals(method)) {
      throw new UsageException(
          "alter: unknown METHOD '" + method + "'; use 'delete', 'table_att' or 'table_att_unset'");
    } else if (o.has("NAME") && !"table_att".equals(method)) {
      byte[] f = ShellString.of(o.text("NAME")).bytes();
      ColumnFamilyDescriptor existing = current.getColumnFamily(f);
      ColumnFamilyDescriptor cf = Descriptors.family("alter", o, existing);
      if (existing == null) {
        b.setColumnFamily(cf);
      } else {
        b.modifyColumnFamily(cf);
      }
    } else {
      Descriptors.table("alter", o, b);
    }
  }

  private static void describe(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "describe 't1'");
    TableName name = a.table(0);
    Admin admin = s.admin();
    TableDescriptor d = admin.getDescriptor(name);
    Formatter f = s.formatter();
    boolean enabled = admin.isTableEnabled(name);
    f.header("Table " + name.getNameAsString() + " is " + (enabled ? "ENABLED" : "DISABLED"));
    f.line(name.getNameAsString() + tableAttributes(d));
    f.header("COLUMN FAMILIES DESCRIPTION");
    for (ColumnFamilyDescriptor cf : d.getColumnFamilies()) {
      f.line(cf.toString());
      s.out().println();
    }
    f.footer(d.getColumnFamilyCount());
  }

  /** HBase's ", {TABLE_ATTRIBUTES => {...}}" suffix, empty for a table without attributes. */
  private static String tableAttributes(TableDescriptor d) {
    if (d instanceof TableDescriptorBuilder.ModifyableTableDescriptor m) {
      return m.toStringTableAttributes();
    }
    return "";
  }

  private static void list(Arguments a, Session s) throws Exception {
    a.expect(0, 1, "list or list 'regex'");
    Formatter f = s.formatter();
    List<TableName> names;
    if (a.count() == 1) {
      String regex = a.text(0, "a regular expression");
      Pattern p;
      try {
        p = Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        throw new UsageException("list: bad regular expression: " + e.getDescription());
      }
      names = List.of(s.admin().listTableNames(p));
    } else {
      names = List.of(s.admin().listTableNames());
    }
    f.header("TABLE");
    for (TableName t : names) {
      f.line(t.getNameAsString());
    }
    f.footer(names.size());
  }

  private static void exists(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "exists 't1'");
    TableName name = a.table(0);
    boolean exists = s.admin().tableExists(name);
    s.out()
        .println("Table " + name.getNameAsString() + (exists ? " does exist" : " does not exist"));
  }

  private static void state(Arguments a, Session s, boolean enabled) throws Exception {
    a.expect(1, 1, a.command() + " 't1'");
    TableName name = a.table(0);
    boolean answer = enabled ? s.admin().isTableEnabled(name) : s.admin().isTableDisabled(name);
    s.out().println(answer);
  }

  private static void truncate(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "truncate 't1'");
    TableName name = a.table(0);
    Admin admin = s.admin();
    if (!admin.tableExists(name)) {
      throw new org.apache.hadoop.hbase.TableNotFoundException(name);
    }
    s.out().println("Truncating '" + name.getNameAsString() + "' table (it may take a while):");
    if (admin.isTableEnabled(name)) {
      s.out().println("Disabling table...");
      admin.disableTable(name);
    }
    s.out().println("Truncating table...");
    admin.truncateTable(name, false);
  }
}
