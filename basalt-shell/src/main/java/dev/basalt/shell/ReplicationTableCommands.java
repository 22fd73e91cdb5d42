package dev.basalt.shell;

import static dev.basalt.shell.ReplicationCommands.GROUP;

import dev.basalt.shell.Command.FirstArg;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.replication.TableCFs;

/**
 * Tables and replication, as HBase 2.6's shell shows and switches them: list_replicated_tables (the
 * families whose REPLICATION_SCOPE is not 0), enable_table_replication (scope 1 on every family,
 * after the client has created the table on each peer that replicates it, or checked that it is
 * there with the same schema) and disable_table_replication (scope 0).
 */
final class ReplicationTableCommands {
  /** list_replicated_tables.rb gives the first column 32% of the terminal width. */
  private static final int FIRST_COLUMN_PERCENT = 32;

  private ReplicationTableCommands() {}

  static List<Command> all() {
    return List.of(
        Command.of(
            "list_replicated_tables",
            GROUP,
            FirstArg.NONE,
            ReplicationTableCommands::listReplicated),
        Command.of(
            "enable_table_replication", GROUP, FirstArg.TABLE, (a, s) -> switchTable(a, s, true)),
        Command.of(
            "disable_table_replication",
            GROUP,
            FirstArg.TABLE,
            (a, s) -> switchTable(a, s, false)));
  }

  /**
   * One row per replicated family, "table:family" and its scope's name, for the tables whose name
   * contains a match of the regular expression (JRuby's Pattern#match finds, it does not match
   * whole).
   */
  private static void listReplicated(Arguments a, Session s) throws Exception {
    a.expect(0, 1, "list_replicated_tables [, 'regex']");
    Pattern p;
    try {
      p = Pattern.compile(a.has(0) ? a.text(0, "a regular expression") : ".*");
    } catch (PatternSyntaxException e) {
      throw new UsageException(
          "list_replicated_tables: bad regular expression: " + e.getDescription());
    }
    Formatter f = s.formatter();
    f.headerWithFirstColumn(FIRST_COLUMN_PERCENT, "TABLE:COLUMNFAMILY", "ReplicationType");
    int rows = 0;
    for (TableCFs t : s.admin().listReplicatedTableCFs()) {
      String table = t.getTable().getNameAsString();
      if (!p.matcher(table).find()) {
        continue;
      }
      for (Map.Entry<String, Integer> cf : t.getColumnFamilyMap().entrySet()) {
        f.rowWithFirstColumn(
            FIRST_COLUMN_PERCENT, table + ":" + cf.getKey(), scopeName(cf.getValue()));
        rows++;
      }
    }
    f.footer(rows);
  }

  private static String scopeName(int scope) {
    if (scope == HConstants.REPLICATION_SCOPE_LOCAL) {
      return "LOCAL";
    }
    return scope == HConstants.REPLICATION_SCOPE_GLOBAL ? "GLOBAL" : "UNKNOWN";
  }

  private static void switchTable(Arguments a, Session s, boolean enable) throws Exception {
    a.expect(1, 1, a.command() + " 'table'");
    String name = a.text(0, "a table name");
    TableName table = a.table(0);
    if (enable) {
      s.admin().enableTableReplication(table);
      s.out().println("The replication of table '" + name + "' successfully enabled");
    } else {
      s.admin().disableTableReplication(table);
      s.out().println("Replication of table '" + name + "' successfully disabled.");
    }
  }
}
