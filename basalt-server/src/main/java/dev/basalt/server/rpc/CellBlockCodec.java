package dev.basalt.server.rpc;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.KeyValue;
import dev.basalt.util.BasaltIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The cell block codecs a connection header may name. A cell block is the cells of a request or
 * response outside protobuf, one entry after another:
 *
 * <pre>
 * offset  size  field
 * 0       4     L = length of the entry after this field (int32)
 * 4       8+K+V a KeyValue: key length K, value length V, key, value (docs/formats/keyvalue.md)
 * 12+K+V  2     T = tags length (uint16)   only KeyValueCodecWithTags, only when T > 0
 * 14+K+V  T     tags                       only KeyValueCodecWithTags, only when T > 0
 * </pre>
 *
 * {@code L = 8 + K + V} without tags, {@code 8 + K + V + 2 + T} with them. Basalt's {@link
 * KeyValue} has this layout, so an entry is its bytes behind a length. Decoded cells share the
 * block's array and have sequence id 0.
 *
 * <p>HBase's CellCodec / CellCodecWithTags (a different per-field layout) are not supported; the
 * connection is refused with UnsupportedCellCodecException.
 */
public enum CellBlockCodec {
  KEY_VALUE("org.apache.hadoop.hbase.codec.KeyValueCodec", false),
  KEY_VALUE_WITH_TAGS("org.apache.hadoop.hbase.codec.KeyValueCodecWithTags", true);

  private final String className;
  private final boolean tags;

  CellBlockCodec(String className, boolean tags) {
    this.className = className;
    this.tags = tags;
  }

  /** HBase's class name for this codec, as the connection header carries it. */
  public String className() {
    return className;
  }

  /** The codec a connection header names, or null when Basalt does not support it. */
  public static CellBlockCodec forClassName(String name) {
    for (CellBlockCodec c : values()) {
      if (c.className.equals(name)) {
        return c;
      }
    }
    return null;
  }

  /**
   * Encodes cells into a new block. Tags of {@link TaggedCell}s are written only by the tag codec;
   * the plain codec drops them, as HBase's does.
   *
   * @throws IllegalArgumentException when the block would exceed the largest Java array
   */
  public byte[] encode(List<? extends Cell> cells) {
    byte[] out = new byte[encodedLength(cells)];
    encodeInto(cells, out, 0);
    return out;
  }

  /**
   * The size of the block {@link #encodeInto} writes, so that a caller can place it inside a larger
   * array (a response frame) instead of copying a block built on its own.
   *
   * @throws IllegalArgumentException when the block would exceed the largest Java array
   */
  public int encodedLength(List<? extends Cell> cells) {
    long total = 0;
    for (int i = 0, n = cells.size(); i < n; i++) { // replies hold random-access lists
      total += 4 + entryLength(cells.get(i));
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException(
          "cell block of " + cells.size() + " cells would be " + total + " bytes");
    }
    return (int) total;
  }

  /**
   * Writes the block at {@code out[offset]}, which must have {@link #encodedLength} bytes of room.
   *
   * @return the offset after the block
   */
  public int encodeInto(List<? extends Cell> cells, byte[] out, int offset) {
    ByteBuffer b = ByteBuffer.wrap(out);
    b.position(offset);
    encodeInto(cells, b);
    return b.position();
  }

  /**
   * Writes the block at the buffer's position (big-endian), which must have {@link #encodedLength}
   * bytes of room, and moves the position past it.
   */
  public void encodeInto(List<? extends Cell> cells, ByteBuffer out) {
    for (int i = 0, n = cells.size(); i < n; i++) {
      Cell c = cells.get(i);
      KeyValue kv = keyValueOf(c);
      int tagsLength = tagsWritten(c);
      out.putInt(entryLength(c));
      out.put(kv.getBuffer(), kv.getOffset(), kv.getLength());
      if (tagsLength > 0) {
        TaggedCell t = (TaggedCell) c;
        out.putShort((short) tagsLength);
        out.put(t.getTagsArray(), t.getTagsOffset(), tagsLength);
      }
    }
  }

