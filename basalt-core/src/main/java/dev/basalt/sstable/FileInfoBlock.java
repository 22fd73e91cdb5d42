package dev.basalt.sstable;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;

/**
 * The file info block: what a file holds, written last and read when it opens. Stored uncompressed.
 *
 * <pre>
 * offset size field
 * 0      8    creation time, ms since the epoch
 * 8      8    min timestamp of the cells (Long.MAX_VALUE when there are none)
 * 16     8    max timestamp of the cells (Long.MIN_VALUE when there are none)
 * 24     8    max sequence id (given by the writer's caller; at least every cell's)
 * 32     8    cell count
 * 40     8    delete marker count (all four delete types)
 * 48     8    family delete marker count (DeleteFamily and DeleteFamilyVersion)
 * 56     4    block size the file was written with
 * 60     1    compression code of the data blocks (see BlockFormat)
 * 61     1    bloom type: 0 NONE, 1 ROW, 2 ROWCOL
 * 62     1    flags: bit 0 = written by a major compaction; other bits 0
 * 63     4    first key length K1 (0 when the file has no cells)
 * 67     K1   first cell's key (KeyValue key layout)
 *        8    first cell's sequence id
 *        4    last key length K2 (0 when the file has no cells)
 *        K2   last cell's key
 *        8    last cell's sequence id
 *        2    count C of files this one replaced (a compaction's inputs)
 *        C x  (2-byte length, UTF-8 file name)
 * </pre>
 *
 * @param firstKey the first cell, key only (empty value), or null in a file without cells
 * @param lastKey the last cell, key only, or null in a file without cells
 * @param compactedFrom names of the files a compaction replaced with this one (so that a crash
 *     before they are removed can be finished when the store opens)
 */
record FileInfoBlock(
    long creationTime,
    long minTimestamp,
    long maxTimestamp,
    long maxSequenceId,
    long cellCount,
    long deleteMarkerCount,
    long deleteFamilyMarkerCount,
    int blockSize,
    Compression compression,
    BloomType bloomType,
    boolean majorCompacted,
    KeyValue firstKey,
    KeyValue lastKey,
    java.util.List<String> compactedFrom) {

  private static final String WHAT = "file info block";

  static int bloomCode(BloomType t) {
    return switch (t) {
      case NONE -> 0;
      case ROW -> 1;
      case ROWCOL -> 2;
    };
  }

  static BloomType bloomFromCode(int code) {
    return switch (code) {
      case 0 -> BloomType.NONE;
      case 1 -> BloomType.ROW;
      case 2 -> BloomType.ROWCOL;
      default -> null;
    };
  }

  void encode(ByteSink out) {
    out.putLong(creationTime);
    out.putLong(minTimestamp);
    out.putLong(maxTimestamp);
    out.putLong(maxSequenceId);
    out.putLong(cellCount);
    out.putLong(deleteMarkerCount);
    out.putLong(deleteFamilyMarkerCount);
    out.putInt(blockSize);
    out.putByte(Compressors.code(compression));
    out.putByte(bloomCode(bloomType));
    out.putByte(majorCompacted ? 1 : 0);
    putKey(out, firstKey);
    putKey(out, lastKey);
    out.putShort(compactedFrom.size());
    for (String name : compactedFrom) {
      byte[] b = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      out.putShort(b.length);
      out.put(b, 0, b.length);
    }
  }

  private static void putKey(ByteSink out, KeyValue kv) {
    if (kv == null) {
      out.putInt(0);
      out.putLong(0);
      return;
    }
    out.putInt(kv.keyLength());
    out.put(kv.getBuffer(), kv.keyOffset(), kv.keyLength());
    out.putLong(kv.getSequenceId());
  }

  static FileInfoBlock decode(ByteReader in) throws CorruptStoreFileException {
    long creationTime = in.readLong("creation time");
    long minTs = in.readLong("min timestamp");
    long maxTs = in.readLong("max timestamp");
    long maxSeq = in.readLong("max sequence id");
    long cells = in.readLong("cell count");
    long deletes = in.readLong("delete marker count");
    long familyDeletes = in.readLong("family delete marker count");
    int blockSize = in.readInt("block size");
    int cc = in.readByte("compression");
    Compression compression = Compressors.fromCode(cc);
    int bc = in.readByte("bloom type");
    BloomType bloom = bloomFromCode(bc);
    int flags = in.readByte("flags");
    KeyValue first = readKey(in, "first key");
    KeyValue last = readKey(in, "last key");
    int replaced = in.readShort("compacted-from count");
    java.util.List<String> compactedFrom = new java.util.ArrayList<>(replaced);
    for (int i = 0; i < replaced; i++) {
      int len = in.readShort("compacted-from name length");
      compactedFrom.add(
          new String(
              in.readBytes(len, "compacted-from name"), java.nio.charset.StandardCharsets.UTF_8));
    }
    if (compression == null) {
      throw in.corrupt("unknown compression code " + cc);
    }
    if (bloom == null) {
      throw in.corrupt("unknown bloom type code " + bc);
    }
    if ((flags & ~1) != 0) {
      throw in.corrupt("unknown flags " + flags);
    }
    if (cells < 0
        || deletes < 0
        || deletes > cells
        || familyDeletes < 0
        || familyDeletes > deletes) {
      throw in.corrupt(
          "impossible counts: "
              + cells
              + " cells, "
              + deletes
              + " deletes, "
              + familyDeletes
              + " family deletes");
    }
    if ((cells == 0) != (first == null) || (first == null) != (last == null)) {
      throw in.corrupt(cells + " cells but first/last keys " + first + "/" + last);
    }
    if (blockSize < 1) {
      throw in.corrupt("block size " + blockSize);
    }
    if (in.remaining() != 0) {
      throw in.corrupt(in.remaining() + " bytes after the last field");
    }
    return new FileInfoBlock(
        creationTime,
        minTs,
        maxTs,
        maxSeq,
        cells,
        deletes,
        familyDeletes,
        blockSize,
        compression,
        bloom,
        flags == 1,
        first,
        last,
        java.util.List.copyOf(compactedFrom));
  }

  /** A key-only copy of a cell (empty value), as the file info stores first and last keys. */
  static KeyValue keyOnly(KeyValue c) {
    int len = c.keyLength();
    byte[] kv = new byte[KeyValue.ROW_OFFSET + len];
    Bytes.putInt(kv, 0, len);
    System.arraycopy(c.getBuffer(), c.keyOffset(), kv, KeyValue.ROW_OFFSET, len);
    return new KeyValue(kv, 0, kv.length, c.getSequenceId());
  }

  private static KeyValue readKey(ByteReader in, String what) throws CorruptStoreFileException {
    int len = in.readInt(what + " length");
    if (len == 0) {
      in.readLong(what + " sequence id");
      return null;
    }
    int at = in.skip(len, what);
    long seq = in.readLong(what + " sequence id");
    String bad = KeyBytes.validate(in.array(), at, len);
    if (bad != null) {
      throw in.corrupt(what + ": " + bad);
    }
    byte[] kv = new byte[KeyValue.ROW_OFFSET + len];
    Bytes.putInt(kv, 0, len);
    Bytes.putInt(kv, 4, 0);
    System.arraycopy(in.array(), at, kv, KeyValue.ROW_OFFSET, len);
    return new KeyValue(kv, 0, kv.length, seq);
  }
}
