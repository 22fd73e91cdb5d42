package dev.basalt.server.replication;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.KeyValue;
import dev.basalt.server.rpc.TaggedCell;

/**
 * A cell's per-cell TTL as it travels between clusters: HBase keeps it as a tag of type 8 ({@code
 * TagType.TTL_TAG_TYPE}, an 8-byte millisecond value) and ships tags with KeyValueCodecWithTags;
 * Basalt keeps it beside the cell. Stateless.
 */
final class CellTtlTag {
  /** HBase's {@code TagType.TTL_TAG_TYPE}. */
  static final byte TTL_TAG_TYPE = 8;

  private CellTtlTag() {}

  /** The cell to ship: with a TTL tag when it has a per-cell TTL. */
  static Cell withTag(KeyValue kv) {
    long ttl = kv.getTtl();
    if (ttl == KeyValue.NO_TTL) {
      return kv;
    }
    byte[] tag = new byte[2 + 1 + 8];
    Bytes.putShort(tag, 0, (short) 9);
    tag[2] = TTL_TAG_TYPE;
    Bytes.putLong(tag, 3, ttl);
    return new TaggedCell(kv.withTtl(KeyValue.NO_TTL), tag, 0, tag.length);
  }

  /** The TTL a received cell's tags carry, or {@link KeyValue#NO_TTL}. */
  static long ttlOf(Cell c) {
    if (!(c instanceof TaggedCell t)) {
      return KeyValue.NO_TTL;
    }
    byte[] b = t.getTagsArray();
    int p = t.getTagsOffset();
    int end = p + t.getTagsLength();
    while (p + 3 <= end) {
      int len = ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
      if (len < 1 || p + 2 + len > end) {
        return KeyValue.NO_TTL; // malformed: the codec checked them, so not reached
      }
      if (b[p + 2] == TTL_TAG_TYPE && len == 9) {
        return Bytes.readLong(b, p + 3);
      }
      p += 2 + len;
    }
    return KeyValue.NO_TTL;
  }

  /** The cell without its tags (the engine's cells carry none). */
  static Cell withoutTags(Cell c) {
    return c instanceof TaggedCell t ? t.keyValue() : c;
  }
}
