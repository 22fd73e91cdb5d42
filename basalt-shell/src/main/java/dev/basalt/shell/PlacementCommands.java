package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.client.BalanceResponse;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * Where regions are served: move, assign, unassign, close_region (deprecated in HBase 2: it only
 * says so) and the balancer (balancer, balance_switch, balancer_enabled), with the HBase 2.6
 * shell's arguments and output. A standalone server refuses moves and assigns (it has one region
 * server); its message reaches the user through {@link ErrorMessages}.
 */
final class PlacementCommands {
  private PlacementCommands() {}

  static List<Command> all() {
    return List.of(
        Command.of("move", "tools", FirstArg.NONE, PlacementCommands::move),
        Command.of("assign", "tools", FirstArg.NONE, PlacementCommands::assign),
        Command.of("unassign", "tools", FirstArg.NONE, PlacementCommands::unassign),
        Command.of("close_region", "tools", FirstArg.NONE, PlacementCommands::closeRegion),
        Command.of("balancer", "tools", FirstArg.NONE, PlacementCommands::balancer),
        Command.of("balance_switch", "tools", FirstArg.NONE, PlacementCommands::balanceSwitch),
        Command.of("balancer_enabled", "tools", FirstArg.NONE, PlacementCommands::balancerEnabled));
  }

  /**
   * move 'ENCODED_REGIONNAME'[, 'SERVER_NAME']: to the server named, or to one the master picks. A
   * full region name is taken too (its encoded name is the hash at its end).
   */
  private static void move(Arguments a, Session s) throws Exception {
    a.expect(1, 2, "move 'ENCODED_REGIONNAME' [, 'host,port,startcode']");
    byte[] region = encodedName(a.bytes(0, "an encoded region name"));
    String server = a.has(1) && a.get(1) != null ? a.text(1, "a server name") : "";
    if (server.isEmpty()) {
      s.admin().move(region);
      return;
    }
    if (!ServerName.isFullServerName(server)) {
      throw new UsageException(
          "move: '"
              + server
              + "' is not a server name; give host,port,startcode as status 'simple' shows it"
              + " (e.g. 'host1.example.com,16020,1700000000000')");
    }
    s.admin().move(region, ServerName.valueOf(server));
  }

  /** The encoded name of a full region name ("t1,start,id.ENCODED."); any other name as is. */
  private static byte[] encodedName(byte[] name) {
    for (byte b : name) {
      if (b == ',') {
        return RegionInfo.encodeRegionName(name).getBytes(StandardCharsets.UTF_8);
      }
    }
    return name;
  }

  private static void assign(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "assign 'REGIONNAME' or assign 'ENCODED_REGIONNAME'");
    s.admin().assign(a.bytes(0, "a region name"));
  }

  /** unassign 'REGIONNAME'[, force]: the force flag is deprecated in HBase 2 and ignored. */
  private static void unassign(Arguments a, Session s) throws Exception {
    a.expect(1, 2, "unassign 'REGIONNAME' or unassign 'ENCODED_REGIONNAME'");
    if (a.has(1) && !(a.get(1) instanceof Boolean) && !a.isString(1)) {
      throw new UsageException(
          "unassign: argument 2 (force, ignored since HBase 2) must be true or false, got "
              + Arguments.shown(a.get(1)));
    }
    s.admin().unassign(a.bytes(0, "a region name"));
  }

  /** HBase 2 removed close_region's work; its shell only points to unassign, and so does this. */
  private static void closeRegion(Arguments a, Session s) throws UsageException {
    a.expect(1, 2, "close_region 'REGIONNAME' [, 'SERVER_NAME'] (deprecated: use unassign)");
    s.out().println("DEPRECATED!!! Use 'unassign' command instead.");
  }

  /** balancer [, 'force' | 'ignore_rit'] [, 'dry_run']: HBase 2.6's BalanceRequest options. */
  private static void balancer(Arguments a, Session s) throws Exception {
    a.expect(0, 2, "balancer [, 'force' | 'ignore_rit'] [, 'dry_run']");
    BalanceRequest.Builder request = BalanceRequest.newBuilder();
    for (int i = 0; i < a.count(); i++) {
      if (!a.isString(i)) {
        throw new UsageException(
            "balancer: argument "
                + (i + 1)
                + " must be 'force', 'ignore_rit' or 'dry_run' in quotes, got "
                + Arguments.shown(a.get(i)));
      }
      switch (a.text(i, "an option")) {
        case "force", "ignore_rit" -> request.setIgnoreRegionsInTransition(true);
        case "dry_run" -> request.setDryRun(true);
        default ->
            throw new UsageException(
                "balancer: unknown option '"
                    + a.text(i, "an option")
                    + "'; expected 'force', 'ignore_rit' or 'dry_run'");
      }
    }
    BalanceResponse r = s.admin().balance(request.build());
    Formatter f = s.formatter();
    f.header();
    if (r.isBalancerRan()) {
      f.line("Balancer ran");
      f.line(
          "Moves calculated: "
              + r.getMovesCalculated()
              + ", moves executed: "
              + r.getMovesExecuted());
    } else {
      f.line("Balancer did not run. See logs for details.");
    }
  }

  /** balance_switch true|false: prints the previous state. */
  private static void balanceSwitch(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "balance_switch true or balance_switch false");
    boolean on = bool(a, 0);
    boolean before = s.admin().balancerSwitch(on, false);
    s.formatter().header();
    s.formatter().line(Boolean.toString(before));
  }

  private static void balancerEnabled(Arguments a, Session s) throws Exception {
    a.expect(0, 0, "balancer_enabled");
    boolean on = s.admin().isBalancerEnabled();
    s.formatter().header();
    s.formatter().line(Boolean.toString(on));
  }

  /** true or false, bare or quoted (HBase passes either to Boolean.valueOf). */
  static boolean bool(Arguments a, int i) throws UsageException {
    Object v = a.get(i);
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof ShellString str) {
      String t = str.text().toLowerCase(Locale.ROOT);
      if (t.equals("true") || t.equals("false")) {
        return Boolean.parseBoolean(t);
      }
    }
    throw new UsageException(
        a.command()
            + ": argument "
            + (i + 1)
            + " must be true or false, got "
            + Arguments.shown(v));
  }
}
