package dev.basalt.compat.oldclient;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * The admin part of the compatibility suite, run by whatever stock client is on the class path:
 * {@code OldClientAdminTest} starts it in a child JVM with hbase-shaded-client 2.5 (which cannot
 * share a class path with the 2.6 client the other tests use). Compiled against 2.6's API, it calls
 * only what 2.5 has too. Prints one line per step ("ok: ...") and exits 0, or prints the failure
 * and exits 1.
 *
 * <pre>
 * java -cp OLD_CLIENT_JARS:test-classes dev.basalt.compat.oldclient.OldClientAdminMain ZK_PORT
 * </pre>
 */
public final class OldClientAdminMain {
  private static final byte[] F = Bytes.toBytes("f");

  private OldClientAdminMain() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.set("hbase.zookeeper.property.clientPort", args[0]);
    conf.setInt("hbase.client.retries.number", 5);
    conf.setInt("hbase.client.pause", 50);
    try (Connection c = ConnectionFactory.createConnection(conf);
        Admin admin = c.getAdmin()) {
      run(c, admin);
    } catch (Throwable t) {
      System.out.println("FAILED: " + t);
      t.printStackTrace(System.out);
      System.exit(1);
    }
    System.exit(0);
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
    System.out.println("ok: " + what);
  }

  private static void run(Connection c, Admin admin) throws Exception {
    System.out.println("client: " + VersionInfo.getVersion());
    check(admin.getClusterMetrics().getHBaseVersion().startsWith("2.6"), "cluster version");
    admin.createNamespace(NamespaceDescriptor.create("oldns").build());
    check(
        Arrays.stream(admin.listNamespaceDescriptors()).anyMatch(d -> d.getName().equals("oldns")),
        "namespace created and listed");
    TableName tn = TableName.valueOf("oldns", "t");
    admin.createTable(
        TableDescriptorBuilder.newBuilder(tn)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(2).build())
            .build(),
        new byte[][] {Bytes.toBytes("m")});
    check(admin.tableExists(tn) && admin.isTableEnabled(tn), "pre-split table created");
    List<RegionInfo> regions = admin.getRegions(tn);
    check(regions.size() == 2, "two regions");
    check(Arrays.asList(admin.listTableNames()).contains(tn), "table listed");
    check(admin.getDescriptor(tn).getColumnFamily(F).getMaxVersions() == 2, "descriptor read back");
    try (Table t = c.getTable(tn)) {
      t.put(new Put(Bytes.toBytes("a")).addColumn(F, Bytes.toBytes("q"), Bytes.toBytes("1")));
      t.put(new Put(Bytes.toBytes("z")).addColumn(F, Bytes.toBytes("q"), Bytes.toBytes("2")));
      // Clients before 2.6 flush a table through ExecProcedure("flush-table-proc").
      admin.flush(tn);
      int files = 0;
      for (ServerName server : admin.getRegionServers()) { // one server, or a cluster's several
        files +=
            admin.getRegionMetrics(server, tn).stream().mapToInt(m -> m.getStoreFileCount()).sum();
      }
      check(files == 2, "Admin.flush(table) wrote each region's memstore (" + files + " files)");
      admin.majorCompact(tn);
      check(
          Bytes.toString(t.get(new Get(Bytes.toBytes("z"))).getValue(F, Bytes.toBytes("q")))
              .equals("2"),
          "data readable after flush and compaction");
    }
    admin.modifyColumnFamily(
        tn, ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(5).build());
    check(admin.getDescriptor(tn).getColumnFamily(F).getMaxVersions() == 5, "family modified");
    admin.addColumnFamily(tn, ColumnFamilyDescriptorBuilder.of("g"));
    check(admin.getDescriptor(tn).getColumnFamilyCount() == 2, "family added");
    admin.disableTable(tn);
    check(admin.isTableDisabled(tn), "table disabled");
    admin.truncateTable(tn, true);
    check(admin.isTableEnabled(tn) && admin.getRegions(tn).size() == 2, "truncated, splits kept");
    admin.disableTable(tn);
    admin.deleteTable(tn);
    check(!admin.tableExists(tn), "table deleted");
    admin.deleteNamespace("oldns");
    check(
        Arrays.stream(admin.listNamespaceDescriptors()).noneMatch(d -> d.getName().equals("oldns")),
        "namespace deleted");
    check(admin.listSnapshots().isEmpty(), "snapshots listed (none)");
    check(admin.listReplicationPeers().isEmpty(), "replication peers listed (none)");
    check(admin.getProcedures() != null, "procedures listed");
  }
}
