package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.jline.reader.Candidate;
import org.junit.jupiter.api.Test;

/**
 * The cluster commands against a standalone server: it has one region server, so moves, assigns and
 * decommissions are refused, and the refusal must reach the user as one line naming why and what to
 * do; the balancer never runs there. Also what the shell checks itself, before calling.
 */
class PlacementCommandsStandaloneTest extends ShellTestBase {
  private static final String ONE_SERVER =
      "a standalone server has one region server, which serves every region (run a cluster:"
          + " bin/basalt local-cluster)\n";

  @Test
  void movesAssignsAndDecommissionsAreRefusedWithTheServersReason() throws Exception {
    shell.ok("create 'pl_s1', 'cf'");
    RegionInfo region = shell.session().admin().getRegions(TableName.valueOf("pl_s1")).get(0);
    String encoded = region.getEncodedName();
    String server = shell.session().admin().getRegionServers().iterator().next().getServerName();

    assertThat(shell.run("move '" + encoded + "'").err())
        .isEqualTo(
            "ERROR: move failed: DoNotRetryIOException: cannot move region "
                + encoded
                + ": "
                + ONE_SERVER);
    assertThat(shell.run("move '" + encoded + "', '" + server + "'").err())
        .startsWith("ERROR: move failed: DoNotRetryIOException: cannot move region " + encoded);
    assertThat(shell.run("assign '" + region.getRegionNameAsString() + "'").err())
        .isEqualTo(
            "ERROR: assign failed: DoNotRetryIOException: cannot assign regions: " + ONE_SERVER);
    assertThat(shell.run("unassign '" + encoded + "', true").err())
        .isEqualTo(
            "ERROR: unassign failed: DoNotRetryIOException: cannot unassign regions: "
                + ONE_SERVER);
    assertThat(shell.run("decommission_regionservers '" + server + "', true").err())
        .isEqualTo(
            "ERROR: decommission_regionservers failed: DoNotRetryIOException: cannot decommission"
                + " region servers: "
                + ONE_SERVER);
    assertThat(shell.run("recommission_regionserver '" + server + "'").err())
        .isEqualTo(
            "ERROR: recommission_regionserver failed: DoNotRetryIOException: cannot recommission"
                + " region servers: "
                + ONE_SERVER);
    // nothing moved
    assertThat(shell.session().admin().getRegions(ServerName.valueOf(server)))
        .extracting(RegionInfo::getEncodedName)
        .contains(encoded);
    assertThat(shell.ok("list_decommissioned_regionservers"))
        .isEqualTo("DECOMMISSIONED REGION SERVERS\n0 row(s)\n");
  }

  @Test
  void theBalancerIsOffAndNeverRuns() {
    assertThat(shell.ok("balancer_enabled")).isEqualTo("false\n");
    assertThat(shell.ok("balancer")).isEqualTo("Balancer did not run. See logs for details.\n");
    assertThat(shell.ok("balancer 'dry_run', 'force'"))
        .isEqualTo("Balancer ran\nMoves calculated: 0, moves executed: 0\n");
    // the switch answers its previous state; a standalone server keeps what it is given (tools set
    // it and read it back), though a run never moves anything
    assertThat(shell.ok("balance_switch true")).isEqualTo("false\n");
    assertThat(shell.ok("balancer_enabled")).isEqualTo("true\n");
    assertThat(shell.ok("balancer"))
        .isEqualTo("Balancer ran\nMoves calculated: 0, moves executed: 0\n");
    assertThat(shell.ok("balance_switch 'false'")).isEqualTo("true\n");
    assertThat(shell.ok("balancer_enabled")).isEqualTo("false\n");
  }

  @Test
  void closeRegionOnlySaysItIsDeprecatedAsInHBase2() {
    ShellHarness.Result r = shell.run("close_region 'pl_whatever,,1.abc.', 'h,1,2'");
    assertThat(r.ok()).isTrue();
    assertThat(r.out()).isEqualTo("DEPRECATED!!! Use 'unassign' command instead.\n");
    assertThat(r.took()).isEqualTo(1);
  }

