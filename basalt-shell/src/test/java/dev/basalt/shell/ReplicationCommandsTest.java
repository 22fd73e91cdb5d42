package dev.basalt.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.apache.hadoop.hbase.util.Bytes;
import org.jline.reader.Candidate;
import org.jline.reader.Parser.ParseContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The replication commands against the standalone server (the source) with a second Basalt server
 * as the peer: what each prints, line by line as HBase 2.6's shell prints it, and what each
 * changed, read back through the stock client's Admin. Every test removes the peers it added.
 */
class ReplicationCommandsTest extends ShellTestBase {
  private SecondCluster peer;
  private String key;

  @BeforeAll
  void startPeer() throws Exception {
    peer = new SecondCluster();
    key = peer.clusterKey();
  }

  @AfterAll
  void stopPeer() throws Exception {
    peer.close();
  }

  @AfterEach
  void removePeers() throws Exception {
    Admin admin = admin();
    if (!admin.isReplicationPeerModificationEnabled()) {
      admin.replicationPeerModificationSwitch(true);
    }
    for (ReplicationPeerDescription d : admin.listReplicationPeers()) {
      admin.removeReplicationPeer(d.getPeerId());
    }
  }

  private Admin admin() throws Exception {
    return shell.session().admin();
  }

  private String error(String statement) {
    ShellHarness.Result r = shell.run(statement);
    assertThat(r.ok()).as(statement).isFalse();
    return r.err();
  }

  @Test
  void addedPeersAreListedWithHBasesColumns() throws Exception {
    shell.ok("add_peer '1', CLUSTER_KEY => '" + key + "'");
    shell.ok(
        "add_peer '2', CLUSTER_KEY => '"
            + key
            + "', STATE => 'DISABLED', NAMESPACES => ['ns2', 'ns1'], TABLE_CFS => {'ns3:t1' =>"
            + " ['cf2', 'cf1']}, SERIAL => true, BANDWIDTH => 1048576");
    assertThat(shell.ok("list_peers"))
        .isEqualTo(
            " PEER_ID CLUSTER_KEY ENDPOINT_CLASSNAME STATE REPLICATE_ALL NAMESPACES TABLE_CFS"
                + " BANDWIDTH SERIAL\n 1 "
                + key
                + "  ENABLED true   0 false\n 2 "
                + key
                + "  DISABLED false ns1;ns2 ns3.t1:cf2,cf1 1048576 true\n2 row(s)\n");
    ReplicationPeerConfig two = admin().getReplicationPeerConfig("2");
    assertThat(two.replicateAllUserTables()).isFalse();
    assertThat(two.getNamespaces()).containsExactlyInAnyOrder("ns1", "ns2");
    assertThat(two.getTableCFsMap().get(TableName.valueOf("ns3:t1"))).containsExactly("cf2", "cf1");
    assertThat(two.isSerial()).isTrue();
    assertThat(admin().isReplicationPeerEnabled("2")).isFalse();

    assertThat(shell.ok("show_peer_tableCFs '2'")).isEqualTo("ns3.t1:cf2,cf1\n");
    // an empty line (puts of nil), which the harness gives back as ""
    assertThat(shell.ok("show_peer_tableCFs '1'")).isEmpty();
    assertThat(shell.ok("get_peer_config '1'")).isEqualTo(" Cluster Key " + key + "\n");
    // list_peer_configs walks a HashMap of the ids: "1" before "2"
    assertThat(shell.ok("list_peer_configs"))
        .isEqualTo(
            " PeerId 1\n Cluster Key " + key + "\n \n PeerId 2\n Cluster Key " + key + "\n \n");

    shell.ok("remove_peer '1'");
    assertThat(admin().listReplicationPeers()).extracting(d -> d.getPeerId()).containsExactly("2");
    shell.ok("remove_peer '2'");
    assertThat(shell.ok("list_peers")).endsWith("SERIAL\n0 row(s)\n");
  }

