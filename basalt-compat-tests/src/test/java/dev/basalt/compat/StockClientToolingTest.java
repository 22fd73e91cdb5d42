package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static dev.basalt.compat.StockClientFixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.quotas.QuotaFilter;
import org.junit.jupiter.api.Test;

/**
 * What HBase's own tools and older clients call on any cluster (issue 37): the listings of features
 * Basalt does not have yet answer what is true; flush by procedure signature (clients before 2.6);
 * user tables in the {@code hbase} namespace (Canary); and descriptors that say what the server
 * does (delete semantics, data block encoding, coprocessors), the cluster's version, and the
 * exception of a reserved namespace's deletion, each as HBase answers it.
 */
class StockClientToolingTest extends OneConnectionTest {
  private static TableName table(Admin admin, String name) throws IOException {
    TableName tn = TableName.valueOf(name);
    admin.createTable(
        TableDescriptorBuilder.newBuilder(tn)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
            .build());
    return tn;
  }

  /** The store files of the table's regions, over every live server (one, or a cluster's). */
  private static int storeFiles(Admin admin, TableName tn) throws IOException {
    int files = 0;
    for (ServerName server : admin.getClusterMetrics().getLiveServerMetrics().keySet()) {
      files +=
          admin.getRegionMetrics(server, tn).stream().mapToInt(m -> m.getStoreFileCount()).sum();
    }
    return files;
  }

