package dev.basalt.scan;

import java.util.Arrays;

/** A growable list of longs reused across rows, so trackers do not allocate per cell. */
final class LongList {
  private long[] values = new long[8];
  private int size;

  void clear() {
    size = 0;
  }

  int size() {
    return size;
  }

  long get(int i) {
    return values[i];
  }

  void add(long v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  /** Inserts keeping ascending order. */
  void insertSorted(long v) {
    int i = upperBound(v);
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    System.arraycopy(values, i, values, i + 1, size - i);
    values[i] = v;
    size++;
  }

  /** In a sorted list: the number of values &lt;= v. */
  int upperBound(long v) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (values[mid] <= v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  boolean contains(long v) {
    for (int i = 0; i < size; i++) {
      if (values[i] == v) {
        return true;
      }
    }
    return false;
  }
}
