package dev.basalt.scan;

import java.util.Arrays;

/**
 * A growable list of longs reused across rows, so trackers do not allocate per cell. The array is
 * allocated on first use: most reads never need most lists.
 */
final class LongList {
  private static final long[] NONE = new long[0];
  private long[] values = NONE;
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
      grow();
    }
    values[size++] = v;
  }

  private void grow() {
    values = Arrays.copyOf(values, Math.max(8, size * 2));
  }

  /** Inserts keeping ascending order. */
  void insertSorted(long v) {
    int i = upperBound(v);
    if (size == values.length) {
      grow();
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
