package dev.basalt.compat.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/** Tables of the cluster scenarios: pre-split creation, placement as meta says, removal. */
final class ClusterTables {
  static final byte[] CF = Bytes.toBytes("cf");
  static final byte[] Q = Bytes.toBytes("q");

  private ClusterTables() {}

  /**
   * Creates {@code name} (family cf) with {@code regions} regions split at {@code r01 .. r<n-1>},
   * so that {@link #rowIn} gives a row of each region.
   */
  static void create(Admin admin, TableName name, int regions) throws IOException {
    TableDescriptorBuilder b =
        TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF));
    if (regions == 1) {
      admin.createTable(b.build());
      return;
    }
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = Bytes.toBytes(String.format("r%03d", i));
    }
    admin.createTable(b.build(), splits);
  }

  /** A row of region {@code i} of a table made by {@link #create}: {@code r<i>-<suffix>}. */
  static byte[] rowIn(int region, String suffix) {
    return Bytes.toBytes(String.format("r%03d-%s", region, suffix));
  }

  /** One row per region of a table of {@code regions} regions made by {@link #create}. */
  static List<byte[]> rowPerRegion(int regions, String suffix) {
    List<byte[]> rows = new ArrayList<>();
    for (int i = 0; i < regions; i++) {
      rows.add(rowIn(i, suffix));
    }
    return rows;
  }

  /** Disables (if enabled) and deletes a table; nothing when it does not exist. */
  static void drop(Admin admin, TableName name) throws IOException {
    try {
      if (admin.isTableEnabled(name)) {
        admin.disableTable(name);
      }
      admin.deleteTable(name);
    } catch (TableNotFoundException gone) {
      // nothing to drop
    }
  }

  /** Where hbase:meta says the table's regions are (read from meta, not the client's cache). */
  static List<HRegionLocation> locations(Connection c, TableName name) throws IOException {
    try (RegionLocator l = c.getRegionLocator(name)) {
      return l.getAllRegionLocations();
    }
  }

  /** How many of the table's regions each server holds, by meta. */
  static Map<ServerName, Integer> regionsPerServer(Connection c, TableName name)
      throws IOException {
    Map<ServerName, Integer> per = new TreeMap<>();
    for (HRegionLocation l : locations(c, name)) {
      per.merge(l.getServerName(), 1, Integer::sum);
    }
    return per;
  }
}
