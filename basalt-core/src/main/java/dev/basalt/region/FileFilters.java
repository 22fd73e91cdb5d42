package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.ops.Scan;
import dev.basalt.ops.TimeRange;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.KeepDeletedCells;
import dev.basalt.sstable.StoreFileInfo;
import dev.basalt.sstable.StoreFileReader;
import java.util.NavigableSet;

/**
 * Which store files a read can skip without changing its result:
 *
 * <ul>
 *   <li>files without cells (a compaction that dropped everything leaves one, to keep its store's
 *       persisted sequence id);
 *   <li>files whose rows lie outside the scan's row range;
 *   <li>files whose every cell is older than the time range (older puts cannot hide newer ones, and
 *       older markers cover only older cells);
 *   <li>under classic rules with KEEP_DELETED_CELLS=FALSE only, files whose every cell is newer
 *       than the time range and that hold no delete marker (deterministic history, and classic
 *       families that keep deleted cells, count newer versions even outside the range, so they
 *       cannot skip them);
 *   <li>with MIN_VERSIONS=0, files whose every cell has expired;
 *   <li>for a get, files whose bloom filter rules out the row (or, with a ROWCOL filter and
 *       explicit columns, every requested column and the family markers' empty qualifier).
 * </ul>
 */
final class FileFilters {
  private FileFilters() {}

  static Store.FileFilter forRead(Scan scan, ColumnFamilyDescriptor family, long now) {
    byte[] familyName = family.getName(); // a copy: take it once, not per file
    TimeRange tr = scan.getTimeRange(familyName);
    long ttl = family.getTimeToLiveMillis();
    long oldest =
        family.getMinVersions() == 0 && ttl != Long.MAX_VALUE && now - ttl < now
            ? now - ttl
            : Long.MIN_VALUE;
    boolean newerUncounted =
        !family.isNewVersionBehavior() && family.getKeepDeletedCells() == KeepDeletedCells.FALSE;
    byte[] getRow = scan.isGetScan() ? scan.getStartRow() : null;
    NavigableSet<byte[]> columns = scan.getFamilyMap().get(familyName);
    byte[] start = scan.getStartRow();
    byte[] stop = scan.getStopRow();
    boolean reversed = scan.isReversed();
    return (info, reader) -> {
      if (info.cellCount() == 0) {
        return false; // only carries its store's persisted sequence id
      }
      if (info.maxTimestamp() < tr.getMin() || info.maxTimestamp() < oldest) {
        return false;
      }
      if (newerUncounted && info.minTimestamp() >= tr.getMax() && info.deleteMarkerCount() == 0) {
        return false;
      }
      if (!overlapsRows(info, start, stop, reversed)) {
        return false;
      }
      return getRow == null || bloomAllows(reader, info, getRow, familyName, columns);
    };
  }

  private static int compareRow(Cell c, byte[] row) {
    return Bytes.compareTo(c.getRowArray(), c.getRowOffset(), c.getRowLength(), row, 0, row.length);
  }

  /** Whether the file's rows can meet the scan's range (inclusive flags do not matter here). */
  private static boolean overlapsRows(
      StoreFileInfo info, byte[] start, byte[] stop, boolean reversed) {
    byte[] low = reversed ? stop : start;
    byte[] high = reversed ? start : stop;
    if (low.length > 0 && compareRow(info.lastKey(), low) < 0) {
      return false;
    }
    return high.length == 0 || compareRow(info.firstKey(), high) <= 0;
  }

  private static boolean bloomAllows(
      StoreFileReader reader,
      StoreFileInfo info,
      byte[] row,
      byte[] family,
      NavigableSet<byte[]> columns) {
    if (info.bloomType() == BloomType.ROWCOL) {
      if (columns == null || columns.isEmpty()) {
        return true;
      }
      if (reader.mightContainRowCol(row, family, Bytes.EMPTY)) {
        return true; // family markers (and the empty-qualifier column) may be here
      }
      for (byte[] q : columns) {
        if (reader.mightContainRowCol(row, family, q)) {
          return true;
        }
      }
      return false;
    }
    return reader.mightContainRow(row, 0, row.length);
  }
}
