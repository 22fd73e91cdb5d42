package dev.basalt.compat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Helpers shared by the stock-client data tests: creating tables through {@code Admin}, and turning
 * what the client returns into plain strings and maps, to compare with what a test wrote.
 */
final class StockClientFixtures {
  private StockClientFixtures() {}

  static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  static String s(byte[] b) {
    return b == null ? null : Bytes.toString(b);
  }

  /** Creates a table with the given families (each keeping {@code versions} versions). */
  static TableName create(Admin admin, String name, int versions, byte[][] splits, String... cfs)
      throws IOException {
    TableName tn = TableName.valueOf(name);
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(tn);
    for (String cf : cfs) {
      tb.setColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(b(cf)).setMaxVersions(versions).build());
    }
    createTable(admin, tb.build(), splits);
    return tn;
  }

  /** Creates a table, pre-split when split keys are given (the client refuses an empty array). */
  static void createTable(Admin admin, TableDescriptor desc, byte[][] splits) throws IOException {
    if (splits == null || splits.length == 0) {
      admin.createTable(desc);
    } else {
      admin.createTable(desc, splits);
    }
  }

  static byte[][] splits(String... keys) {
    byte[][] out = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      out[i] = b(keys[i]);
    }
    return out;
  }

  /** Every Result of a scan, the scanner closed afterwards. */
  static List<Result> scan(Table t, Scan scan) throws IOException {
    List<Result> out = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        out.add(r);
      }
    }
    return out;
  }

  /** The row keys of the results, in the order returned. */
  static List<String> rows(List<Result> results) {
    List<String> out = new ArrayList<>(results.size());
    for (Result r : results) {
      out.add(Bytes.toString(r.getRow()));
    }
    return out;
  }

  /** "family:qualifier" -> value of a result's cells (cells in the order returned). */
  static Map<String, String> columns(Result r) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (Cell c : r.rawCells()) {
      out.put(column(c), Bytes.toString(CellUtil.cloneValue(c)));
    }
    return out;
  }

  static String column(Cell c) {
    return Bytes.toString(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toString(CellUtil.cloneQualifier(c));
  }

  /** "family:qualifier@ts=value" for each cell of a result, in the order returned. */
  static List<String> versions(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(column(c) + "@" + c.getTimestamp() + "=" + Bytes.toString(CellUtil.cloneValue(c)));
    }
    return out;
  }

  /**
   * Row -> ("family:qualifier" -> value) of results, merging results of one row (batched or partial
   * results) in order.
   */
  static NavigableMap<String, NavigableMap<String, String>> model(List<Result> results) {
    NavigableMap<String, NavigableMap<String, String>> out = new TreeMap<>();
    for (Result r : results) {
      NavigableMap<String, String> row =
          out.computeIfAbsent(Bytes.toString(r.getRow()), k -> new TreeMap<>());
      for (Cell c : r.rawCells()) {
        row.put(column(c), Bytes.toString(CellUtil.cloneValue(c)));
      }
    }
    return out;
  }
}
