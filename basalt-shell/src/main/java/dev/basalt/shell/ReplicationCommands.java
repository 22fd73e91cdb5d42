package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.replication.ReplicationPeerConfigUtil;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfigBuilder;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.apache.hadoop.hbase.zookeeper.ZKConfig;

/**
 * Replication peers as HBase 2.6's shell handles them (hbase-shell's replication_admin.rb and
 * shell/commands/*_peer*.rb), through the stock Admin: add, remove, enable, disable and list peers,
 * show and update a peer's configuration, its bandwidth, serial and replicate-all flags, and the
 * switch that stops peer changes. What a peer replicates (namespaces, tables and families): {@link
 * ReplicationSelectionCommands}; tables: {@link ReplicationTableCommands}.
 */
final class ReplicationCommands {
  static final String GROUP = "replication";

  private static final String CLUSTER_KEY = "CLUSTER_KEY";
  private static final String ENDPOINT_CLASSNAME = "ENDPOINT_CLASSNAME";
  private static final String CONFIG = "CONFIG";
  private static final String DATA = "DATA";
  private static final String NAMESPACES = "NAMESPACES";
  private static final String TABLE_CFS = "TABLE_CFS";
  private static final String STATE = "STATE";
  private static final String SERIAL = "SERIAL";
  // not in HBase 2.6's add_peer (which ignores them): the settings set_peer_* changes afterwards
  private static final String BANDWIDTH = "BANDWIDTH";
  private static final String REPLICATE_ALL = "REPLICATE_ALL";
  private static final String EXCLUDE_NAMESPACES = "EXCLUDE_NAMESPACES";
  private static final String EXCLUDE_TABLE_CFS = "EXCLUDE_TABLE_CFS";

  private static final List<String> ADD_PEER_KEYS =
      List.of(
          CLUSTER_KEY,
          ENDPOINT_CLASSNAME,
          CONFIG,
          DATA,
          NAMESPACES,
          TABLE_CFS,
          STATE,
          SERIAL,
          BANDWIDTH,
          REPLICATE_ALL,
          EXCLUDE_NAMESPACES,
          EXCLUDE_TABLE_CFS);

  private ReplicationCommands() {}

  static List<Command> all() {
    return List.of(
        Command.of("add_peer", GROUP, FirstArg.NONE, ReplicationCommands::addPeer)
            .withOptions(ADD_PEER_KEYS),
        Command.of("remove_peer", GROUP, FirstArg.PEER, ReplicationCommands::removePeer),
        Command.of("enable_peer", GROUP, FirstArg.PEER, (a, s) -> setEnabled(a, s, true)),
        Command.of("disable_peer", GROUP, FirstArg.PEER, (a, s) -> setEnabled(a, s, false)),
        Command.of("list_peers", GROUP, FirstArg.NONE, ReplicationCommands::listPeers),
        Command.of("get_peer_config", GROUP, FirstArg.PEER, ReplicationCommands::getPeerConfig),
        Command.of("list_peer_configs", GROUP, FirstArg.NONE, ReplicationCommands::listPeerConfigs),
        Command.of(
                "update_peer_config", GROUP, FirstArg.PEER, ReplicationCommands::updatePeerConfig)
            .withOptions(List.of(CONFIG, DATA)),
        Command.of("set_peer_bandwidth", GROUP, FirstArg.PEER, ReplicationCommands::setBandwidth),
        Command.of("set_peer_serial", GROUP, FirstArg.PEER, ReplicationCommands::setSerial),
        Command.of(
            "set_peer_replicate_all", GROUP, FirstArg.PEER, ReplicationCommands::setReplicateAll),
        Command.of(
            "peer_modification_switch",
            GROUP,
            FirstArg.NONE,
            ReplicationCommands::modificationSwitch),
        Command.of(
            "peer_modification_enabled",
            GROUP,
            FirstArg.NONE,
            ReplicationCommands::modificationEnabled));
  }