  private int entryLength(Cell c) {
    int tagsLength = tagsWritten(c);
    int kvLength =
        c instanceof KeyValue kv
            ? kv.getLength()
            : c instanceof TaggedCell t
                ? t.keyValue().getLength()
                : KeyValue.ROW_OFFSET
                    + KeyValue.KEY_INFRASTRUCTURE_SIZE
                    + c.getRowLength()
                    + c.getFamilyLength()
                    + c.getQualifierLength()
                    + c.getValueLength();
    return tagsLength > 0 ? kvLength + 2 + tagsLength : kvLength;
  }

  private int tagsWritten(Cell c) {
    return tags && c instanceof TaggedCell t ? t.getTagsLength() : 0;
  }

  private static KeyValue keyValueOf(Cell c) {
    if (c instanceof TaggedCell t) {
      return t.keyValue();
    }
    return KeyValue.copyOf(c);
  }

  /**
   * Decodes a whole block.
   *
   * @throws BasaltIOException (DoNotRetryIOException) naming the offset and what is wrong there
   */
  public List<Cell> decode(byte[] block, int offset, int length) throws BasaltIOException {
    List<Cell> cells = new ArrayList<>();
    int end = offset + length;
    int p = offset;
    while (p < end) {
      int at = p - offset;
      if (end - p < 4) {
        throw bad(at, "only " + (end - p) + " bytes left, a cell starts with a 4-byte length");
      }
      int entry = Bytes.readInt(block, p);
      p += 4;
      if (entry < 0 || entry > end - p) {
        throw bad(at, "cell length " + entry + " but " + (end - p) + " bytes left in the block");
      }
      cells.add(decodeEntry(block, p, entry, at));
      p += entry;
    }
    return cells;
  }

  private Cell decodeEntry(byte[] b, int p, int entry, int at) throws BasaltIOException {
    if (entry < KeyValue.ROW_OFFSET + KeyValue.KEY_INFRASTRUCTURE_SIZE) {
      throw bad(at, "cell length " + entry + " is shorter than the smallest KeyValue (20 bytes)");
    }
    long kvLength = KeyValue.ROW_OFFSET + (long) Bytes.readInt(b, p) + Bytes.readInt(b, p + 4);
    int tagsLength = 0;
    if (kvLength != entry) {
      if (!tags) {
        throw bad(
            at,
            "cell length "
                + entry
                + " does not match its key and value ("
                + kvLength
                + " bytes); "
                + className
                + " carries no tags");
      }
      if (kvLength < 0 || kvLength + 2 > entry) {
        throw bad(at, "cell length " + entry + " is shorter than its key and value " + kvLength);
      }
      tagsLength = ((b[p + (int) kvLength] & 0xff) << 8) | (b[p + (int) kvLength + 1] & 0xff);
      if (kvLength + 2 + tagsLength != entry) {
        throw bad(
            at,
            "cell length "
                + entry
                + " does not match key and value "
                + kvLength
                + " + 2 + tags "
                + tagsLength);
      }
    }
    KeyValue kv;
    try {
      kv = KeyValue.parse(b, p, (int) kvLength, 0);
    } catch (IllegalArgumentException e) {
      throw bad(at, e.getMessage());
    }
    if (tagsLength == 0) {
      return kv;
    }
    int tagsStart = p + (int) kvLength + 2;
    checkTags(b, tagsStart, tagsLength, at);
    return new TaggedCell(kv, b, tagsStart, tagsLength);
  }

  /** Tags are {@code [uint16 len][type][len - 1 bytes]}; len counts the type byte, so >= 1. */
  private static void checkTags(byte[] b, int start, int length, int at) throws BasaltIOException {
    int p = start;
    int end = start + length;
    while (p < end) {
      if (end - p < 3) {
        throw bad(at, "tag at tags offset " + (p - start) + " is cut short");
      }
      int tagLength = ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
      if (tagLength < 1 || tagLength > end - p - 2) {
        throw bad(
            at,
            "tag at tags offset "
                + (p - start)
                + " claims "
                + tagLength
                + " bytes, "
                + (end - p - 2)
                + " left");
      }
      p += 2 + tagLength;
    }
  }

  private static BasaltIOException bad(int at, String what) {
    return BasaltIOException.doNotRetry("malformed cell block at byte " + at + ": " + what);
  }
}