  @Test
  void peersAreDisabledAndEnabled() throws Exception {
    shell.ok("add_peer 'de', CLUSTER_KEY => '" + key + "'");
    shell.ok("disable_peer 'de'");
    assertThat(admin().isReplicationPeerEnabled("de")).isFalse();
    assertThat(shell.ok("list_peers")).contains(" de " + key + "  DISABLED true ");
    shell.ok("enable_peer 'de'");
    assertThat(admin().isReplicationPeerEnabled("de")).isTrue();
    assertThat(error("enable_peer 'de'"))
        .isEqualTo(
            "ERROR: enable_peer failed: DoNotRetryIOException: Replication peer de has already"
                + " been enabled\n");
  }

  @Test
  void selectionsAreSetAppendedAndRemoved() throws Exception {
    shell.ok("add_peer 'sel', CLUSTER_KEY => '" + key + "', TABLE_CFS => {'t1' => []}");
    shell.ok("append_peer_tableCFs 'sel', {'ns1:t2' => ['a', 'b']}");
    shell.ok("remove_peer_tableCFs 'sel', {'ns1:t2' => ['a']}");
    assertThat(admin().getReplicationPeerConfig("sel").getTableCFsMap())
        .containsOnlyKeys(TableName.valueOf("t1"), TableName.valueOf("ns1:t2"));
    assertThat(admin().getReplicationPeerConfig("sel").getTableCFsMap())
        .containsEntry(TableName.valueOf("ns1:t2"), List.of("b"));
    shell.ok("set_peer_tableCFs 'sel', {'ns1:t3' => 'c'}");
    assertThat(shell.ok("show_peer_tableCFs 'sel'")).isEqualTo("ns1.t3:c\n");
    assertThat(error("remove_peer_tableCFs 'sel', {'t9' => []}"))
        .isEqualTo(
            "ERROR: remove_peer_tableCFs failed: ReplicationException: No table: t9 in table-cfs"
                + " config of peer: sel\n");

    shell.ok("set_peer_namespaces 'sel', ['ns5', 'ns4']");
    shell.ok("append_peer_namespaces 'sel', ['ns6', 'ns4']");
    shell.ok("remove_peer_namespaces 'sel', ['ns5']");
    assertThat(admin().getReplicationPeerConfig("sel").getNamespaces())
        .containsExactlyInAnyOrder("ns4", "ns6");
    assertThat(shell.ok("list_peers")).contains(" false ns4;ns6 ns1.t3:c 0 false\n");

    // replicate-all needs the selections cleared first (the server's check, HBase's message)
    assertThat(error("set_peer_replicate_all 'sel', true"))
        .isEqualTo(
            "ERROR: set_peer_replicate_all failed: DoNotRetryIOException: Need clean namespaces"
                + " or table-cfs config firstly when you want replicate all cluster\n");
    shell.ok("set_peer_namespaces 'sel', []");
    shell.ok("set_peer_tableCFs 'sel', {}");
    shell.ok("set_peer_replicate_all 'sel', true");

    shell.ok("set_peer_exclude_namespaces 'sel', ['x2', 'x1']");
    shell.ok("append_peer_exclude_namespaces 'sel', ['x3']");
    shell.ok("remove_peer_exclude_namespaces 'sel', ['x2']");
    shell.ok("set_peer_exclude_tableCFs 'sel', {'e:t' => ['a']}");
    shell.ok("append_peer_exclude_tableCFs 'sel', {'e:t' => ['b']}");
    assertThat(shell.ok("list_peers")).contains(" true !x1;x3 !e.t:a,b 0 false\n");
    shell.ok("remove_peer_exclude_tableCFs 'sel', {'e:t' => ['a', 'b']}");
    assertThat(admin().getReplicationPeerConfig("sel").getExcludeTableCFsMap()).isNullOrEmpty();
    assertThat(error("set_peer_replicate_all 'sel', false"))
        .isEqualTo(
            "ERROR: set_peer_replicate_all failed: DoNotRetryIOException: Need clean"
                + " exclude-namespaces or exclude-table-cfs config firstly when replicate_all flag"
                + " is false\n");
  }