  private static void addPeer(Arguments a, Session s) throws Exception {
    a.expect(
        1,
        2,
        "add_peer 'id', CLUSTER_KEY => 'zk1,zk2,zk3:2181:/hbase' [, TABLE_CFS => {...},"
            + " NAMESPACES => [...], STATE => 'DISABLED', SERIAL => true]");
    String id = PeerArguments.peerId(a);
    if (a.has(1) && !a.isHash(1)) {
      throw new UsageException(
          "add_peer: the peer's settings must be a hash such as CLUSTER_KEY =>"
              + " 'zk1:2181:/hbase', got "
              + Arguments.shown(a.get(1))
              + " (HBase 2 has no add_peer 'id', 'clusterKey')");
    }
    Options o = a.options(1);
    o.allowOnly(ADD_PEER_KEYS);
    String endpoint = o.has(ENDPOINT_CLASSNAME) ? o.text(ENDPOINT_CLASSNAME) : null;
    String clusterKey = o.has(CLUSTER_KEY) ? o.text(CLUSTER_KEY) : null;
    if (endpoint == null && clusterKey == null) {
      throw new UsageException(
          "add_peer: give CLUSTER_KEY => 'zk1,zk2:2181:/hbase' (the peer's ZooKeeper quorum,"
              + " port and parent znode) or ENDPOINT_CLASSNAME => 'a.ReplicationEndpoint'");
    }
    if (clusterKey == null) {
      // a custom endpoint still needs a cluster key: this cluster's, as HBase's shell gives it
      clusterKey = ZKConfig.getZooKeeperClusterKey(s.conf());
    }
    ReplicationPeerConfigBuilder b = ReplicationPeerConfig.newBuilder().setClusterKey(clusterKey);
    if (endpoint != null) {
      b.setReplicationEndpointImpl(endpoint);
    }
    if (o.has(CONFIG)) {
      b.putAllConfiguration(PeerArguments.config(o, CONFIG));
    }
    if (o.has(DATA)) {
      b.putAllPeerData(PeerArguments.data(o, DATA));
    }
    // a whitelist turns replicate-all off, as in HBase's shell
    if (o.has(NAMESPACES)) {
      b.setReplicateAllUserTables(false)
          .setNamespaces(
              PeerArguments.namespaces(a.command(), NAMESPACES, o.map().get(NAMESPACES)));
    }
    if (o.has(TABLE_CFS)) {
      b.setReplicateAllUserTables(false)
          .setTableCFsMap(PeerArguments.tableCfs(a.command(), TABLE_CFS, o.map().get(TABLE_CFS)));
    }
    if (o.has(EXCLUDE_NAMESPACES)) {
      b.setExcludeNamespaces(
          PeerArguments.namespaces(
              a.command(), EXCLUDE_NAMESPACES, o.map().get(EXCLUDE_NAMESPACES)));
    }
    if (o.has(EXCLUDE_TABLE_CFS)) {
      b.setExcludeTableCFsMap(
          PeerArguments.tableCfs(a.command(), EXCLUDE_TABLE_CFS, o.map().get(EXCLUDE_TABLE_CFS)));
    }
    if (o.has(REPLICATE_ALL)) {
      b.setReplicateAllUserTables(o.bool(REPLICATE_ALL));
    }
    if (o.has(SERIAL)) {
      b.setSerial(o.bool(SERIAL));
    }
    if (o.has(BANDWIDTH)) {
      b.setBandwidth(bandwidth(a.command(), o.number(BANDWIDTH)));
    }
    boolean enabled = true;
    if (o.has(STATE)) {
      String state = o.text(STATE).toUpperCase(Locale.ROOT);
      if (!state.equals("ENABLED") && !state.equals("DISABLED")) {
        throw new UsageException(
            "add_peer: STATE must be 'ENABLED' or 'DISABLED', got " + o.text(STATE));
      }
      enabled = state.equals("ENABLED");
    }
    s.admin().addReplicationPeer(id, b.build(), enabled);
  }

