package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.junit.jupiter.api.Test;

/**
 * status in each of HBase 2.6's formats against the standalone server (one master, one region
 * server), line by line as hbase-shell's admin.rb prints them; list_regions there.
 */
class StatusCommandTest extends ShellTestBase {
  @Test
  void summaryIsOneLine() throws Exception {
    shell.ok("create 'st_sum', 'cf', SPLITS => ['m']");
    ClusterMetrics m = shell.session().admin().getClusterMetrics();
    int regions = m.getLiveServerMetrics().values().iterator().next().getRegionMetrics().size();
    assertThat(regions).isGreaterThanOrEqualTo(2);
    assertThat(shell.ok("status"))
        .isEqualTo(
            String.format(
                Locale.ROOT,
                "1 active master, 0 backup masters, 1 servers, 0 dead, %.4f average load\n",
                (double) regions));
    assertThat(shell.ok("status 'summary'")).isEqualTo(shell.ok("status"));
  }

  @Test
  void simpleNamesTheMasterAndEachServerWithItsLoad() throws Exception {
    ServerName master = shell.session().admin().getClusterMetrics().getMasterName();
    ServerName rs = shell.session().admin().getRegionServers().iterator().next();
    List<String> lines = shell.ok("status 'SIMPLE'").lines().toList();
    assertThat(lines).hasSize(7);
    assertThat(lines.get(0))
        .isEqualTo(
            "active master:  "
                + master.getHostname()
                + ":"
                + master.getPort()
                + " "
                + master.getStartcode());
    assertThat(lines.subList(1, 4))
        .containsExactly(
            "0 backup masters",
            "1 live servers",
            "    " + rs.getHostname() + ":" + rs.getPort() + " " + rs.getStartcode());
    // ServerLoad's text, as admin.rb prints it (not ServerMetrics's)
    assertThat(lines.get(4))
        .matches(
            "        requestsPerSecond=[0-9.]+, numberOfOnlineRegions=\\d+, usedHeapMB=\\d+,"
                + " maxHeapMB=\\d+, numberOfStores=\\d+, .*, coprocessors=\\[.*\\]");
    assertThat(lines.get(5)).isEqualTo("0 dead servers");
    int regions = shell.session().admin().getRegions(rs).size();
    assertThat(lines.get(6)).matches("Aggregate load: \\d+, regions: " + regions);
    assertThat(lines.get(4)).contains("numberOfOnlineRegions=" + regions + ",");
  }

  @Test
  void detailedListsEveryRegionUnderItsServer() throws Exception {
    shell.ok("create 'st_det', 'cf', SPLITS => ['k']");
    ServerName rs = shell.session().admin().getRegionServers().iterator().next();
    String out = shell.ok("status 'detailed'");
    assertThat(out)
        .startsWith("version 2.6.3-basalt-")
        .contains("\n0 regionsInTransition\nactive master:  ")
        .contains(
            "\n0 backup masters\nmaster coprocessors: []\n1 live servers\n    "
                + rs.getHostname()
                + ":"
                + rs.getPort()
                + " "
                + rs.getStartcode()
                + "\n        requestsPerSecond=")
        .endsWith("\n0 dead servers\n");
    for (RegionInfo r : shell.session().admin().getRegions(TableName.valueOf("st_det"))) {
      assertThat(out)
          .contains(
              "\n        \""
                  + r.getRegionNameAsString()
                  + "\"\n            numberOfStores=1, numberOfStorefiles=");
    }
  }

  @Test
  void tasksAndReplication() throws Exception {
    ServerName rs = shell.session().admin().getRegionServers().iterator().next();
    assertThat(shell.ok("status 'tasks'"))
        .matches(
            "active master:  \\S+ \\d+\n    no active tasks\n1 live servers\n    "
                + rs.getHostname()
                + ":"
                + rs.getPort()
                + " "
                + rs.getStartcode()
                + "\n        no active tasks\n");
    // the region server reports its sources (none unless a peer was added) and its sink; the
    // wording of each is ReplicationStatusTest's
    String header =
        "version 2.6.3-basalt-[^\n]+\n1 live servers\n    "
            + Pattern.quote(rs.getHostname())
            + ":\n";
    String source = "       SOURCE:.*\n";
    String sink =
        "      SINK: TimeStampStarted=\\d+, (Waiting for OPs\\.\\.\\. |AgeOfLastApplied.*)\n";
    assertThat(shell.ok("status 'replication'")).matches("(?s)" + header + source + sink);
    assertThat(shell.ok("status 'replication', 'SOURCE'")).matches("(?s)" + header + source);
    assertThat(shell.ok("status 'replication', 'sink'")).matches(header + sink);
  }

  @Test
  void badFormatsAreRefused() {
    assertThat(shell.run("status 'fancy'").err())
        .isEqualTo(
            "ERROR: status: unknown format 'fancy'; use 'summary', 'simple', 'detailed', 'tasks'"
                + " or 'replication'\n");
    assertThat(shell.run("status 'replication', 'both ways'").err())
        .isEqualTo(
            "ERROR: status: unknown replication type 'both ways'; use 'source', 'sink' or"
                + " 'both'\n");
    assertThat(shell.run("status 'simple', 'source'").err())
        .isEqualTo(
            "ERROR: status: only 'replication' takes a second argument ('source' or 'sink')\n");
  }

  @Test
  void regionNamesAreDumpedAsRubyDoes() {
    assertThat(StatusCommand.rubyDump("t1,,1.abc.")).isEqualTo("\"t1,,1.abc.\"");
    assertThat(StatusCommand.rubyDump("t\\x00\"#{x}#$#@#a"))
        .isEqualTo("\"t\\\\x00\\\"\\#{x}\\#$\\#@#a\"");
  }
}
