package dev.basalt.sstable;

import dev.basalt.cell.Bytes;
import java.util.zip.CRC32C;

/**
 * The fixed-size end of a store file: where the index, bloom filter and file info are, and how many
 * data blocks precede them. Everything a reader needs before its first data block lies between the
 * meta section offset and the trailer, so it is read with one request.
 *
 * <pre>
 * offset size field
 * 0      4    magic "BSTT" (0x42535454)
 * 4      4    format version (2; files of version 1 are still read)
 * 8      8    meta section offset M: end of the data blocks, start of the index blocks
 * 16     8    root index block offset
 * 24     4    root index block stored size
 * 28     4    index levels L (1: the root points at data blocks; 2: root, leaves, data; ...)
 * 32     8    file info block offset
 * 40     4    file info block stored size
 * 44     4    bloom block stored size (0: no bloom filter)
 * 48     8    bloom block offset (0: no bloom filter)
 * 56     8    data block count
 * 64     4    CRC32C of bytes [0, 64)
 * </pre>
 */
record StoreFileTrailer(
    int formatVersion,
    long metaOffset,
    long rootIndexOffset,
    int rootIndexSize,
    int indexLevels,
    long fileInfoOffset,
    int fileInfoSize,
    long bloomOffset,
    int bloomSize,
    long dataBlockCount) {

  static final int SIZE = 68;
  static final int MAGIC = 0x42535454; // "BSTT"
  static final int MAX_INDEX_LEVELS = 16;

  /** The file header: magic "BSTF" and the format version, 8 bytes. */
  static final int HEADER_MAGIC = 0x42535446; // "BSTF"

  static final int HEADER_SIZE = 8;

  /**
   * The version written. Version 2 added per-cell TTLs to data block entries (see {@link
   * DataBlockEncoder}); everything else is as in version 1, which is still read.
   */
  static final int FORMAT_VERSION = 2;

  static final int OLDEST_READ_VERSION = 1;

  static byte[] header() {
    byte[] h = new byte[HEADER_SIZE];
    Bytes.putInt(h, 0, HEADER_MAGIC);
    Bytes.putInt(h, 4, FORMAT_VERSION);
    return h;
  }

  /** Checks the header of a file whose trailer says {@code version}: the two must agree. */
  static void checkHeader(byte[] h, int version, String file) throws CorruptStoreFileException {
    if (Bytes.readInt(h, 0) != HEADER_MAGIC) {
      throw new CorruptStoreFileException(file, 0, "no store file magic at the start");
    }
    int v = Bytes.readInt(h, 4);
    if (v != version) {
      throw new CorruptStoreFileException(
          file, 0, "header says format version " + v + ", the trailer " + version);
    }
  }

  byte[] encode() {
    byte[] b = new byte[SIZE];
    int p = Bytes.putInt(b, 0, MAGIC);
    p = Bytes.putInt(b, p, formatVersion);
    p = Bytes.putLong(b, p, metaOffset);
    p = Bytes.putLong(b, p, rootIndexOffset);
    p = Bytes.putInt(b, p, rootIndexSize);
    p = Bytes.putInt(b, p, indexLevels);
    p = Bytes.putLong(b, p, fileInfoOffset);
    p = Bytes.putInt(b, p, fileInfoSize);
    p = Bytes.putInt(b, p, bloomSize);
    p = Bytes.putLong(b, p, bloomOffset);
    p = Bytes.putLong(b, p, dataBlockCount);
    Bytes.putInt(b, p, crc(b));
    return b;
  }

  private static int crc(byte[] b) {
    CRC32C c = new CRC32C();
    c.update(b, 0, SIZE - 4);
    return (int) c.getValue();
  }

  /**
   * Decodes and checks the trailer read from the last {@link #SIZE} bytes of a file of {@code
   * fileLength} bytes.
   */
  static StoreFileTrailer decode(byte[] b, long fileLength, String file)
      throws CorruptStoreFileException {
    long at = fileLength - SIZE;
    if (Bytes.readInt(b, 0) != MAGIC) {
      throw new CorruptStoreFileException(
          file, at, "no trailer magic at the end of the file: truncated, or not a store file");
    }
    if (Bytes.readInt(b, SIZE - 4) != crc(b)) {
      throw new CorruptStoreFileException(file, at, "trailer checksum mismatch");
    }
    int version = Bytes.readInt(b, 4);
    if (version < OLDEST_READ_VERSION || version > FORMAT_VERSION) {
      throw new CorruptStoreFileException(file, at, "unsupported format version " + version);
    }
    StoreFileTrailer t =
        new StoreFileTrailer(
            version,
            Bytes.readLong(b, 8),
            Bytes.readLong(b, 16),
            Bytes.readInt(b, 24),
            Bytes.readInt(b, 28),
            Bytes.readLong(b, 32),
            Bytes.readInt(b, 40),
            Bytes.readLong(b, 48),
            Bytes.readInt(b, 44),
            Bytes.readLong(b, 56));
    String problem = t.check(at);
    if (problem != null) {
      throw new CorruptStoreFileException(file, at, "trailer: " + problem);
    }
    return t;
  }

  /** Null when every position lies where the format puts it in a file whose trailer is at end. */
  private String check(long end) {
    if (metaOffset < HEADER_SIZE || metaOffset > end) {
      return "meta section offset " + metaOffset + " outside [" + HEADER_SIZE + ", " + end + "]";
    }
    if (end - metaOffset > Integer.MAX_VALUE - 16) {
      return "meta section of " + (end - metaOffset) + " bytes is too large";
    }
    if (!inMeta(rootIndexOffset, rootIndexSize, end)) {
      return "root index block [" + rootIndexOffset + " +" + rootIndexSize + ") misplaced";
    }
    if (!inMeta(fileInfoOffset, fileInfoSize, end)) {
      return "file info block [" + fileInfoOffset + " +" + fileInfoSize + ") misplaced";
    }
    if (!(bloomSize == 0 && bloomOffset == 0) && !inMeta(bloomOffset, bloomSize, end)) {
      return "bloom block [" + bloomOffset + " +" + bloomSize + ") misplaced";
    }
    if (indexLevels < 1 || indexLevels > MAX_INDEX_LEVELS) {
      return "index levels " + indexLevels + " outside 1.." + MAX_INDEX_LEVELS;
    }
    if (dataBlockCount < 0 || dataBlockCount > (metaOffset - HEADER_SIZE) / BlockFormat.OVERHEAD) {
      return "data block count " + dataBlockCount + " impossible before offset " + metaOffset;
    }
    return null;
  }

  private boolean inMeta(long offset, int size, long end) {
    return offset >= metaOffset && size >= BlockFormat.OVERHEAD && offset <= end - size;
  }
}
