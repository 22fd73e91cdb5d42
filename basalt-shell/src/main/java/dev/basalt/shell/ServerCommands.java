package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;

/**
 * Region servers taken out of (and back into) service: decommission_regionservers,
 * recommission_regionserver and list_decommissioned_regionservers, with the HBase 2.6 shell's
 * arguments. A server is named as admin.rb takes it: 'host,port,startcode' as is, or 'host' or
 * 'host,port', which mean the live servers on that host (and port).
 */
final class ServerCommands {
  private ServerCommands() {}

  static List<Command> all() {
    return List.of(
        Command.of(
            "decommission_regionservers", "tools", FirstArg.SERVER, ServerCommands::decommission),
        Command.of(
            "recommission_regionserver", "tools", FirstArg.SERVER, ServerCommands::recommission),
        Command.of(
            "list_decommissioned_regionservers",
            "tools",
            FirstArg.NONE,
            ServerCommands::listDecommissioned));
  }

  /** decommission_regionservers 'server' | ['server1', ...][, offload]. */
  private static void decommission(Arguments a, Session s) throws Exception {
    a.expect(
        1,
        2,
        "decommission_regionservers 'host[,port[,startcode]]' or ['server1', 'server2'] [, true]");
    List<String> names = new ArrayList<>();
    Object first = a.get(0);
    if (first instanceof List<?> list) {
      for (Object o : list) {
        if (!(o instanceof ShellString str)) {
          throw new UsageException(
              "decommission_regionservers: server names must be strings, got "
                  + Arguments.shown(o));
        }
        names.add(str.text());
      }
    } else {
      names.add(a.text(0, "a server name or an array of them"));
    }
    boolean offload = a.has(1) && PlacementCommands.bool(a, 1);
    Collection<ServerName> live = s.admin().getRegionServers();
    List<ServerName> servers = new ArrayList<>();
    for (String name : names) {
      servers.addAll(matching(name, live));
    }
    if (servers.isEmpty()) {
      throw new UsageException(
          "decommission_regionservers: could not find any server(s) with specified name(s): "
              + String.join(", ", names)
              + "; status 'simple' lists the live servers");
    }
    s.admin().decommissionRegionServers(servers, offload);
  }

  /** recommission_regionserver 'server'[, ['encoded_region_name', ...]]. */
  private static void recommission(Arguments a, Session s) throws Exception {
    a.expect(
        1,
        2,
        "recommission_regionserver 'host[,port[,startcode]]' [, ['encoded_region_name', ...]]");
    String name = a.text(0, "a server name");
    List<byte[]> regions = new ArrayList<>();
    if (a.has(1)) {
      if (!(a.get(1) instanceof List<?> list)) {
        throw new UsageException(
            "recommission_regionserver: argument 2 must be an array of encoded region names, got "
                + Arguments.shown(a.get(1)));
      }
      for (Object o : list) {
        if (!(o instanceof ShellString str)) {
          throw new UsageException(
              "recommission_regionserver: encoded region names must be strings, got "
                  + Arguments.shown(o));
        }
        regions.add(str.text().getBytes(StandardCharsets.UTF_8));
      }
    }
    List<ServerName> found = matching(name, s.admin().getRegionServers());
    if (found.isEmpty()) {
      throw new UsageException(
          "recommission_regionserver: could not find any server with name "
              + name
              + "; list_decommissioned_regionservers lists the decommissioned servers");
    }
    s.admin()
        .recommissionRegionServer(
            choose(found, s.admin().listDecommissionedRegionServers()), regions);
  }

  /**
   * Which of the servers a name matches to recommission: admin.rb takes the first live one, which
   * for 'host' on a host with several region servers may not be the decommissioned one; this takes
   * a decommissioned one when there is one.
   */
  static ServerName choose(List<ServerName> matches, List<ServerName> decommissioned) {
    for (ServerName sn : matches) {
      if (decommissioned.contains(sn)) {
        return sn;
      }
    }
    return matches.get(0);
  }

  private static void listDecommissioned(Arguments a, Session s) throws Exception {
    a.expect(0, 0, "list_decommissioned_regionservers");
    List<ServerName> servers = s.admin().listDecommissionedRegionServers();
    Formatter f = s.formatter();
    f.header("DECOMMISSIONED REGION SERVERS");
    for (ServerName server : servers) {
      f.line(server.getServerName());
    }
    f.footer(servers.size());
  }

  /**
   * The servers a name means, as admin.rb's getServerNames resolves it: a full
   * 'host,port,startcode' is taken as is (live or not); 'host' or 'host,port' means every live
   * server on that host (and port).
   */
  static List<ServerName> matching(String name, Collection<ServerName> live) {
    List<ServerName> out = new ArrayList<>();
    if (ServerName.isFullServerName(name)) {
      out.add(ServerName.valueOf(name));
      return out;
    }
    String[] parts = name.split(",");
    if (parts.length == 0) {
      return out;
    }
    for (ServerName sn : live) {
      if (parts[0].equals(sn.getHostname())
          && (parts.length < 2 || parts[1].equals(Integer.toString(sn.getPort())))) {
        out.add(sn);
      }
    }
    return out;
  }
}