  @Test
  void badArgumentsAreRefusedBeforeAnyCall() {
    assertThat(shell.run("balancer 'now'").err())
        .isEqualTo(
            "ERROR: balancer: unknown option 'now'; expected 'force', 'ignore_rit' or 'dry_run'\n");
    assertThat(shell.run("balancer true").err())
        .isEqualTo(
            "ERROR: balancer: argument 1 must be 'force', 'ignore_rit' or 'dry_run' in quotes, got"
                + " true\n");
    assertThat(shell.run("balancer 'force', 'dry_run', 'force'").err())
        .startsWith("ERROR: balancer takes 0 to 2 arguments (got 3); usage: balancer ");
    assertThat(shell.run("balance_switch 'maybe'").err())
        .isEqualTo("ERROR: balance_switch: argument 1 must be true or false, got \"maybe\"\n");
    assertThat(shell.run("balance_switch").err())
        .startsWith("ERROR: balance_switch takes 1 argument (got 0)");
    assertThat(shell.run("move 'abc', 'host1:16020'").err())
        .isEqualTo(
            "ERROR: move: 'host1:16020' is not a server name; give host,port,startcode as status"
                + " 'simple' shows it (e.g. 'host1.example.com,16020,1700000000000')\n");
    assertThat(shell.run("unassign 'abc', 5").err())
        .isEqualTo(
            "ERROR: unassign: argument 2 (force, ignored since HBase 2) must be true or false, got"
                + " 5\n");
    assertThat(shell.run("decommission_regionservers [1]").err())
        .isEqualTo("ERROR: decommission_regionservers: server names must be strings, got 1\n");
    assertThat(shell.run("decommission_regionservers 'no.such.host'").err())
        .isEqualTo(
            "ERROR: decommission_regionservers: could not find any server(s) with specified"
                + " name(s): no.such.host; status 'simple' lists the live servers\n");
    assertThat(shell.run("decommission_regionservers 'h', 'sure'").err())
        .isEqualTo(
            "ERROR: decommission_regionservers: argument 2 must be true or false, got \"sure\"\n");
    assertThat(shell.run("recommission_regionserver 'no.such.host,16020'").err())
        .isEqualTo(
            "ERROR: recommission_regionserver: could not find any server with name"
                + " no.such.host,16020; list_decommissioned_regionservers lists the decommissioned"
                + " servers\n");
    assertThat(shell.run("recommission_regionserver 'h', 'r1'").err())
        .isEqualTo(
            "ERROR: recommission_regionserver: argument 2 must be an array of encoded region"
                + " names, got \"r1\"\n");
  }

  @Test
  void serverNamesResolveAsAdminRbDoes() {
    List<ServerName> live =
        List.of(
            ServerName.valueOf("h1.example.com", 16020, 11L),
            ServerName.valueOf("h1.example.com", 16021, 12L),
            ServerName.valueOf("h2.example.com", 16020, 13L));
    assertThat(ServerCommands.matching("h1.example.com", live))
        .containsExactly(live.get(0), live.get(1));
    assertThat(ServerCommands.matching("h1.example.com,16021", live)).containsExactly(live.get(1));
    // a full name is taken as is, live or not
    assertThat(ServerCommands.matching("h9.example.com,1,2", live))
        .containsExactly(ServerName.valueOf("h9.example.com", 1, 2L));
    assertThat(ServerCommands.matching("h3.example.com", live)).isEmpty();
    assertThat(ServerCommands.matching(",", live)).isEmpty();
    assertThat(ServerCommands.matching("", live)).isEmpty();
    // recommissioning 'h1.example.com' means its decommissioned server, not merely the first
    assertThat(ServerCommands.choose(live.subList(0, 2), List.of(live.get(1))))
        .isEqualTo(live.get(1));
    assertThat(ServerCommands.choose(live.subList(0, 2), List.of())).isEqualTo(live.get(0));
  }

  @Test
  void everyNewCommandHasHelpAndCompletes() throws Exception {
    for (String c :
        List.of(
            "move",
            "assign",
            "unassign",
            "close_region",
            "balancer",
            "balance_switch",
            "balancer_enabled",
            "list_regions",
            "decommission_regionservers",
            "recommission_regionserver",
            "list_decommissioned_regionservers")) {
      assertThat(shell.ok("help '" + c + "'")).as(c).contains("basalt> " + c);
      assertThat(complete(c.substring(0, c.length() - 1))).as(c).contains(c);
    }
    assertThat(shell.ok("help 'tools'"))
        .contains("\n  decommission_regionservers: Marks region servers as decommissioned");
    // the first argument of list_regions is a table, its hash takes SERVER_NAME and
    // LOCALITY_THRESHOLD; decommission and recommission complete live server names
    shell.ok("create 'pl_complete', 'cf'");
    assertThat(complete("list_regions 'pl_comp")).contains("'pl_complete'");
    assertThat(complete("list_regions 'pl_complete', {LOC"))
        .contains("SERVER_NAME =>", "LOCALITY_THRESHOLD =>");
    String server = shell.session().admin().getRegionServers().iterator().next().getServerName();
    assertThat(complete("decommission_regionservers '")).containsExactly("'" + server + "'");
    assertThat(complete("recommission_regionserver '")).containsExactly("'" + server + "'");
  }

  /** The completions the shell offers for {@code line}, cursor at its end. */
  private List<String> complete(String line) {
    List<Candidate> candidates = new ArrayList<>();
    new ShellCompleter(CommandTable.standard(), shell.session())
        .complete(
            null,
            new ShellLineParser()
                .parse(line, line.length(), org.jline.reader.Parser.ParseContext.COMPLETE),
            candidates);
    List<String> values = new ArrayList<>();
    for (Candidate c : candidates) {
      values.add(c.value());
    }
    return values;
  }
}
