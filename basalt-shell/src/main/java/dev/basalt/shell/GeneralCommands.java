package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.util.VersionInfo;

/** help, version, whoami, exit. */
final class GeneralCommands {
  /** Help groups in the order HBase's help lists them. */
  private static final List<String> GROUPS =
      List.of("general", "ddl", "namespace", "dml", "tools", "replication");

  private GeneralCommands() {}

  static List<Command> all(CommandTable table) {
    return List.of(
        Command.of("help", "general", FirstArg.COMMAND, (a, s) -> help(table, a, s)),
        Command.of("version", "general", FirstArg.NONE, GeneralCommands::version),
        Command.of("whoami", "general", FirstArg.NONE, GeneralCommands::whoami),
        Command.of("exit", "general", FirstArg.NONE, (a, s) -> s.requestExit()));
  }

  private static void help(CommandTable table, Arguments a, Session s) throws UsageException {
    a.expect(0, 1, "help or help 'command'");
    PrintWriter out = s.out();
    if (a.has(0)) {
      String name = a.text(0, "a command or group name");
      if (table.find(name) != null) {
        out.println(table.help(name));
        return;
      }
      if (GROUPS.contains(name)) {
        out.println("Command group: " + name);
        for (Command c : table.all()) {
          if (c.group().equals(name)) {
            out.println("  " + c.name() + ": " + table.summary(c.name()));
          }
        }
        return;
      }
      String near = table.suggest(name);
      throw new UsageException(
          "help: no command or group named '"
              + name
              + "'"
              + (near != null ? "; did you mean '" + near + "'?" : "; 'help' lists them"));
    }
    out.println("Basalt shell: the HBase shell's commands, through the stock HBase client.");
    out.println("Type 'help \"COMMAND\"' (e.g. help 'get') for one command with examples,");
    out.println("or 'help \"GROUP\"' (e.g. help 'dml') for a group.");
    out.println();
    out.println("COMMAND GROUPS:");
    Map<String, TreeSet<String>> byGroup = new LinkedHashMap<>();
    for (String g : GROUPS) {
      byGroup.put(g, new TreeSet<>());
    }
    for (Command c : table.all()) {
      byGroup.get(c.group()).add(c.name());
    }
    for (Map.Entry<String, TreeSet<String>> e : byGroup.entrySet()) {
      out.println("  Group name: " + e.getKey());
      out.println("  Commands: " + String.join(", ", e.getValue()));
      out.println();
    }
    out.println("SYNTAX:");
    out.println("  Arguments are Ruby literals, as in the HBase shell: 'strings' or \"strings\"");
    out.println(
        "  (\\xNN escapes in double quotes), numbers, ['arrays'] and {KEY => 'value'} hashes.");
    out.println("  Statements end at a newline or ';'. Ctrl-C stops a running scan or count.");
    out.println("  Example: scan 't1', {COLUMNS => ['cf:a'], LIMIT => 10, VERSIONS => 3}");
  }

  private static void version(Arguments a, Session s) throws UsageException {
    a.expect(0, 0, "version");
    s.out()
        .println(
            VersionInfo.getVersion()
                + ", r"
                + VersionInfo.getRevision()
                + ", "
                + VersionInfo.getDate());
  }

  private static void whoami(Arguments a, Session s) throws Exception {
    a.expect(0, 0, "whoami");
    User user = User.getCurrent();
    s.out().println(user.toString());
    String[] groups = user.getGroupNames();
    if (groups != null && groups.length > 0) {
      s.out().println("    groups: " + String.join(", ", groups));
    }
  }
}