  private static void removePeer(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "remove_peer 'id'");
    String id = PeerArguments.peerId(a);
    s.admin().removeReplicationPeer(id);
  }

  private static void setEnabled(Arguments a, Session s, boolean enable) throws Exception {
    a.expect(1, 1, a.command() + " 'id'");
    String id = PeerArguments.peerId(a);
    if (enable) {
      s.admin().enableReplicationPeer(id);
    } else {
      s.admin().disableReplicationPeer(id);
    }
  }

  /**
   * One row per peer, list_peers.rb's columns. With replicate-all on, NAMESPACES and TABLE_CFS show
   * what is excluded, after a '!'; with it off, what is selected.
   */
  private static void listPeers(Arguments a, Session s) throws Exception {
    a.expect(0, 0, "list_peers");
    List<ReplicationPeerDescription> peers = s.admin().listReplicationPeers();
    Formatter f = s.formatter();
    f.header(
        "PEER_ID",
        "CLUSTER_KEY",
        "ENDPOINT_CLASSNAME",
        "STATE",
        "REPLICATE_ALL",
        "NAMESPACES",
        "TABLE_CFS",
        "BANDWIDTH",
        "SERIAL");
    for (ReplicationPeerDescription peer : peers) {
      ReplicationPeerConfig c = peer.getPeerConfig();
      String namespaces;
      String tableCfs;
      if (c.replicateAllUserTables()) {
        namespaces = excluded(namespaces(c.getExcludeNamespaces()));
        tableCfs = excluded(tableCfs(c.getExcludeTableCFsMap()));
      } else {
        namespaces = namespaces(c.getNamespaces());
        tableCfs = tableCfs(c.getTableCFsMap());
      }
      f.row(
          peer.getPeerId(),
          c.getClusterKey(),
          c.getReplicationEndpointImpl(),
          peer.isEnabled() ? "ENABLED" : "DISABLED",
          Boolean.toString(c.replicateAllUserTables()),
          namespaces,
          tableCfs,
          Long.toString(c.getBandwidth()),
          Boolean.toString(c.isSerial()));
    }
    f.footer(peers.size());
  }

  /** Namespaces sorted and joined by ';' (replication_admin.rb's show_peer_namespaces), or null. */
  static String namespaces(Set<String> namespaces) {
    if (namespaces == null) {
      return null;
    }
    List<String> sorted = new ArrayList<>(namespaces);
    Collections.sort(sorted);
    return String.join(";", sorted);
  }

  /**
   * The client's own rendering ("ns.table:cf1,cf2;default.t2"), which is what HBase's shell prints,
   * or null.
   */
  static String tableCfs(Map<TableName, ? extends Collection<String>> tableCfs) {
    return ReplicationPeerConfigUtil.convertToString(tableCfs);
  }

  private static String excluded(String shown) {
    return shown == null ? null : "!" + shown;
  }

  private static void getPeerConfig(Arguments a, Session s) throws Exception {
    a.expect(1, 1, "get_peer_config 'id'");
    String id = PeerArguments.peerId(a);
    ReplicationPeerConfig c = s.admin().getReplicationPeerConfig(id);
    s.formatter().header();
    printConfig(c, s.formatter());
  }

  /** get_peer_config.rb's format_peer_config: cluster key, endpoint, then each setting. */
  private static void printConfig(ReplicationPeerConfig c, Formatter f) {
    if (c.getClusterKey() != null) {
      f.row("Cluster Key", c.getClusterKey());
    }
    if (c.getReplicationEndpointImpl() != null) {
      f.row("Replication Endpoint", c.getReplicationEndpointImpl());
    }
    for (Map.Entry<String, String> e : c.getConfiguration().entrySet()) {
      f.row(e.getKey(), e.getValue());
    }
  }

  /**
   * Every peer's configuration, in the order of a java.util.HashMap keyed by peer id (what
   * list_peer_configs.rb iterates), each followed by a line holding one space.
   */
  private static void listPeerConfigs(Arguments a, Session s) throws Exception {
    a.expect(0, 0, "list_peer_configs");
    Map<String, ReplicationPeerConfig> byId = new HashMap<>();
    for (ReplicationPeerDescription peer : s.admin().listReplicationPeers()) {
      byId.put(peer.getPeerId(), peer.getPeerConfig());
    }
    Formatter f = s.formatter();
    f.header();
    for (Map.Entry<String, ReplicationPeerConfig> e : byId.entrySet()) {
      f.row("PeerId", e.getKey());
      printConfig(e.getValue(), f);
      f.line(" ");
    }
  }

  /** Adds or replaces CONFIG settings and DATA entries; the others stay. */
  private static void updatePeerConfig(Arguments a, Session s) throws Exception {
    a.expect(2, 2, "update_peer_config 'id', CONFIG => {'key' => 'value'}, DATA => {...}");
    String id = PeerArguments.peerId(a);
    Options o = a.options(1);
    o.allowOnly(List.of(CONFIG, DATA));
    Admin admin = s.admin();
    ReplicationPeerConfigBuilder b =
        ReplicationPeerConfig.newBuilder(admin.getReplicationPeerConfig(id));
    if (o.has(CONFIG)) {
      b.putAllConfiguration(PeerArguments.config(o, CONFIG));
    }
    if (o.has(DATA)) {
      b.putAllPeerData(PeerArguments.data(o, DATA));
    }
    admin.updateReplicationPeerConfig(id, b.build());
  }

  /** set_peer_bandwidth 'id'[, bytes per second]: 0 (the default) is unlimited. */
  private static void setBandwidth(Arguments a, Session s) throws Exception {
    a.expect(1, 2, "set_peer_bandwidth 'id', 10485760 (bytes per second; 0 for no limit)");
    String id = PeerArguments.peerId(a);
    long bandwidth = a.has(1) ? bandwidth(a.command(), a.number(1, "a bandwidth")) : 0;
    update(s, id, b -> b.setBandwidth(bandwidth));
  }

  private static long bandwidth(String command, long bytesPerSecond) throws UsageException {
    if (bytesPerSecond < 0) {
      throw new UsageException(
          command + ": the bandwidth is bytes per second, 0 for no limit; got " + bytesPerSecond);
    }
    return bytesPerSecond;
  }

  private static void setSerial(Arguments a, Session s) throws Exception {
    a.expect(2, 2, "set_peer_serial 'id', true or set_peer_serial 'id', false");
    String id = PeerArguments.peerId(a);
    boolean serial = PlacementCommands.bool(a, 1);
    update(s, id, b -> b.setSerial(serial));
  }

  private static void setReplicateAll(Arguments a, Session s) throws Exception {
    a.expect(2, 2, "set_peer_replicate_all 'id', true or set_peer_replicate_all 'id', false");
    String id = PeerArguments.peerId(a);
    boolean all = PlacementCommands.bool(a, 1);
    update(s, id, b -> b.setReplicateAllUserTables(all));
  }

  /** A change to one peer's configuration: read it, change it, write it back (as HBase does). */
  interface Change {
    void apply(ReplicationPeerConfigBuilder builder) throws UsageException;
  }

  static void update(Session s, String id, Change change) throws Exception {
    Admin admin = s.admin();
    ReplicationPeerConfigBuilder b =
        ReplicationPeerConfig.newBuilder(admin.getReplicationPeerConfig(id));
    change.apply(b);
    admin.updateReplicationPeerConfig(id, b.build());
  }

  /** peer_modification_switch true|false[, drain]: prints the previous state. */
  private static void modificationSwitch(Arguments a, Session s) throws Exception {
    a.expect(
        1, 2, "peer_modification_switch true or peer_modification_switch false[, drain_procs]");
    boolean on = PlacementCommands.bool(a, 0);
    boolean drain = a.has(1) && PlacementCommands.bool(a, 1);
    boolean before = s.admin().replicationPeerModificationSwitch(on, drain);
    s.formatter().header();
    s.formatter().line("Previous peer modification state : " + before);
  }

  private static void modificationEnabled(Arguments a, Session s) throws Exception {
    a.expect(0, 0, "peer_modification_enabled");
    boolean on = s.admin().isReplicationPeerModificationEnabled();
    s.formatter().header();
    s.formatter().line(Boolean.toString(on));
  }
}
