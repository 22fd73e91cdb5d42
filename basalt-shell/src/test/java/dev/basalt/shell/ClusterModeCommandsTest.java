package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.jline.reader.Candidate;
import org.jline.reader.Parser.ParseContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The cluster commands against a real Basalt cluster in this JVM ({@link ClusterFixture}: a master
 * and two region servers): status names the servers the cluster has and the regions each serves,
 * list_regions shows where each region is, and move, assign, unassign, the balancer and
 * decommissioning change where regions are served, checked through the stock client's Admin.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterModeCommandsTest {
  private final ShellHarness shell = new ShellHarness(ClusterFixture.get().clientConf(), 0);

  @AfterAll
  void closeShell() {
    shell.close();
  }

  private Admin admin() throws Exception {
    return shell.session().admin();
  }

  @Test
  void statusNamesTheServersAndTheRegionsEachServes() throws Exception {
    shell.ok("create 'cm_status', 'cf', SPLITS => ['d', 'k', 'r']");
    Map<ServerName, List<String>> byServer = awaitReports();
    assertThat(byServer.keySet())
        .extracting(ServerName::getServerName)
        .containsExactlyInAnyOrderElementsOf(ClusterFixture.get().regionServerNames());
    int total = 0;
    for (List<String> regions : byServer.values()) {
      total += regions.size();
    }
    assertThat(total).isGreaterThanOrEqualTo(4);

    assertThat(shell.ok("status"))
        .isEqualTo(
            String.format(
                Locale.ROOT,
                "1 active master, 0 backup masters, 2 servers, 0 dead, %.4f average load\n",
                total / 2.0));

    ServerName master = ServerName.valueOf(ClusterFixture.get().masterName());
    String simple = shell.ok("status 'simple'");
    assertThat(simple)
        .startsWith(
            "active master:  " + hostPortStartCode(master) + "\n0 backup masters\n2 live servers\n")
        .containsPattern("\n0 dead servers\nAggregate load: \\d+, regions: " + total + "\n$");
    for (Map.Entry<ServerName, List<String>> e : byServer.entrySet()) {
      assertThat(simple)
          .containsPattern(
              "\n    "
                  + hostPortStartCode(e.getKey())
                  + "\n        requestsPerSecond=[0-9.]+, numberOfOnlineRegions="
                  + e.getValue().size()
                  + ", ");
    }

    // detailed: each region of the table is listed in its own server's block
    Map<String, String> blocks = serverBlocks(shell.ok("status 'detailed'"));
    assertThat(blocks.keySet())
        .containsExactlyInAnyOrderElementsOf(
            byServer.keySet().stream().map(ClusterModeCommandsTest::hostPortStartCode).toList());
    for (Map.Entry<ServerName, List<String>> e : byServer.entrySet()) {
      String block = blocks.get(hostPortStartCode(e.getKey()));
      for (String region : e.getValue()) {
        assertThat(block).contains("\n        \"" + region + "\"\n            numberOfStores=");
      }
      assertThat(countOf(block, "\n            numberOfStores=")).isEqualTo(e.getValue().size());
    }

    String tasks = shell.ok("status 'tasks'");
    assertThat(tasks).startsWith("active master:  " + hostPortStartCode(master) + "\n");
    for (ServerName s : byServer.keySet()) {
      assertThat(tasks).contains("\n    " + hostPortStartCode(s) + "\n        no active tasks\n");
    }
    // each region server reports its sink (and its sources, none here)
    String replication = shell.ok("status 'replication', 'sink'");
    assertThat(replication).containsPattern("\n2 live servers\n");
    assertThat(replication.split("\n      SINK: TimeStampStarted=", -1)).hasSize(3);
  }

  @Test
  void listRegionsShowsWhereEachRegionIsServed() throws Exception {
    shell.ok("create 'cm_list', 'cf', SPLITS => ['h', 'p']");
    awaitReports();
    List<RegionInfo> regions = admin().getRegions(TableName.valueOf("cm_list"));
    Map<String, ServerName> where = locations(regions);
    String out = shell.ok("list_regions 'cm_list', {}, ['SERVER_NAME', 'REGION_NAME', 'SIZE']");
    List<String> lines = out.lines().toList();
    assertThat(lines).hasSize(2 + regions.size() + 1);
    for (int i = 0; i < regions.size(); i++) {
      RegionInfo r = regions.get(i);
      assertThat(lines.get(2 + i))
          .matches(
              " +"
                  + Pattern.quote(where.get(r.getEncodedName()).getServerName())
                  + " \\| +"
                  + Pattern.quote(r.getRegionNameAsString())
                  + " \\| +0 \\|");
    }
    assertThat(lines.get(lines.size() - 1)).isEqualTo(" " + regions.size() + " rows");
    // filtered by server: only that server's regions
    for (ServerName s : admin().getRegionServers()) {
      long expected = where.values().stream().filter(s::equals).count();
      assertThat(shell.ok("list_regions 'cm_list', '" + s.getServerName() + "', ['START_KEY']"))
          .endsWith("\n " + expected + " rows\n");
    }
  }

  @Test
  void moveAssignAndUnassignChangeWhereARegionIsServed() throws Exception {
    shell.ok("create 'cm_move', 'cf', SPLITS => ['m']");
    shell.ok("put 'cm_move', 'a', 'cf:q', 'v1'");
    RegionInfo r = admin().getRegions(TableName.valueOf("cm_move")).get(0);
    String encoded = r.getEncodedName();
    ServerName from = locations(List.of(r)).get(encoded);
    ServerName to = other(from);

    ShellHarness.Result moved = shell.run("move '" + encoded + "', '" + to.getServerName() + "'");
    assertThat(moved.ok()).as(moved.err()).isTrue();
    assertThat(moved.out()).isEmpty();
    assertThat(locations(List.of(r))).containsEntry(encoded, to);
    assertThat(shell.ok("get 'cm_move', 'a'")).contains("value=v1");
    // a full region name is taken too; without a destination the master picks one
    shell.ok("move '" + r.getRegionNameAsString() + "'");
    assertThat(locations(List.of(r))).containsKey(encoded);
    shell.ok("move '" + encoded + "', ''");
    assertThat(locations(List.of(r))).containsKey(encoded);

    assertThat(shell.run("move '" + encoded + "', 'nohost.example.com,1,2'").err())
        .isEqualTo(
            "ERROR: move failed: DoNotRetryIOException: cannot move region "
                + encoded
                + " to nohost.example.com,1,2: no such live region server\n");
    assertThat(shell.run("move '0123456789abcdef0123456789abcdef'").err())
        .isEqualTo(
            "ERROR: region '0123456789abcdef0123456789abcdef' does not exist; list_regions 'TABLE'"
                + " shows a table's regions (the encoded name is the hash at the end of a region"
                + " name)\n");

    // unassign closes it everywhere; list_regions then says its details are missing
    shell.ok("unassign '" + r.getRegionNameAsString() + "'");
    assertThat(locations(List.of(r))).doesNotContainKey(encoded);
    awaitReports();
    String listed = shell.ok("list_regions 'cm_move', '', ['REGION_NAME', 'REQ']");
    assertThat(listed)
        .startsWith(
            "Can not find all details for region: "
                + r.getRegionNameAsString()
                + " , it may be disabled or in transition\n")
        .contains(r.getRegionNameAsString() + " |       |\n");
    assertThat(shell.run("assign 'nope'").err()).startsWith("ERROR: region 'nope' does not exist;");
    shell.ok("assign '" + encoded + "'");
    assertThat(locations(List.of(r))).containsKey(encoded);
    assertThat(shell.ok("get 'cm_move', 'a'")).contains("value=v1");
  }

  @Test
  void theBalancerEvensOutRegionCountsWhenSwitchedOn() throws Exception {
    boolean was = admin().isBalancerEnabled();
    try {
      shell.ok("balance_switch false");
      assertThat(shell.ok("balancer_enabled")).isEqualTo("false\n");
      shell.ok("create 'cm_bal', 'cf', SPLITS => ['b', 'c', 'd', 'e', 'f', 'g', 'h']");
      // every region of every table onto one server: the other has none
      ServerName target = admin().getRegionServers().iterator().next();
      for (RegionInfo r : admin().getRegions(other(target))) {
        shell.ok("move '" + r.getEncodedName() + "', '" + target.getServerName() + "'");
      }
      Map<ServerName, Integer> before = counts();
      assertThat(before.get(target)).isGreaterThanOrEqualTo(8);
      assertThat(before.get(other(target))).isZero();

      // a dry run moves nothing. The stock 2.6 client copies moves_executed into movesCalculated
      // (ProtobufUtil.toBalanceResponse), so HBase's shell, and this one, print 0 calculated moves
      assertThat(shell.ok("balancer 'dry_run'"))
          .isEqualTo("Balancer ran\nMoves calculated: 0, moves executed: 0\n");
      assertThat(counts()).isEqualTo(before);

      assertThat(shell.ok("balance_switch true")).isEqualTo("false\n");
      assertThat(shell.ok("balancer_enabled")).isEqualTo("true\n");
      String ran = shell.ok("balancer");
      Matcher m =
          Pattern.compile("Balancer ran\nMoves calculated: (\\d+), moves executed: (\\d+)\n")
              .matcher(ran);
      assertThat(m.matches()).as(ran).isTrue();
      assertThat(Integer.parseInt(m.group(1))).isPositive();
      assertThat(m.group(2)).isEqualTo(m.group(1));
      assertThat(counts().get(target)).isLessThan(before.get(target));
      // balanced now: another run finds nothing to move
      assertThat(shell.ok("balancer 'force'"))
          .isEqualTo("Balancer ran\nMoves calculated: 0, moves executed: 0\n");
    } finally {
      admin().balancerSwitch(was, true);
    }
  }

  @Test
  void decommissionedServersGetNoRegionsUntilRecommissioned() throws Exception {
    List<String> names = ClusterFixture.get().regionServerNames();
    ServerName victim = ServerName.valueOf(names.get(1));
    ServerName keeper = ServerName.valueOf(names.get(0));
    try {
      shell.ok("create 'cm_dec', 'cf', SPLITS => ['f', 'm', 't']");
      assertThat(shell.ok("decommission_regionservers '" + victim.getServerName() + "', true"))
          .isEmpty();
      assertThat(admin().getRegions(victim)).isEmpty();
      assertThat(shell.ok("list_decommissioned_regionservers"))
          .isEqualTo("DECOMMISSIONED REGION SERVERS\n" + victim.getServerName() + "\n1 row(s)\n");
      shell.ok("create 'cm_dec2', 'cf', SPLITS => ['m']");
      assertThat(locations(admin().getRegions(TableName.valueOf("cm_dec2"))).values())
          .containsOnly(keeper);

      // host,port names the live server there
      shell.ok("recommission_regionserver '" + victim.getHostname() + "," + victim.getPort() + "'");
      assertThat(shell.ok("list_decommissioned_regionservers"))
          .isEqualTo("DECOMMISSIONED REGION SERVERS\n0 row(s)\n");
      shell.ok(
          "decommission_regionservers ['" + victim.getHostname() + "," + victim.getPort() + "']");
      assertThat(admin().listDecommissionedRegionServers()).containsExactly(victim);
      shell.ok("recommission_regionserver '" + victim.getServerName() + "'");
      assertThat(admin().listDecommissionedRegionServers()).isEmpty();
      // both servers run on 127.0.0.1: a bare host recommissions the decommissioned one
      shell.ok("decommission_regionservers '" + victim.getServerName() + "'");
      shell.ok("recommission_regionserver '" + victim.getHostname() + "'");
      assertThat(admin().listDecommissionedRegionServers()).isEmpty();
      shell.ok("move '" + encodedOf("cm_dec2") + "', '" + victim.getServerName() + "'");
      assertThat(locations(admin().getRegions(TableName.valueOf("cm_dec2"))).values())
          .contains(victim);
    } finally {
      if (!admin().listDecommissionedRegionServers().isEmpty()) {
        admin().recommissionRegionServer(victim, List.of());
      }
    }
  }

  @Test
  void decommissionAndRecommissionCompleteTheLiveServers() {
    List<String> quoted = new ArrayList<>();
    for (String name : ClusterFixture.get().regionServerNames()) {
      quoted.add("'" + name + "'");
    }
    assertThat(complete("decommission_regionservers '"))
        .containsExactlyInAnyOrderElementsOf(quoted);
    assertThat(complete("recommission_regionserver '127"))
        .containsExactlyInAnyOrderElementsOf(quoted);
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private String encodedOf(String table) throws Exception {
    return admin().getRegions(TableName.valueOf(table)).get(0).getEncodedName();
  }

  /** Where each of {@code regions} is open now (regions open nowhere are missing). */
  private Map<String, ServerName> locations(List<RegionInfo> regions) throws Exception {
    Map<String, ServerName> where = new LinkedHashMap<>();
    for (ServerName s : admin().getRegionServers()) {
      for (RegionInfo open : admin().getRegions(s)) {
        for (RegionInfo r : regions) {
          if (r.getEncodedName().equals(open.getEncodedName())) {
            assertThat(where.put(r.getEncodedName(), s)).as("open on two servers").isNull();
          }
        }
      }
    }
    return where;
  }

  private ServerName other(ServerName s) throws Exception {
    for (ServerName candidate : admin().getRegionServers()) {
      if (!candidate.equals(s)) {
        return candidate;
      }
    }
    throw new AssertionError("the test cluster has one region server");
  }

  private Map<ServerName, Integer> counts() throws Exception {
    Map<ServerName, Integer> counts = new LinkedHashMap<>();
    for (ServerName s : admin().getRegionServers()) {
      counts.put(s, admin().getRegions(s).size());
    }
    return counts;
  }

  /**
   * The region names each server serves, once the servers' load reports (what status prints) say
   * the same as the servers themselves; fails after 20 s.
   */
  private Map<ServerName, List<String>> awaitReports() throws Exception {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (true) {
      Map<ServerName, List<String>> open = new LinkedHashMap<>();
      for (ServerName s : admin().getRegionServers()) {
        List<String> names = new ArrayList<>();
        for (RegionInfo r : admin().getRegions(s)) {
          names.add(r.getRegionNameAsString());
        }
        names.sort(null);
        open.put(s, names);
      }
      Map<ServerName, List<String>> reported = new LinkedHashMap<>();
      ClusterMetrics m = admin().getClusterMetrics();
      for (Map.Entry<ServerName, ServerMetrics> e : m.getLiveServerMetrics().entrySet()) {
        List<String> names = new ArrayList<>();
        for (RegionMetrics rm : e.getValue().getRegionMetrics().values()) {
          names.add(Bytes.toStringBinary(rm.getRegionName()));
        }
        names.sort(null);
        reported.put(e.getKey(), names);
      }
      if (open.equals(reported)) {
        return open;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("load reports " + reported + " never matched " + open);
      }
      Thread.sleep(100);
    }
  }

  /** status 'detailed''s per-server blocks, by "host:port startcode". */
  private static Map<String, String> serverBlocks(String detailed) {
    Map<String, String> blocks = new LinkedHashMap<>();
    String[] parts = detailed.split("\n(?=    \\S)");
    for (String part : parts) {
      if (part.startsWith("    ") && part.contains("\n        requestsPerSecond=")) {
        int nl = part.indexOf('\n');
        String rest = part.substring(nl);
        int end = rest.indexOf("\n0 dead servers");
        blocks.put(part.substring(4, nl), end < 0 ? rest : rest.substring(0, end));
      }
    }
    return blocks;
  }

  private static int countOf(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  private static String hostPortStartCode(ServerName s) {
    return s.getHostname() + ":" + s.getPort() + " " + s.getStartcode();
  }

  private List<String> complete(String line) {
    List<Candidate> candidates = new ArrayList<>();
    new ShellCompleter(CommandTable.standard(), shell.session())
        .complete(
            null,
            new ShellLineParser().parse(line, line.length(), ParseContext.COMPLETE),
            candidates);
    List<String> values = new ArrayList<>();
    for (Candidate c : candidates) {
      values.add(c.value());
    }
    return values;
  }
}
