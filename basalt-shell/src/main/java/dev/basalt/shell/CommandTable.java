package dev.basalt.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every command by name, with aliases (desc, quit) and the help texts of help.txt (one section per
 * command: "@@ name", a one-line summary, then usage and examples).
 */
final class CommandTable {
  private static final Map<String, String> ALIASES = Map.of("desc", "describe", "quit", "exit");

  private final Map<String, Command> commands = new LinkedHashMap<>();
  private final Map<String, String> help;

  private CommandTable(Map<String, String> help) {
    this.help = help;
  }

  static CommandTable standard() {
    CommandTable t = new CommandTable(loadHelp());
    for (List<Command> group :
        List.of(
            GeneralCommands.all(t),
            TableCommands.all(),
            DataCommands.all(),
            ScanCommands.all(),
            ClusterCommands.all(),
            List.of(StatusCommand.command(), ListRegionsCommand.command()),
            PlacementCommands.all(),
            ServerCommands.all(),
            ReplicationCommands.all(),
            ReplicationSelectionCommands.all(),
            ReplicationTableCommands.all())) {
      for (Command c : group) {
        t.commands.put(c.name(), c);
      }
    }
    for (String name : t.commands.keySet()) {
      if (!t.help.containsKey(name)) {
        throw new IllegalStateException("help.txt has no section for " + name);
      }
    }
    return t;
  }

  /** The command named {@code name} (or aliased by it), or null. */
  Command find(String name) {
    return commands.get(ALIASES.getOrDefault(name, name));
  }

  Collection<Command> all() {
    return commands.values();
  }

  /** Command names and aliases, sorted. */
  List<String> names() {
    TreeSet<String> names = new TreeSet<>(commands.keySet());
    names.addAll(ALIASES.keySet());
    return new ArrayList<>(names);
  }

  String help(String name) {
    return help.get(ALIASES.getOrDefault(name, name));
  }

  /** The first line of a command's help. */
  String summary(String name) {
    String h = help(name);
    int nl = h.indexOf('\n');
    return nl < 0 ? h : h.substring(0, nl);
  }

  String suggest(String unknown) {
    return Suggest.closest(unknown, names());
  }

  private static Map<String, String> loadHelp() {
    try (InputStream in = CommandTable.class.getResourceAsStream("help.txt")) {
      if (in == null) {
        throw new IllegalStateException("help.txt missing from the class path");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      Map<String, String> sections = new LinkedHashMap<>();
      for (String part : text.split("(?m)^@@ ")) {
        if (part.isBlank()) {
          continue;
        }
        int nl = part.indexOf('\n');
        sections.put(part.substring(0, nl).trim(), part.substring(nl + 1).stripTrailing());
      }
      return sections;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