  @Test
  void settingsBandwidthAndSerialAreUpdated() throws Exception {
    shell.ok("add_peer 'up', CLUSTER_KEY => '" + key + "', CONFIG => {'config1' => 'value1'}");
    shell.ok(
        "update_peer_config 'up', CONFIG => {'config2' => 'value2'}, DATA => {'data1' =>"
            + " \"\\x00v\"}");
    ReplicationPeerConfig c = admin().getReplicationPeerConfig("up");
    assertThat(c.getConfiguration())
        .containsEntry("config1", "value1")
        .containsEntry("config2", "value2");
    assertThat(c.getPeerData().get(Bytes.toBytes("data1"))).containsExactly(0, 'v');
    String config = shell.ok("get_peer_config 'up'");
    assertThat(config).startsWith(" Cluster Key " + key + "\n");
    assertThat(config.lines().skip(1).toList())
        .containsExactlyInAnyOrder(" config1 value1", " config2 value2");

    shell.ok("set_peer_bandwidth 'up', 2097152");
    assertThat(admin().getReplicationPeerConfig("up").getBandwidth()).isEqualTo(2097152);
    shell.ok("set_peer_bandwidth 'up'");
    assertThat(admin().getReplicationPeerConfig("up").getBandwidth()).isZero();
    shell.ok("set_peer_serial 'up', true");
    assertThat(admin().getReplicationPeerConfig("up").isSerial()).isTrue();
    shell.ok("set_peer_serial 'up', false");
    assertThat(admin().getReplicationPeerConfig("up").isSerial()).isFalse();
  }

  @Test
  void badPeersAreRefusedInOneLine() throws Exception {
    assertThat(error("add_peer 'a-b', CLUSTER_KEY => '" + key + "'"))
        .isEqualTo("ERROR: add_peer failed: DoNotRetryIOException: Found invalid peer name: a-b\n");
    assertThat(error("add_peer 'k', CLUSTER_KEY => 'nonsense'"))
        .startsWith("ERROR: add_peer failed: DoNotRetryIOException: Invalid cluster key: nonsense");
    String self = "127.0.0.1:" + TestCluster.get().zooKeeperPort() + ":/hbase";
    assertThat(error("add_peer 'self', CLUSTER_KEY => '" + self + "'"))
        .isEqualTo(
            "ERROR: add_peer failed: DoNotRetryIOException: Invalid cluster key: "
                + self
                + ", should not replicate to itself for HBaseInterClusterReplicationEndpoint\n");
    shell.ok("add_peer 'dup', CLUSTER_KEY => '" + key + "'");
    assertThat(error("add_peer 'dup', CLUSTER_KEY => '" + key + "'"))
        .isEqualTo(
            "ERROR: add_peer failed: DoNotRetryIOException: Replication peer dup already exists\n");
    for (String cmd :
        List.of(
            "remove_peer 'nope'",
            "enable_peer 'nope'",
            "disable_peer 'nope'",
            "get_peer_config 'nope'",
            "show_peer_tableCFs 'nope'",
            "set_peer_serial 'nope', true",
            "append_peer_tableCFs 'nope', {'t1' => []}")) {
      assertThat(error(cmd))
          .as(cmd)
          .isEqualTo(
              "ERROR: replication peer 'nope' does not exist; 'list_peers' shows the peers\n");
    }
    assertThat(admin().listReplicationPeers())
        .extracting(d -> d.getPeerId())
        .containsExactly("dup");
  }

  @Test
  void peerChangesCanBeSwitchedOff() throws Exception {
    assertThat(shell.ok("peer_modification_enabled")).isEqualTo("true\n");
    assertThat(shell.ok("peer_modification_switch false"))
        .isEqualTo("Previous peer modification state : true\n");
    assertThat(shell.ok("peer_modification_enabled")).isEqualTo("false\n");
    assertThat(error("add_peer 'off', CLUSTER_KEY => '" + key + "'"))
        .contains("Replication peer modification disabled");
    assertThat(shell.ok("peer_modification_switch true, true"))
        .isEqualTo("Previous peer modification state : false\n");
    shell.ok("add_peer 'off', CLUSTER_KEY => '" + key + "'");
  }

