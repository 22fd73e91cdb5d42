package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion: command names first; then, for the first argument, table names (asked from the
 * cluster, at most every few seconds), namespaces, region servers, replication peers or command
 * names, quoted; after that the option keys the command takes, as "KEY =>".
 */
final class ShellCompleter implements Completer {
  private static final long CACHE_NANOS = 3_000_000_000L;

  private final CommandTable commands;
  private final Session session;
  private List<String> tables = List.of();
  private long tablesAt;

  ShellCompleter(CommandTable commands, Session session) {
    this.commands = commands;
    this.session = session;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
    if (!(line instanceof ShellLineParser.Context ctx)) {
      return;
    }
    if (ctx.argIndex() < 0) {
      for (String name : commands.names()) {
        candidates.add(new Candidate(name, name, null, commands.summary(name), null, null, true));
      }
      return;
    }
    Command command = commands.find(ctx.command());
    if (command == null) {
      return;
    }
    if (ctx.argIndex() == 0 && !ctx.inCollection()) {
      for (String name : firstArgumentNames(command.firstArg())) {
        String quoted = "'" + name + "'";
        candidates.add(new Candidate(quoted, name, null, null, null, null, true));
      }
      return;
    }
    if (!ctx.word().startsWith("'") && !ctx.word().startsWith("\"")) {
      for (String key : command.optionKeys()) {
        candidates.add(new Candidate(key + " =>", key, null, null, null, null, true));
      }
    }
  }

  private List<String> firstArgumentNames(FirstArg kind) {
    switch (kind) {
      case TABLE:
        return tableNames();
      case NAMESPACE:
        return namespaces();
      case COMMAND:
        return commands.names();
      case SERVER:
        return serverNames();
      case PEER:
        return peerIds();
      default:
        return List.of();
    }
  }

  private synchronized List<String> tableNames() {
    if (System.nanoTime() - tablesAt < CACHE_NANOS) {
      return tables;
    }
    List<String> names = new ArrayList<>();
    try {
      for (TableName t : session.admin().listTableNames()) {
        names.add(t.getNameAsString());
      }
    } catch (Exception | LinkageError e) {
      return List.of(); // completion is a convenience: no cluster, no table names
    }
    tables = names;
    tablesAt = System.nanoTime();
    return names;
  }

  private List<String> serverNames() {
    List<String> names = new ArrayList<>();
    try {
      for (ServerName s : session.admin().getRegionServers()) {
        names.add(s.getServerName());
      }
    } catch (Exception | LinkageError e) {
      return List.of(); // completion is a convenience: no cluster, no server names
    }
    return names;
  }

  private List<String> peerIds() {
    List<String> ids = new ArrayList<>();
    try {
      for (ReplicationPeerDescription peer : session.admin().listReplicationPeers()) {
        ids.add(peer.getPeerId());
      }
    } catch (Exception | LinkageError e) {
      return List.of(); // completion is a convenience: no cluster, no peer ids
    }
    return ids;
  }

  private List<String> namespaces() {
    List<String> names = new ArrayList<>();
    try {
      for (NamespaceDescriptor nd : session.admin().listNamespaceDescriptors()) {
        names.add(nd.getName());
      }
    } catch (Exception e) {
      return List.of();
    }
    return names;
  }
}
