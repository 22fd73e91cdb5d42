package dev.basalt.bench.chaos;

/**
 * A set of 16-byte node keys held as pairs of longs in one open-addressed array: a soak writes
 * millions of nodes, and a {@code HashSet} of byte arrays would cost several times the memory. The
 * pair (0, 0) marks an empty slot, so it is not a valid key ({@link NodeKeys#random} never makes
 * it). Not thread-safe.
 */
final class KeySet {
  /** Each iteration step gets one key; see {@link #forEach}. */
  @FunctionalInterface
  interface KeyConsumer {
    void accept(long hi, long lo);
  }

  private long[] slots; // hi, lo, hi, lo, ...
  private int mask; // capacity - 1, in entries
  private int size;

  KeySet() {
    this(1024);
  }

  KeySet(int expected) {
    int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    slots = new long[capacity * 2];
    mask = capacity - 1;
  }

  /** Adds a key; false when it was there already. */
  boolean add(long hi, long lo) {
    checkKey(hi, lo);
    if ((size + 1) * 2 > mask + 1) {
      grow();
    }
    return insert(slots, mask, hi, lo);
  }

  boolean contains(long hi, long lo) {
    int i = index(hi, lo, mask);
    while (true) {
      long h = slots[2 * i];
      long l = slots[2 * i + 1];
      if (h == 0 && l == 0) {
        return false;
      }
      if (h == hi && l == lo) {
        return true;
      }
      i = (i + 1) & mask;
    }
  }

  int size() {
    return size;
  }

  void forEach(KeyConsumer c) {
    for (int i = 0; i <= mask; i++) {
      long h = slots[2 * i];
      long l = slots[2 * i + 1];
      if (h != 0 || l != 0) {
        c.accept(h, l);
      }
    }
  }

  /** Adds every key of {@code other}. */
  void addAll(KeySet other) {
    other.forEach(this::add);
  }

  private boolean insert(long[] into, int m, long hi, long lo) {
    int i = index(hi, lo, m);
    while (true) {
      long h = into[2 * i];
      long l = into[2 * i + 1];
      if (h == 0 && l == 0) {
        into[2 * i] = hi;
        into[2 * i + 1] = lo;
        if (into == slots) {
          size++;
        }
        return true;
      }
      if (h == hi && l == lo) {
        return false;
      }
      i = (i + 1) & m;
    }
  }

  private void grow() {
    long[] old = slots;
    int capacity = (mask + 1) * 2;
    long[] bigger = new long[capacity * 2];
    int m = capacity - 1;
    for (int i = 0; i < old.length; i += 2) {
      if (old[i] != 0 || old[i + 1] != 0) {
        insert(bigger, m, old[i], old[i + 1]);
      }
    }
    slots = bigger;
    mask = m;
  }

  private static int index(long hi, long lo, int m) {
    long h = hi * 0x9E3779B97F4A7C15L ^ lo * 0xC2B2AE3D27D4EB4FL;
    return (int) (h ^ (h >>> 32)) & m;
  }

  private static void checkKey(long hi, long lo) {
    if (hi == 0 && lo == 0) {
      throw new IllegalArgumentException("the all-zero key is reserved for empty slots");
    }
  }
}
