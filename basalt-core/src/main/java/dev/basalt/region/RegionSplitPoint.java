package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.RegionInfo;
import java.io.IOException;

/**
 * Finds where a region splits: the middle row of the largest store file of its largest store (by
 * bytes), as HBase does. The file's block index gives a row near the middle by size ({@link
 * dev.basalt.sstable.StoreFileReader#midRow}); a file of one block has none, so its cells are
 * counted instead (a small file: cheap). The row must be strictly inside the region and after the
 * file's first row, so that both daughters get rows. Stateless.
 */
public final class RegionSplitPoint {
  private RegionSplitPoint() {}

  /** Bytes of store files of the family holding the most (what a split decision looks at). */
  public static long largestStoreSize(Region region) {
    long max = 0;
    for (Store s : region.storeList()) {
      long n = 0;
      for (StoreFile f : s.view().files()) {
        n += f.info().fileSize();
      }
      max = Math.max(max, n);
    }
    return max;
  }

  /**
   * Where {@code region} would split: the middle row of the largest file of its largest store, or
   * null when no row strictly inside the region works (too little data, one row), or the region
   * still has references (it cannot split before a compaction rewrote them) or is closed.
   */
  public static byte[] of(Region region) throws IOException {
    if (region.isClosed() || region.hasReferences()) {
      return null;
    }
    Store largest = null;
    long largestSize = -1;
    for (Store s : region.storeList()) {
      long n = 0;
      for (StoreFile f : s.view().files()) {
        n += f.info().fileSize();
      }
      if (n > largestSize) {
        largest = s;
        largestSize = n;
      }
    }
    if (largest == null) {
      return null;
    }
    StoreFile file = null;
    for (StoreFile f : largest.view().files()) {
      if (f.info().cellCount() > 0
          && (file == null || f.info().fileSize() > file.info().fileSize())) {
        file = f;
      }
    }
    if (file == null || !file.acquire()) {
      return null;
    }
    try {
      byte[] row = file.reader().midRow();
      if (row == null || !usable(row, file, region.getRegionInfo())) {
        row = middleByCount(file);
      }
      return row != null && usable(row, file, region.getRegionInfo()) ? row : null;
    } finally {
      file.release();
    }
  }

  private static boolean usable(byte[] row, StoreFile file, RegionInfo info) {
    byte[] first = CellUtil.cloneRow(file.info().firstKey());
    byte[] start = info.getStartKey();
    byte[] end = info.getEndKey();
    return Bytes.compareTo(row, first) > 0
        && Bytes.compareTo(row, start) > 0
        && (end.length == 0 || Bytes.compareTo(row, end) < 0);
  }

  /** The first row that starts at or after the file's middle cell, or null. */
  private static byte[] middleByCount(StoreFile file) throws IOException {
    long half = file.info().cellCount() / 2;
    if (!file.acquire()) {
      return null;
    }
    try (KeyValueScanner s = file.scanner(Long.MAX_VALUE)) {
      s.seek(KeyValue.firstOnRow(Bytes.EMPTY));
      byte[] first = null;
      long n = 0;
      for (Cell c = s.next(); c != null; c = s.next()) {
        byte[] row = CellUtil.cloneRow(c);
        if (first == null) {
          first = row;
        }
        if (n++ >= half && !Bytes.equals(row, first)) {
          return row;
        }
      }
      return null;
    }
  }
}
