package dev.basalt.shell;

import static dev.basalt.shell.ReplicationCommands.GROUP;

import dev.basalt.shell.Command.FirstArg;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.replication.ReplicationPeerConfigUtil;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;

/**
 * What a peer replicates, as HBase 2.6's shell changes it: with replicate-all off, the namespaces
 * and tables (with their families) selected; with it on, those excluded. Each set_ command replaces
 * the list, append_ adds to it and remove_ takes from it; all read the peer's configuration, change
 * it and write it back (append_peer_tableCFs and remove_peer_tableCFs through the Admin calls of
 * the same names), as replication_admin.rb does.
 */
final class ReplicationSelectionCommands {
  private ReplicationSelectionCommands() {}

  static List<Command> all() {
    return List.of(
        Command.of(
            "show_peer_tableCFs", GROUP, FirstArg.PEER, ReplicationSelectionCommands::showTableCfs),
        Command.of(
            "set_peer_tableCFs", GROUP, FirstArg.PEER, ReplicationSelectionCommands::setTableCfs),
        Command.of(
            "append_peer_tableCFs",
            GROUP,
            FirstArg.PEER,
            ReplicationSelectionCommands::appendTableCfs),
        Command.of(
            "remove_peer_tableCFs",
            GROUP,
            FirstArg.PEER,
            ReplicationSelectionCommands::removeTableCfs),
        Command.of(
            "set_peer_namespaces", GROUP, FirstArg.PEER, (a, s) -> namespaces(a, s, Edit.SET)),
        Command.of(
            "append_peer_namespaces",
            GROUP,
            FirstArg.PEER,
            (a, s) -> namespaces(a, s, Edit.APPEND)),
        Command.of(
            "remove_peer_namespaces",
            GROUP,
            FirstArg.PEER,
            (a, s) -> namespaces(a, s, Edit.REMOVE)),
        Command.of(
            "set_peer_exclude_namespaces",
            GROUP,
            FirstArg.PEER,
            (a, s) -> excludeNamespaces(a, s, Edit.SET)),
        Command.of(
            "append_peer_exclude_namespaces",
            GROUP,
            FirstArg.PEER,
            (a, s) -> excludeNamespaces(a, s, Edit.APPEND)),
        Command.of(
            "remove_peer_exclude_namespaces",
            GROUP,
            FirstArg.PEER,
            (a, s) -> excludeNamespaces(a, s, Edit.REMOVE)),
        Command.of(
            "set_peer_exclude_tableCFs",
            GROUP,
            FirstArg.PEER,
            (a, s) -> excludeTableCfs(a, s, Edit.SET)),
        Command.of(
            "append_peer_exclude_tableCFs",
            GROUP,
            FirstArg.PEER,
            (a, s) -> excludeTableCfs(a, s, Edit.APPEND)),
        Command.of(
            "remove_peer_exclude_tableCFs",
            GROUP,
            FirstArg.PEER,
            (a, s) -> excludeTableCfs(a, s, Edit.REMOVE)));
  }

  private enum Edit {
    SET,
    APPEND,
    REMOVE
  }

  /** The selected tables, "ns.table:cf1,cf2;default.t2" (an empty line when there are none). */
  private static void showTableCfs(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "show_peer_tableCFs 'id'");
    String id = PeerArguments.peerId(a);
    ReplicationPeerConfig c = s.admin().getReplicationPeerConfig(id);
    String shown = ReplicationCommands.tableCfs(c.getTableCFsMap());
    s.out().println(shown == null ? "" : shown);
  }

  private static void setTableCfs(Arguments a, Session s) throws Exception {
    a.expect(2, 2, "set_peer_tableCFs 'id', " + PeerArguments.TABLE_CFS_EXAMPLE);
    String id = PeerArguments.peerId(a);
    Map<TableName, List<String>> tableCfs = PeerArguments.tableCfs(a, 1);
    ReplicationCommands.update(s, id, b -> b.setTableCFsMap(tableCfs));
  }

  private static void appendTableCfs(Arguments a, Session s) throws Exception {
    a.expect(2, 2, "append_peer_tableCFs 'id', " + PeerArguments.TABLE_CFS_EXAMPLE);
    String id = PeerArguments.peerId(a);
    Map<TableName, List<String>> tableCfs = PeerArguments.tableCfs(a, 1);
    s.admin().appendReplicationPeerTableCFs(id, tableCfs);
  }

  private static void removeTableCfs(Arguments a, Session s) throws Exception {
    a.expect(2, 2, "remove_peer_tableCFs 'id', " + PeerArguments.TABLE_CFS_EXAMPLE);
    String id = PeerArguments.peerId(a);
    Map<TableName, List<String>> tableCfs = PeerArguments.tableCfs(a, 1);
    s.admin().removeReplicationPeerTableCFs(id, tableCfs);
  }

  private static void namespaces(Arguments a, Session s, Edit edit) throws Exception {
    a.expect(2, 2, a.command() + " 'id', ['ns1', 'ns2']");
    String id = PeerArguments.peerId(a);
    Set<String> given = PeerArguments.namespaces(a, 1);
    ReplicationCommands.update(
        s, id, b -> b.setNamespaces(edited(b.build().getNamespaces(), given, edit)));
  }

  private static void excludeNamespaces(Arguments a, Session s, Edit edit) throws Exception {
    a.expect(2, 2, a.command() + " 'id', ['ns1', 'ns2']");
    String id = PeerArguments.peerId(a);
    Set<String> given = PeerArguments.namespaces(a, 1);
    ReplicationCommands.update(
        s, id, b -> b.setExcludeNamespaces(edited(b.build().getExcludeNamespaces(), given, edit)));
  }

  /**
   * The namespace set after an edit. Removing from no set leaves none, as replication_admin.rb
   * does.
   */
  private static Set<String> edited(Set<String> current, Set<String> given, Edit edit) {
    switch (edit) {
      case SET:
        return given;
      case APPEND:
        Set<String> more = current == null ? new HashSet<>() : new HashSet<>(current);
        more.addAll(given);
        return more;
      default:
        if (current == null) {
          return null;
        }
        Set<String> fewer = new HashSet<>(current);
        fewer.removeAll(given);
        return fewer;
    }
  }

  /**
   * The excluded tables: set replaces them; append and remove go through the client's
   * ReplicationPeerConfigUtil, as replication_admin.rb does (so a family list merges with what is
   * there, and removing a table or family that is not excluded fails with its message).
   */
  private static void excludeTableCfs(Arguments a, Session s, Edit edit) throws Exception {
    a.expect(2, 2, a.command() + " 'id', " + PeerArguments.TABLE_CFS_EXAMPLE);
    String id = PeerArguments.peerId(a);
    Map<TableName, List<String>> given = PeerArguments.tableCfs(a, 1);
    Admin admin = s.admin();
    ReplicationPeerConfig current = admin.getReplicationPeerConfig(id);
    ReplicationPeerConfig next =
        switch (edit) {
          case SET ->
              ReplicationPeerConfig.newBuilder(current).setExcludeTableCFsMap(given).build();
          case APPEND ->
              ReplicationPeerConfigUtil.appendExcludeTableCFsToReplicationPeerConfig(
                  given, current);
          case REMOVE ->
              ReplicationPeerConfigUtil.removeExcludeTableCFsFromReplicationPeerConfig(
                  given, current, id);
        };
    admin.updateReplicationPeerConfig(id, next);
  }
}
