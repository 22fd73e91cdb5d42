package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.hbase.ClusterStatus;
import org.apache.hadoop.hbase.RegionLoad;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** list_regions against the standalone server: HBase 2.6's table, filters, columns and errors. */
@SuppressWarnings("deprecation") // ClusterStatus and RegionLoad: what list_regions reads
class ListRegionsCommandTest extends ShellTestBase {
  @Test
  void everyRegionWithItsServerKeysSizeRequestsAndLocality() throws Exception {
    shell.ok("create 'lr_all', 'cf', SPLITS => ['m']");
    shell.ok("put 'lr_all', 'a', 'cf:q', '1'; put 'lr_all', 'x', 'cf:q', '2'; get 'lr_all', 'a'");
    ServerName server = shell.session().admin().getRegionServers().iterator().next();
    List<RegionInfo> regions = shell.session().admin().getRegions(TableName.valueOf("lr_all"));
    ClusterStatus status = new ClusterStatus(shell.session().admin().getClusterMetrics());
    int nameWidth =
        Math.max(
            regions.get(0).getRegionNameAsString().length(),
            regions.get(1).getRegionNameAsString().length());
    int serverWidth = Math.max(12, server.toString().length());
    StringBuilder expected = new StringBuilder();
    expected.append(
        String.format(
            " %"
                + serverWidth
                + "s | %"
                + nameWidth
                + "s |  START_KEY |    END_KEY |  SIZE |   REQ"
                + " |   LOCALITY |\n",
            "SERVER_NAME",
            "REGION_NAME"));
    expected.append(
        String.format(
            " %s | %s | ---------- | ---------- | ----- | ----- | ---------- |\n",
            "-".repeat(serverWidth), "-".repeat(nameWidth)));
    long[] requests = new long[2];
    for (int i = 0; i < 2; i++) {
      RegionInfo r = regions.get(i);
      RegionLoad load = status.getLoad(server).getRegionsLoad().get(r.getRegionName());
      requests[i] = load.getRequestsCount();
      expected.append(
          String.format(
              " %"
                  + serverWidth
                  + "s | %"
                  + nameWidth
                  + "s | %10s | %10s |     0 | %5d |        0.0 |\n",
              server,
              r.getRegionNameAsString(),
              Bytes.toStringBinary(r.getStartKey()),
              Bytes.toStringBinary(r.getEndKey()),
              requests[i]));
    }
    expected.append(" 2 rows\n");
    assertThat(requests[0]).isEqualTo(2); // a put and a get
    assertThat(requests[1]).isEqualTo(1);
    assertThat(shell.ok("list_regions 'lr_all'")).isEqualTo(expected.toString());
    // every region has locality 0 here: a threshold of 0 keeps them all
    assertThat(shell.ok("list_regions 'lr_all', {LOCALITY_THRESHOLD => '0'}"))
        .isEqualTo(expected.toString());
  }

  @Test
  void serversAndColumnsAreChosen() throws Exception {
    shell.ok("create 'lr_cols', 'cf', SPLITS => ['g', 'p']");
    String server = shell.session().admin().getRegionServers().iterator().next().toString();
    String host = server.substring(0, server.indexOf(','));
    String empty = "    END_KEY |  START_KEY |\n ---------- | ---------- |\n";
    assertThat(shell.ok("list_regions 'lr_cols', '', ['end_key', 'START_KEY', 'END_KEY']"))
        .isEqualTo(
            empty
                + "          g |            |\n"
                + "          p |          g |\n"
                + "            |          p |\n"
                + " 3 rows\n");
    assertThat(shell.ok("list_regions 'lr_cols', '" + host + "', ['START_KEY']"))
        .endsWith(" 3 rows\n");
    assertThat(shell.ok("list_regions 'lr_cols', {SERVER_NAME => '" + server + "'}, ['REQ']"))
        .endsWith(" 3 rows\n");
    assertThat(shell.ok("list_regions 'lr_cols', 'no.such.host', ['END_KEY', 'START_KEY']"))
        .isEqualTo(empty + " 0 rows\n");
  }

  @Test
  void badArgumentsAndTablesThatCannotBeListed() {
    shell.ok("create 'lr_bad', 'cf'");
    assertThat(shell.run("list_regions 'lr_bad', '', ['HOST']").err())
        .isEqualTo(
            "ERROR: list_regions: \"HOST\" is not a valid column; possible values are SERVER_NAME,"
                + " REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY\n");
    assertThat(shell.run("list_regions 'lr_bad', '', 'SIZE'").err())
        .isEqualTo(
            "ERROR: list_regions: \"SIZE\" must be an array of strings; possible values are"
                + " SERVER_NAME, REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY\n");
    assertThat(shell.run("list_regions 'lr_bad', {LOCALITY_THRESHOLD => '1.5'}").err())
        .isEqualTo(
            "ERROR: list_regions: LOCALITY_THRESHOLD must be between 0 and 1.0, inclusive, got"
                + " 1.5\n");
    assertThat(shell.run("list_regions 'lr_bad', {LOCALITY_THRESHOLD => 'high'}").err())
        .isEqualTo(
            "ERROR: list_regions: LOCALITY_THRESHOLD must be a number between 0 and 1.0, such as"
                + " '0.8', got 'high'\n");
    assertThat(shell.run("list_regions 'lr_bad', {SERVER => 'h'}").err())
        .isEqualTo(
            "ERROR: list_regions: unknown option SERVER; known: SERVER_NAME, LOCALITY_THRESHOLD\n");
    assertThat(shell.run("list_regions 'lr_nope'").err())
        .isEqualTo("ERROR: table 'lr_nope' does not exist; 'list' shows the tables\n");
    shell.ok("disable 'lr_bad'");
    assertThat(shell.run("list_regions 'lr_bad'").err())
        .isEqualTo(
            "ERROR: list_regions: table 'lr_bad' must be enabled; enable it first: enable"
                + " 'lr_bad'\n");
  }
}
