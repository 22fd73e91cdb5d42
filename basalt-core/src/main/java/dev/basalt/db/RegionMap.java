package dev.basalt.db;

import dev.basalt.cell.Bytes;
import java.util.ArrayList;
import java.util.List;

/**
 * The open regions of a table, sorted by start key, covering every row exactly once: finds the
 * region of a row, and the regions a row range touches. Immutable (a table change builds a new
 * map).
 */
final class RegionMap {
  static final RegionMap EMPTY = new RegionMap(List.of());

  private final ServedRegion[] regions;
  private final byte[][] starts;

  /**
   * @param regions sorted by start key and contiguous (the caller built them from a {@link
   *     RegionSet})
   */
  RegionMap(List<ServedRegion> regions) {
    this.regions = regions.toArray(new ServedRegion[0]);
    this.starts = new byte[this.regions.length][];
    for (int i = 0; i < this.regions.length; i++) {
      starts[i] = this.regions[i].info().getStartKey();
    }
  }

  List<ServedRegion> all() {
    return List.of(regions);
  }

  boolean isEmpty() {
    return regions.length == 0;
  }

  int size() {
    return regions.length;
  }

  /** Index of the region holding {@code row}: the last whose start key is at or before it. */
  private int indexOf(byte[] row) {
    return indexOf(row, 0, row.length);
  }

  /** {@link #indexOf(byte[])} for the row held in {@code b[offset, offset + length)}. */
  private int indexOf(byte[] b, int offset, int length) {
    int lo = 0;
    int hi = regions.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (Bytes.compareTo(starts[mid], 0, starts[mid].length, b, offset, length) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** The region holding {@code row}. */
  ServedRegion locate(byte[] row) {
    return regions[indexOf(row)];
  }

  /** The region holding the row in {@code b[offset, offset + length)} (part of a region name). */
  ServedRegion locate(byte[] b, int offset, int length) {
    return regions[indexOf(b, offset, length)];
  }

  /** The region holding the highest row below {@code key}, or null when {@code key} is empty. */
  ServedRegion locateBefore(byte[] key) {
    if (key.length == 0) {
      return null;
    }
    int i = indexOf(key);
    if (Bytes.compareTo(starts[i], key) == 0) {
      i--;
    }
    return i < 0 ? null : regions[i];
  }

  ServedRegion last() {
    return regions[regions.length - 1];
  }

  /**
   * The regions holding rows in {@code [low, high]} (an empty bound is unbounded; both inclusive,
   * which may include one region more than needed at an exclusive bound), in key order.
   */
  List<ServedRegion> overlapping(byte[] low, byte[] high) {
    int from = low.length == 0 ? 0 : indexOf(low);
    int to = high.length == 0 ? regions.length - 1 : indexOf(high);
    List<ServedRegion> out = new ArrayList<>(Math.max(0, to - from + 1));
    for (int i = from; i <= to; i++) {
      out.add(regions[i]);
    }
    return out;
  }
}