  @Test
  void listingsOfAbsentFeaturesAreEmpty() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      assertThat(admin.listSnapshots()).isEmpty();
      assertThat(admin.listTableSnapshots(".*", ".*")).isEmpty();
      assertThat(admin.isSnapshotCleanupEnabled()).isFalse();
      assertThat(admin.listReplicationPeers()).isEmpty();
      assertThat(admin.listDecommissionedRegionServers()).isEmpty();
      assertThat(admin.getQuota(new QuotaFilter())).isEmpty();
      assertThat(admin.getSpaceQuotaTableSizes()).isEmpty();
      assertThat(admin.getLocks()).isEqualTo("[]");
      // Changing a missing feature keeps its clear refusal.
      TableName tn = table(admin, "tooling_snap");
      assertThatThrownBy(() -> admin.snapshot("s1", tn))
          .hasMessageContaining("Snapshot is not implemented");
    }
  }

  @Test
  void proceduresListTheRecentDdl() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      table(admin, "tooling_procs");
      String procedures = admin.getProcedures();
      assertThat(procedures).contains("CreateTableProcedure").contains("SUCCESS");
    }
  }

  @Test
  void flushBySignatureAsClientsBefore26DoIt() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      TableName tn = table(admin, "tooling_flush");
      try (Table t = conn.getTable(tn)) {
        t.put(new Put(b("r")).addColumn(b("f"), b("q"), b("v")));
      }
      assertThat(storeFiles(admin, tn)).isZero();
      admin.execProcedure("flush-table-proc", tn.getNameAsString(), new HashMap<>());
      assertThat(admin.isProcedureFinished("flush-table-proc", tn.getNameAsString(), null))
          .isTrue();
      assertThat(storeFiles(admin, tn)).isOne();
      assertThatThrownBy(
              () -> admin.execProcedure("online-snapshot", tn.getNameAsString(), new HashMap<>()))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("The procedure is not registered: online-snapshot");
      assertThatThrownBy(
              () -> admin.execProcedure("flush-table-proc", "no_such_table", new HashMap<>()))
          .hasMessageContaining("no_such_table");
    }
  }

  @Test
  void userTablesMayLiveInTheSystemNamespace() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      TableName canary = table(admin, "hbase:canary");
      try (Table t = conn.getTable(canary)) {
        t.put(new Put(b("r")).addColumn(b("f"), b("q"), b("v")));
        assertThat(s(t.get(new Get(b("r"))).getValue(b("f"), b("q")))).isEqualTo("v");
      }
      // As HBase: system tables are listed only when asked for.
      assertThat(admin.listTableNames()).doesNotContain(canary);
      assertThat(admin.listTableNamesByNamespace("hbase")).contains(canary);
      assertThatThrownBy(() -> table(admin, "hbase:meta")).isInstanceOf(TableExistsException.class);
      assertThatThrownBy(() -> table(admin, "hbase:namespace")).hasMessageContaining("reserved");
      admin.disableTable(canary);
      admin.deleteTable(canary);
      assertThat(admin.tableExists(canary)).isFalse();
    }
  }

  @Test
  void deletingAReservedNamespaceFailsAsInHBase() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      // HBase's master throws ConstraintException, which the stock client cannot load: it reports
      // a DoNotRetryIOException naming the class, with the server's message in its cause.
      for (String ns : List.of("hbase", "default")) {
        assertThatThrownBy(() -> admin.deleteNamespace(ns))
            .isInstanceOf(DoNotRetryIOException.class)
            .hasMessageContaining("org.apache.hadoop.hbase.constraint.ConstraintException")
            .cause()
            .hasMessageContaining("Reserved namespace " + ns + " cannot be removed");
      }
    }
  }

  @Test
  void descriptorsSayWhatTheServerDoes() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      TableName tn = TableName.valueOf("tooling_desc");
      admin.createTable(
          TableDescriptorBuilder.newBuilder(tn)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("plain"))
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(b("classic"))
                      .setNewVersionBehavior(false)
                      .build())
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(b("encoded"))
                      .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF)
                      .build())
              .build());
      TableDescriptor d = admin.getDescriptor(tn);
      // Basalt's default is deterministic history, and the descriptor says so.
      assertThat(d.getColumnFamily(b("plain")).isNewVersionBehavior()).isTrue();
      assertThat(d.getColumnFamily(b("classic")).isNewVersionBehavior()).isFalse();
      ColumnFamilyDescriptor encoded = d.getColumnFamily(b("encoded"));
      assertThat(encoded.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.FAST_DIFF);
      assertThat(encoded.getValue("BASALT_NOTE")).contains("not applied");
      assertThat(d.toString()).contains("'NEW_VERSION_BEHAVIOR' => 'true'");
      // A modification built from what was read keeps the semantics and drops the note.
      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(d)
              .modifyColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(d.getColumnFamily(b("plain")))
                      .setMaxVersions(3)
                      .build())
              .build());
      TableDescriptor after = admin.getDescriptor(tn);
      assertThat(after.getColumnFamily(b("plain")).getMaxVersions()).isEqualTo(3);
      assertThat(after.getColumnFamily(b("plain")).isNewVersionBehavior()).isTrue();
      assertThat(after.getColumnFamily(b("classic")).isNewVersionBehavior()).isFalse();
      assertThat(after.getColumnFamily(b("encoded")).getValue("BASALT_NOTE")).isNotNull();
    }
  }

  @Test
  void coprocessorsAreRefusedByName() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      TableDescriptor withObserver =
          TableDescriptorBuilder.newBuilder(TableName.valueOf("tooling_cp"))
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
              .setCoprocessor("org.example.AuditObserver")
              .build();
      assertThatThrownBy(() -> admin.createTable(withObserver))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("org.example.AuditObserver")
          .hasMessageContaining("does not run coprocessors");
      assertThat(admin.tableExists(withObserver.getTableName())).isFalse();
      TableName plain = table(admin, "tooling_cp2");
      assertThatThrownBy(
              () ->
                  admin.modifyTable(
                      TableDescriptorBuilder.newBuilder(admin.getDescriptor(plain))
                          .setCoprocessor("org.example.AuditObserver")
                          .build()))
          .hasMessageContaining("org.example.AuditObserver");
    }
  }

  @Test
  void theClusterSaysBasaltsVersionAndTheHBaseVersionItSpeaks() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      String version = admin.getClusterMetrics().getHBaseVersion();
      assertThat(version).startsWith("2.6.3-basalt-").doesNotContain("unknown");
    }
  }
}
