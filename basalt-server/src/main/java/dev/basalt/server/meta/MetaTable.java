package dev.basalt.server.meta;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.ops.Get;
import dev.basalt.ops.Query;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionScanner;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * hbase:meta as the stock client reads it: one region, {@code hbase:meta,,1}, built from a {@link
 * MetaSource}, with families {@code info} and {@code table} (layout in {@link MetaRows}) and rows
 * in {@link MetaRowComparator} order. Reads see the catalog at the moment they start; a scanner
 * keeps the snapshot it opened on. Meta is maintained by the server: clients cannot write to it,
 * and filters on it are refused (no stock client path sends one).
 */
public final class MetaTable {
  /** The meta region's name, in HBase's old format without an encoded-name suffix. */
  public static final byte[] REGION_NAME = Bytes.toBytes("hbase:meta,,1");

  /** HBase's fixed encoded name of the first meta region (a Jenkins hash of its name). */
  public static final String ENCODED_NAME = "1588230740";

  private static final ByteString REGION_NAME_BYTES = ByteString.copyFrom(REGION_NAME);

  private final MetaSource source;

  public MetaTable(MetaSource source) {
    this.source = source;
  }

  /** Whether a request names the meta region (by full or encoded name). */
  public static boolean isMeta(RegionSpecifier spec) {
    ByteString v = spec.getValue();
    return switch (spec.getType()) {
      case REGION_NAME -> v.equals(REGION_NAME_BYTES);
      case ENCODED_REGION_NAME -> v.toStringUtf8().equals(ENCODED_NAME);
    };
  }

  /** Meta's RegionInfo as the registry reports it (the client rebuilds the name from it). */
  public static HBaseProtos.RegionInfo regionInfo() {
    return HBaseProtos.RegionInfo.newBuilder()
        .setRegionId(1)
        .setTableName(
            HBaseProtos.TableName.newBuilder()
                .setNamespace(ByteString.copyFromUtf8(TableName.META.getNamespaceAsString()))
                .setQualifier(ByteString.copyFromUtf8(TableName.META.getQualifierAsString())))
        .setReplicaId(0)
        .build();
  }

  public Result get(Get get) throws BasaltIOException {
    checkQuery(get);
    List<Cell> row = MetaRows.row(source, get.getRow());
    List<Cell> cells = row == null ? List.of() : select(row, get);
    return get.isCheckExistenceOnly() ? Result.ofExists(!cells.isEmpty()) : Result.create(cells);
  }

  public RegionScanner getScanner(Scan scan) throws BasaltIOException {
    checkQuery(scan);
    return new MetaScanner(inRange(MetaRows.snapshot(source), scan).values(), scan);
  }

  private static void checkQuery(Query q) throws BasaltIOException {
    if (q.getFilter() != null) {
      throw BasaltIOException.doNotRetry(
          "filters on hbase:meta are not supported by Basalt; read the rows and filter them");
    }
    for (byte[] family : q.getFamilyMap().keySet()) {
      if (!Bytes.equals(family, MetaRows.INFO) && !Bytes.equals(family, MetaRows.TABLE)) {
        throw new BasaltIOException(
            "column family "
                + Bytes.toStringBinary(family)
                + " does not exist in hbase:meta (it has info and table)",
            "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException",
            true);
      }
    }
  }

  /** The rows between the scan's bounds, in scan order (start is the upper bound when reversed). */
  private static <V> NavigableMap<byte[], V> inRange(NavigableMap<byte[], V> rows, Scan scan) {
    boolean reversed = scan.isReversed();
    byte[] low = reversed ? scan.getStopRow() : scan.getStartRow();
    byte[] high = reversed ? scan.getStartRow() : scan.getStopRow();
    boolean lowInclusive = reversed ? scan.includeStopRow() : scan.includeStartRow();
    boolean highInclusive = reversed ? scan.includeStartRow() : scan.includeStopRow();
    if (low.length > 0 && high.length > 0) {
      rows =
          MetaRowComparator.compare(low, high) > 0
              ? Collections.emptyNavigableMap()
              : rows.subMap(low, lowInclusive, high, highInclusive);
    } else if (low.length > 0) {
      rows = rows.tailMap(low, lowInclusive);
    } else if (high.length > 0) {
      rows = rows.headMap(high, highInclusive);
    }
    return reversed ? rows.descendingMap() : rows;
  }

  /** The cells of a row the query's columns and time ranges ask for (one version exists). */
  private static List<Cell> select(List<Cell> row, Query q) {
    List<Cell> out = new ArrayList<>(row.size());
    for (Cell c : row) {
      // meta has these two families only: name the cell's without copying it
      byte[] family = CellUtil.matchingFamily(c, MetaRows.INFO) ? MetaRows.INFO : MetaRows.TABLE;
      if (q.hasFamilies()) {
        if (!q.getFamilyMap().containsKey(family)) {
          continue;
        }
        NavigableSet<byte[]> qualifiers = q.getFamilyMap().get(family);
        if (qualifiers != null && !qualifiers.contains(CellUtil.cloneQualifier(c))) {
          continue;
        }
      }
      if (q.getTimeRange(family).withinTimeRange(c.getTimestamp())) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * Walks a snapshot's rows, building each only when reached and skipping those the scan selects
   * nothing of, and cuts them into slices of {@code batch} cells when asked.
   */
  private static final class MetaScanner implements RegionScanner {
    private final Iterator<Supplier<List<Cell>>> rows;
    private final Scan scan;
    private final int batch;
    private List<Cell> cells = List.of(); // the selected cells of the current row
    private int cell; // the first of them not returned yet

    MetaScanner(Collection<Supplier<List<Cell>>> rows, Scan scan) {
      this.rows = rows.iterator();
      this.scan = scan;
      this.batch = scan.getBatch();
    }

    @Override
    public Result next() {
      while (cell >= cells.size()) {
        if (!rows.hasNext()) {
          return null;
        }
        cells = select(rows.next().get(), scan);
        cell = 0;
      }
      int end = batch > 0 ? Math.min(cells.size(), cell + batch) : cells.size();
      List<Cell> slice = cells.subList(cell, end);
      cell = end;
      return Result.create(slice, end < cells.size());
    }

    @Override
    public long getMvccReadPoint() {
      return 0;
    }

    @Override
    public void close() {}
  }
}