  @Test
  void tableReplicationCreatesTheTableOnThePeerAndSetsTheScope() throws Exception {
    shell.ok("create 'rp_t', 'a', {NAME => 'b', VERSIONS => 3}, SPLITS => ['m']");
    shell.ok("create 'rp_other', {NAME => 'c', REPLICATION_SCOPE => 1}");
    shell.ok("add_peer 'tp', CLUSTER_KEY => '" + key + "'");
    assertThat(shell.ok("list_replicated_tables 'rp_'"))
        .isEqualTo("TABLE:COLUMNFAMILY  ReplicationType\n rp_other:c GLOBAL\n1 row(s)\n");

    assertThat(shell.ok("enable_table_replication 'rp_t'"))
        .isEqualTo("The replication of table 'rp_t' successfully enabled\n");
    Admin peerAdmin = peer.connection().getAdmin();
    TableName t = TableName.valueOf("rp_t");
    assertThat(peerAdmin.tableExists(t)).isTrue();
    assertThat(peerAdmin.getRegions(t)).hasSize(2);
    for (ColumnFamilyDescriptor cf : admin().getDescriptor(t).getColumnFamilies()) {
      assertThat(cf.getScope()).as(cf.getNameAsString()).isEqualTo(1);
    }
    List<String> rows = new ArrayList<>(shell.ok("list_replicated_tables 'rp_t'").lines().toList());
    assertThat(rows.remove(0)).isEqualTo("TABLE:COLUMNFAMILY  ReplicationType");
    assertThat(rows).containsExactlyInAnyOrder(" rp_t:a GLOBAL", " rp_t:b GLOBAL", "2 row(s)");

    // an edit made now reaches the peer's copy
    shell.ok("put 'rp_t', 'r1', 'b:q', 'v1'");
    try (Table remote = peer.connection().getTable(t)) {
      long deadline = System.nanoTime() + 60_000_000_000L;
      Result r = remote.get(new Get(Bytes.toBytes("r1")));
      while (r.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(200);
        r = remote.get(new Get(Bytes.toBytes("r1")));
      }
      assertThat(Bytes.toString(r.getValue(Bytes.toBytes("b"), Bytes.toBytes("q"))))
          .isEqualTo("v1");
    }

    // the source's load report, once it has shipped the edit
    // (HBase names a normal queue after its peer: "Normal Queue: tp"; the queue name is the
    // server's to choose, so it is not checked here)
    String shipped = "       SOURCE: PeerID=tp\n         Normal Queue: ";
    long until = System.nanoTime() + 30_000_000_000L;
    String status = shell.ok("status 'replication', 'source'");
    while (!status.contains("AgeOfLastShippedOp=") && System.nanoTime() < until) {
      Thread.sleep(500);
      status = shell.ok("status 'replication', 'source'");
    }
    assertThat(status)
        .contains(shipped)
        .containsPattern("\n           AgeOfLastShippedOp=\\d+, TimeStampOfLastShippedOp=")
        .containsPattern(", OpsShippedToTarget=[1-9]\\d*, ");

    assertThat(shell.ok("disable_table_replication 'rp_t'"))
        .isEqualTo("Replication of table 'rp_t' successfully disabled.\n");
    assertThat(shell.ok("list_replicated_tables 'rp_t'"))
        .isEqualTo("TABLE:COLUMNFAMILY  ReplicationType\n0 row(s)\n");
    assertThat(error("enable_table_replication 'rp_missing'"))
        .isEqualTo("ERROR: table 'rp_missing' does not exist; 'list' shows the tables\n");
  }

  @Test
  void peerIdsComplete() throws Exception {
    shell.ok("add_peer 'c1', CLUSTER_KEY => '" + key + "'");
    shell.ok("add_peer 'c2', CLUSTER_KEY => '" + key + "'");
    List<Candidate> candidates = new ArrayList<>();
    String line = "remove_peer '";
    new ShellCompleter(CommandTable.standard(), shell.session())
        .complete(
            null,
            new ShellLineParser().parse(line, line.length(), ParseContext.COMPLETE),
            candidates);
    assertThat(candidates).extracting(Candidate::value).containsExactlyInAnyOrder("'c1'", "'c2'");
  }
}
