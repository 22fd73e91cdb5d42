package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The replication commands' syntax: what they take and the one-line errors for what they do not,
 * all found before the shell connects (the harness points at a port where nothing listens, so a
 * command that tried to connect would fail differently); help lists them as HBase's does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplicationUsageTest {
  private final ShellHarness shell = new ShellHarness(nowhere(), 0);

  private static Configuration nowhere() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", 1);
    conf.setInt("hbase.client.retries.number", 0);
    return conf;
  }

  @AfterAll
  void close() {
    shell.close();
  }

  private String error(String statement) {
    ShellHarness.Result r = shell.run(statement);
    assertThat(r.ok()).as(statement).isFalse();
    return r.err();
  }

  @Test
  void addPeerNeedsAClusterKeyOrAnEndpointInAHash() {
    assertThat(error("add_peer '1'"))
        .isEqualTo(
            "ERROR: add_peer: give CLUSTER_KEY => 'zk1,zk2:2181:/hbase' (the peer's ZooKeeper"
                + " quorum, port and parent znode) or ENDPOINT_CLASSNAME =>"
                + " 'a.ReplicationEndpoint'\n");
    assertThat(error("add_peer '1', 'zk1:2181:/hbase'"))
        .isEqualTo(
            "ERROR: add_peer: the peer's settings must be a hash such as CLUSTER_KEY =>"
                + " 'zk1:2181:/hbase', got \"zk1:2181:/hbase\" (HBase 2 has no add_peer 'id',"
                + " 'clusterKey')\n");
    assertThat(error("add_peer '1', CLUSTER_KEYS => 'zk1:2181:/hbase'"))
        .isEqualTo("ERROR: add_peer: unknown option CLUSTER_KEYS; did you mean CLUSTER_KEY?\n");
    assertThat(error("add_peer"))
        .startsWith("ERROR: add_peer takes 1 to 2 arguments (got 0); usage: add_peer 'id',");
  }

  @Test
  void addPeerChecksEachSetting() {
    String key = "CLUSTER_KEY => 'zk1:2181:/hbase', ";
    assertThat(error("add_peer '1', " + key + "STATE => 'PAUSED'"))
        .isEqualTo("ERROR: add_peer: STATE must be 'ENABLED' or 'DISABLED', got PAUSED\n");
    assertThat(error("add_peer '1', " + key + "SERIAL => 'yes'"))
        .isEqualTo("ERROR: add_peer: SERIAL must be true or false, got \"yes\"\n");
    assertThat(error("add_peer '1', " + key + "TABLE_CFS => ['t1']"))
        .isEqualTo(
            "ERROR: add_peer: TABLE_CFS must be a hash of tables and their families such as"
                + " {'t1' => [], 'ns1:t2' => ['cf1', 'cf2']}, got [\"t1\"]\n");
    assertThat(error("add_peer '1', " + key + "TABLE_CFS => {'t1' => [1]}"))
        .isEqualTo(
            "ERROR: add_peer: the families of t1 must be a list of family names such as"
                + " ['cf1', 'cf2'] ([] for all), got [1]\n");
    assertThat(error("add_peer '1', " + key + "TABLE_CFS => {'bad name' => []}"))
        .startsWith("ERROR: add_peer: bad table name 'bad name': ");
    assertThat(error("add_peer '1', " + key + "NAMESPACES => {'ns1' => 1}"))
        .isEqualTo(
            "ERROR: add_peer: NAMESPACES must be a list of namespaces such as ['ns1', 'ns2'],"
                + " got {\"ns1\" => 1}\n");
    assertThat(error("add_peer '1', " + key + "CONFIG => {'k' => ['v']}"))
        .isEqualTo("ERROR: add_peer: the values of CONFIG must be strings, got [\"v\"] for k\n");
    assertThat(error("add_peer '1', " + key + "BANDWIDTH => -5"))
        .isEqualTo("ERROR: add_peer: the bandwidth is bytes per second, 0 for no limit; got -5\n");
  }

  @Test
  void theOtherCommandsCheckTheirArguments() {
    assertThat(error("set_peer_tableCFs '1'"))
        .startsWith("ERROR: set_peer_tableCFs takes 2 arguments (got 1); usage:");
    assertThat(error("append_peer_tableCFs '1', 't1'"))
        .isEqualTo(
            "ERROR: append_peer_tableCFs: argument 2 must be a hash of tables and their families"
                + " such as {'t1' => [], 'ns1:t2' => ['cf1', 'cf2']}, got \"t1\"\n");
    assertThat(error("set_peer_namespaces '1', [1, 2]"))
        .isEqualTo(
            "ERROR: set_peer_namespaces: argument 2 must be a list of namespaces such as"
                + " ['ns1', 'ns2'], got [1, 2]\n");
    assertThat(error("set_peer_serial '1', 'maybe'"))
        .isEqualTo("ERROR: set_peer_serial: argument 2 must be true or false, got \"maybe\"\n");
    assertThat(error("set_peer_bandwidth '1', 'fast'"))
        .isEqualTo(
            "ERROR: set_peer_bandwidth: argument 2 must be a bandwidth (a whole number), got"
                + " \"fast\"\n");
    assertThat(error("set_peer_bandwidth '1', -1"))
        .isEqualTo(
            "ERROR: set_peer_bandwidth: the bandwidth is bytes per second, 0 for no limit; got"
                + " -1\n");
    assertThat(error("update_peer_config '1', STATE => 'DISABLED'"))
        .isEqualTo("ERROR: update_peer_config: unknown option STATE; known: CONFIG, DATA\n");
    assertThat(error("peer_modification_switch 'on'"))
        .isEqualTo(
            "ERROR: peer_modification_switch: argument 1 must be true or false, got \"on\"\n");
    assertThat(error("list_replicated_tables '('"))
        .isEqualTo("ERROR: list_replicated_tables: bad regular expression: Unclosed group\n");
    assertThat(error("list_peers 'x'"))
        .isEqualTo("ERROR: list_peers takes 0 arguments (got 1); usage: list_peers\n");
  }

  @Test
  void tableCfsAreReadAsTheHBaseShellBuildsThem() throws Exception {
    Map<TableName, List<String>> m =
        PeerArguments.tableCfs(
            "c",
            "TABLE_CFS",
            Map.of(
                "t1", List.of(),
                "ns:t2", List.of(ShellString.of("a"), ShellString.of("b")),
                "t3", ShellString.of("c")));
    assertThat(m)
        .containsOnlyKeys(
            TableName.valueOf("t1"), TableName.valueOf("ns:t2"), TableName.valueOf("t3"));
    assertThat(m.get(TableName.valueOf("t1"))).isEmpty();
    assertThat(m.get(TableName.valueOf("ns:t2"))).containsExactly("a", "b");
    assertThat(m.get(TableName.valueOf("t3"))).containsExactly("c");
    java.util.HashMap<String, Object> withNil = new java.util.HashMap<>();
    withNil.put("t4", null);
    assertThat(PeerArguments.tableCfs("c", "x", withNil))
        .containsEntry(TableName.valueOf("t4"), null);
  }

  @Test
  void dataValuesAreBytesAndNumbersEightByteLongs() throws Exception {
    Options o =
        new Options(
            "add_peer",
            Map.<String, Object>of(
                "DATA",
                Map.of("k1", new ShellString(new byte[] {0, (byte) 0xff}), "k2", (Object) 7L)));
    Map<byte[], byte[]> data = PeerArguments.data(o, "DATA");
    assertThat(data).hasSize(2);
    for (Map.Entry<byte[], byte[]> e : data.entrySet()) {
      String key = Bytes.toString(e.getKey());
      if (key.equals("k1")) {
        assertThat(e.getValue()).containsExactly(0, 0xff);
      } else {
        assertThat(key).isEqualTo("k2");
        assertThat(Arrays.equals(e.getValue(), Bytes.toBytes(7L))).isTrue();
      }
    }
  }

  @Test
  void helpHasAReplicationGroupAndEveryCommand() {
    String all = shell.ok("help");
    assertThat(all)
        .contains(
            "  Group name: replication\n  Commands: add_peer, append_peer_exclude_namespaces,"
                + " append_peer_exclude_tableCFs, append_peer_namespaces, append_peer_tableCFs,"
                + " disable_peer, disable_table_replication, enable_peer,"
                + " enable_table_replication, get_peer_config, list_peer_configs, list_peers,"
                + " list_replicated_tables, peer_modification_enabled, peer_modification_switch,"
                + " remove_peer, remove_peer_exclude_namespaces, remove_peer_exclude_tableCFs,"
                + " remove_peer_namespaces, remove_peer_tableCFs, set_peer_bandwidth,"
                + " set_peer_exclude_namespaces, set_peer_exclude_tableCFs, set_peer_namespaces,"
                + " set_peer_replicate_all, set_peer_serial, set_peer_tableCFs,"
                + " show_peer_tableCFs, update_peer_config\n");
    assertThat(shell.ok("help 'replication'"))
        .startsWith("Command group: replication\n  add_peer: Adds a replication peer");
    assertThat(shell.ok("help 'add_peer'"))
        .contains("  basalt> add_peer '1', CLUSTER_KEY => 'server1.example.com:2181:/hbase'\n");
  }
}
