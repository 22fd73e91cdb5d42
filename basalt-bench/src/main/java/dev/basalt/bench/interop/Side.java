package dev.basalt.bench.interop;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.ReplicationPeerNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;

/**
 * One cluster of the check (Apache HBase or Basalt), reached through the stock client by its
 * ZooKeeper, and what the check asks of it: the test table and replication peers, through the Admin
 * API as an operator's shell would.
 */
final class Side implements AutoCloseable {
  final String name;
  final String zookeeper;
  final Connection conn;
  private final boolean oneMetricsRegistry;

  private Side(String name, String zookeeper, Connection conn, boolean oneMetricsRegistry) {
    this.name = name;
    this.zookeeper = zookeeper;
    this.conn = conn;
    this.oneMetricsRegistry = oneMetricsRegistry;
  }

  /**
   * @param zookeeper {@code host:port} of the cluster's ZooKeeper (parent znode {@code /hbase})
   * @param oneMetricsRegistry whether its region servers share one JVM's metrics (an HBase mini
   *     cluster; see {@link ReplicationCounters})
   */
  static Side connect(String name, String zookeeper, boolean oneMetricsRegistry)
      throws IOException {
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.ZOOKEEPER_QUORUM, zookeeper);
    // A cluster that is down fails the check within seconds, not after the client's 16 minutes.
    conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 5);
    conf.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 60_000);
    return new Side(name, zookeeper, ConnectionFactory.createConnection(conf), oneMetricsRegistry);
  }

  /** The cluster key other clusters' peers use to reach this one. */
  String clusterKey() {
    return zookeeper + ":/hbase";
  }

  /**
   * Creates the table: family {@code cf} replicated ({@code REPLICATION_SCOPE => 1}, five versions)
   * and family {@code local} not ({@code REPLICATION_SCOPE => 0}), both with the given {@code
   * NEW_VERSION_BEHAVIOR}. It is set explicitly because the two systems' defaults differ (HBase
   * false, Basalt true), and the same edits read differently under the two rules.
   */
  void createTable(TableName table, boolean newVersionBehavior) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(table)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(InteropWrites.CF)
                      .setScope(HConstants.REPLICATION_SCOPE_GLOBAL)
                      .setMaxVersions(5)
                      .setNewVersionBehavior(newVersionBehavior)
                      .build())
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(InteropWrites.LOCAL)
                      .setMaxVersions(5)
                      .setNewVersionBehavior(newVersionBehavior)
                      .build())
              .build());
    }
  }

  /** Creates the namespace unless it exists. */
  void ensureNamespace(String namespace) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      admin.createNamespace(NamespaceDescriptor.create(namespace).build());
    } catch (NamespaceExistException e) {
      // an earlier run's
    }
  }

  /** Adds a peer replicating only {@code table} to {@code to}. */
  void addPeer(String id, Side to, TableName table) throws IOException {
    Map<TableName, List<String>> tableCfs = new HashMap<>();
    tableCfs.put(table, null); // every family, as 'TABLE_CFS => { "t" => [] }'
    try (Admin admin = conn.getAdmin()) {
      admin.addReplicationPeer(
          id,
          ReplicationPeerConfig.newBuilder()
              .setClusterKey(to.clusterKey())
              .setReplicateAllUserTables(false)
              .setTableCFsMap(tableCfs)
              .build());
    }
  }

  /** Removes a peer; one that is not there is fine (a failed run's cleanup). */
  void removePeer(String id) {
    try (Admin admin = conn.getAdmin()) {
      admin.removeReplicationPeer(id);
    } catch (ReplicationPeerNotFoundException e) {
      // not there
    } catch (IOException e) {
      System.out.println("  (could not remove peer " + id + " on " + name + ": " + e + ")");
    }
  }

  ReplicationCounters counters(String peerId) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      return ReplicationCounters.read(admin, peerId, oneMetricsRegistry);
    }
  }

  @Override
  public void close() throws IOException {
    conn.close();
  }

  @Override
  public String toString() {
    return name;
  }
}
