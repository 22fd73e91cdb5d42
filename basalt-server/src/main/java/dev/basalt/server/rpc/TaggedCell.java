package dev.basalt.server.rpc;

import dev.basalt.cell.Cell;
import dev.basalt.cell.KeyValue;
import java.util.Arrays;

/**
 * A cell that arrived with tags (HBase's per-cell metadata: ACLs, visibility labels, TTLs) through
 * {@code KeyValueCodecWithTags}. The engine's cells have no tags, so the tags ride beside the
 * KeyValue here and are written back only by the tag-carrying codec. Tag bytes are kept exactly as
 * received: repeated {@code [uint16 length][1 byte type][length - 1 bytes value]}.
 *
 * <p>Immutable; the arrays are owned by this instance and must not be modified.
 */
public final class TaggedCell implements Cell {
  /** Tags are preceded by an unsigned 16-bit length in a KeyValue. */
  public static final int MAX_TAGS_LENGTH = 0xffff;

  private final KeyValue kv;
  private final byte[] tags;
  private final int tagsOffset;
  private final int tagsLength;

  /**
   * @param kv the cell without its tags
   * @param tags backing array of the tag bytes, not copied
   */
  public TaggedCell(KeyValue kv, byte[] tags, int tagsOffset, int tagsLength) {
    if (tagsLength < 0 || tagsLength > MAX_TAGS_LENGTH) {
      throw new IllegalArgumentException(
          "tags length " + tagsLength + " is outside 0.." + MAX_TAGS_LENGTH);
    }
    this.kv = kv;
    this.tags = tags;
    this.tagsOffset = tagsOffset;
    this.tagsLength = tagsLength;
  }

  /** The cell without its tags. */
  public KeyValue keyValue() {
    return kv;
  }

  public byte[] getTagsArray() {
    return tags;
  }

  public int getTagsOffset() {
    return tagsOffset;
  }

  public int getTagsLength() {
    return tagsLength;
  }

  /** A copy of the tag bytes. */
  public byte[] tags() {
    return Arrays.copyOfRange(tags, tagsOffset, tagsOffset + tagsLength);
  }

  @Override
  public byte[] getRowArray() {
    return kv.getRowArray();
  }

  @Override
  public int getRowOffset() {
    return kv.getRowOffset();
  }

  @Override
  public short getRowLength() {
    return kv.getRowLength();
  }

  @Override
  public byte[] getFamilyArray() {
    return kv.getFamilyArray();
  }

  @Override
  public int getFamilyOffset() {
    return kv.getFamilyOffset();
  }

  @Override
  public byte getFamilyLength() {
    return kv.getFamilyLength();
  }

  @Override
  public byte[] getQualifierArray() {
    return kv.getQualifierArray();
  }

  @Override
  public int getQualifierOffset() {
    return kv.getQualifierOffset();
  }

  @Override
  public int getQualifierLength() {
    return kv.getQualifierLength();
  }

  @Override
  public long getTimestamp() {
    return kv.getTimestamp();
  }

  @Override
  public byte getTypeByte() {
    return kv.getTypeByte();
  }

  @Override
  public long getSequenceId() {
    return kv.getSequenceId();
  }

  @Override
  public byte[] getValueArray() {
    return kv.getValueArray();
  }

  @Override
  public int getValueOffset() {
    return kv.getValueOffset();
  }

  @Override
  public int getValueLength() {
    return kv.getValueLength();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaggedCell t
        && kv.equals(t.kv)
        && Arrays.equals(
            tags,
            tagsOffset,
            tagsOffset + tagsLength,
            t.tags,
            t.tagsOffset,
            t.tagsOffset + t.tagsLength);
  }

  @Override
  public int hashCode() {
    return kv.hashCode() * 31 + Arrays.hashCode(tags());
  }

  @Override
  public String toString() {
    return kv + "/tags=" + tagsLength + "B";
  }
}
