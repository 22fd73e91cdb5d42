package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.EditLog;
import dev.basalt.region.MaintenanceRequests;
import dev.basalt.region.Region;
import dev.basalt.region.RegionScanner;
import dev.basalt.region.RegionServices;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.sstable.BlockCache;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Regions with families f and g, writes in a compact notation, and readable results. */
final class Fixture {
  static final byte[] F = b("f");
  static final byte[] G = b("g");

  private Fixture() {}

  static byte[] b(String s) {
    return Bytes.toBytesBinary(s);
  }

  static TableDescriptor table(int maxVersions) {
    return table(maxVersions, true);
  }

  /** Families f and g; {@code deterministic} false gives them HBase's classic rules. */
  static TableDescriptor table(int maxVersions, boolean deterministic) {
    return TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
        .setColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(F)
                .setMaxVersions(maxVersions)
                .setNewVersionBehavior(deterministic)
                .build())
        .setColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(G)
                .setMaxVersions(maxVersions)
                .setNewVersionBehavior(deterministic)
                .build())
        .build();
  }

  /** An in-memory region (every read comes from the memstore). */
  static Region memory(int maxVersions) {
    return memory(maxVersions, true);
  }

  static Region memory(int maxVersions, boolean deterministic) {
    return Region.inMemory(
        table(maxVersions, deterministic),
        RegionServices.of(new ManualClock(1_000_000), Config.defaults(), EditLog.NONE));
  }

  /** A region on local storage, so data can be flushed to store files. */
  static Region stored(Path dir, int maxVersions) throws IOException {
    return stored(dir, maxVersions, true);
  }

  static Region stored(Path dir, int maxVersions, boolean deterministic) throws IOException {
    RegionServices services =
        RegionServices.of(
            new ManualClock(1_000_000),
            Config.defaults(),
            EditLog.NONE,
            new BlockCache(4 << 20),
            MaintenanceRequests.NONE);
    RegionInfo info = RegionInfo.of(TableName.valueOf("t"), Bytes.EMPTY, Bytes.EMPTY, 1);
    return Region.open(
        info,
        table(maxVersions, deterministic),
        services,
        new LocalStorage(dir),
        "data/t/r",
        "archive/t/r");
  }

  /**
   * Writes cells given as "row/fam:qual@ts=value" (value optional: defaults to row+qual), each as
   * its own Put.
   */
  static void put(Region r, String... cells) throws IOException {
    for (String spec : cells) {
      int slash = spec.indexOf('/');
      int colon = spec.indexOf(':', slash);
      int at = spec.indexOf('@', colon);
      int eq = spec.indexOf('=', at);
      String row = spec.substring(0, slash);
      String fam = spec.substring(slash + 1, colon);
      String q = spec.substring(colon + 1, at);
      long ts = Long.parseLong(eq < 0 ? spec.substring(at + 1) : spec.substring(at + 1, eq));
      String v = eq < 0 ? row + q : spec.substring(eq + 1);
      r.put(new Put(b(row)).addColumn(b(fam), b(q), ts, b(v)));
    }
  }

  /** "fam:qual@ts=value" of one cell. */
  static String cell(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
        + "@"
        + c.getTimestamp()
        + "="
        + Bytes.toStringBinary(CellUtil.cloneValue(c));
  }

  /** "row cell cell ..." of one result; null for an empty one. */
  static String row(Result res) {
    Cell[] cells = res.rawCells();
    if (cells.length == 0) {
      return null;
    }
    StringBuilder sb = new StringBuilder(Bytes.toStringBinary(CellUtil.cloneRow(cells[0])));
    for (Cell c : cells) {
      sb.append(' ').append(cell(c));
    }
    return sb.toString();
  }

  /** Every result of the scan, one string each. */
  static List<String> scan(Region r, Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.getScanner(scan)) {
      Result res;
      while ((res = s.next()) != null) {
        out.add(row(res));
      }
    }
    return out;
  }

  static List<String> scan(Region r, Filter f) throws IOException {
    return scan(r, new Scan().readAllVersions().setFilter(f));
  }

  static List<String> scanReversed(Region r, Filter f) throws IOException {
    return scan(r, new Scan().readAllVersions().setReversed(true).setFilter(f));
  }

  static String get(Region r, String row, Filter f) throws IOException {
    return row(r.get(new Get(b(row)).readAllVersions().setFilter(f)));
  }

  static <T> List<T> reversed(List<T> l) {
    List<T> out = new ArrayList<>(l);
    Collections.reverse(out);
    return out;
  }

  /** A put cell for direct filter calls. */
  static Cell kv(String row, String fam, String q, long ts, String value) {
    return KeyValue.of(b(row), b(fam), b(q), ts, dev.basalt.cell.CellType.PUT, b(value));
  }

  static Cell kv(String row, String q) {
    return kv(row, "f", q, 1, "v");
  }
}
