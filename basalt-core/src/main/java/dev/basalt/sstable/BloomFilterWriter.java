package dev.basalt.sstable;

import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.schema.BloomType;
import java.util.Arrays;

/**
 * Collects the bloom keys of the cells appended to a file and builds the filter at the end, when
 * the number of keys (and so the filter's size) is known. Keeps one 8-byte hash per key; a key
 * equal to the previous cell's is not added again (cells arrive sorted, so that removes every
 * duplicate within a family). Not thread-safe.
 */
final class BloomFilterWriter {
  private final BloomType type;
  private long[] hashes = new long[1024];
  private int count;
  private final byte[][] scratch = new byte[1][];
  private boolean familyDeleteAddedForRow;

  BloomFilterWriter(BloomType type) {
    this.type = type;
  }

  /** Adds the keys of {@code kv}, which follows {@code prev} (null for the first cell). */
  void add(KeyValue kv, KeyValue prev) {
    if (type == BloomType.NONE) {
      return;
    }
    byte[] b = kv.getBuffer();
    int roff = kv.getRowOffset();
    int rlen = kv.getRowLength();
    boolean newRow =
        prev == null
            || !Arrays.equals(
                b,
                roff,
                roff + rlen,
                prev.getBuffer(),
                prev.getRowOffset(),
                prev.getRowOffset() + prev.getRowLength());
    if (type == BloomType.ROW) {
      if (newRow) {
        push(BloomKeys.rowHash(b, roff, rlen));
      }
      return;
    }
    if (newRow) {
      familyDeleteAddedForRow = false;
    }
    int qoff = kv.getQualifierOffset();
    int qlen = kv.getQualifierLength();
    boolean newColumn =
        newRow
            || !Arrays.equals(
                b,
                qoff,
                qoff + qlen,
                prev.getBuffer(),
                prev.getQualifierOffset(),
                prev.getQualifierOffset() + prev.getQualifierLength());
    if (newColumn) {
      push(BloomKeys.columnHash(b, roff, rlen, b, qoff, qlen, scratch));
    }
    byte t = kv.getTypeByte();
    boolean familyDelete =
        t == CellType.DELETE_FAMILY.code() || t == CellType.DELETE_FAMILY_VERSION.code();
    if (familyDelete && !familyDeleteAddedForRow) {
      push(BloomKeys.familyDeleteHash(b, roff, rlen, scratch));
      familyDeleteAddedForRow = true;
    }
  }

  private void push(long h) {
    if (count == hashes.length) {
      hashes = Arrays.copyOf(hashes, count * 2);
    }
    hashes[count++] = h;
  }

  /** The filter, or null when the bloom type is NONE. */
  BloomFilter build() {
    return type == BloomType.NONE ? null : BloomFilter.build(hashes, count);
  }
}
