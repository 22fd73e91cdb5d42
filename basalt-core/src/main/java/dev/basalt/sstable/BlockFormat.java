package dev.basalt.sstable;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.WritableFile;
import dev.basalt.schema.Compression;
import java.io.IOException;
import java.util.zip.CRC32C;

/**
 * The envelope of every block in a store file: a 10-byte header, the payload as stored, and a
 * CRC32C of both. Readers always know a block's stored size from the structure that points to it
 * (index entry or trailer), check it against the header and verify the checksum before looking at
 * the payload, so a damaged block is reported, never decoded.
 *
 * <pre>
 * offset  size  field
 * 0       1     block type: 1 data, 2 leaf index, 3 intermediate index, 4 root index, 5 bloom,
 *               6 file info
 * 1       1     compression: 0 NONE, 1 GZ, 2 LZ4, 3 SNAPPY, 4 ZSTD
 * 2       4     stored payload size C
 * 6       4     uncompressed payload size U (= C when NONE)
 * 10      C     payload
 * 10+C    4     CRC32C of bytes [0, 10+C)
 * </pre>
 *
 * Stateless.
 */
final class BlockFormat {
  static final int HEADER = 10;
  static final int OVERHEAD = HEADER + 4;

  static final byte DATA = 1;
  static final byte LEAF_INDEX = 2;
  static final byte INTERMEDIATE_INDEX = 3;
  static final byte ROOT_INDEX = 4;
  static final byte BLOOM = 5;
  static final byte FILE_INFO = 6;

  private BlockFormat() {}

  static String typeName(int type) {
    return switch (type) {
      case DATA -> "data block";
      case LEAF_INDEX -> "leaf index block";
      case INTERMEDIATE_INDEX -> "intermediate index block";
      case ROOT_INDEX -> "root index block";
      case BLOOM -> "bloom block";
      case FILE_INFO -> "file info block";
      default -> "block of type " + type;
    };
  }

  /**
   * Writes one block and returns its stored size (header, payload and checksum).
   *
   * @param stored the payload as stored: compressed with {@code compression}, or raw for NONE
   */
  static int write(
      WritableFile f,
      byte type,
      Compression compression,
      byte[] stored,
      int off,
      int len,
      int uncompressedLength)
      throws IOException {
    byte[] header = new byte[HEADER];
    header[0] = type;
    header[1] = (byte) Compressors.code(compression);
    Bytes.putInt(header, 2, len);
    Bytes.putInt(header, 6, uncompressedLength);
    CRC32C crc = new CRC32C();
    crc.update(header, 0, HEADER);
    crc.update(stored, off, len);
    byte[] sum = new byte[4];
    Bytes.putInt(sum, 0, (int) crc.getValue());
    f.write(header, 0, HEADER);
    f.write(stored, off, len);
    f.write(sum, 0, 4);
    return len + OVERHEAD;
  }

  /** An uncompressed payload: {@code length} bytes of {@code bytes} from {@code offset}. */
  record Payload(byte[] bytes, int offset, int length) {}

  /**
   * Verifies a block read whole into {@code buf} and returns its uncompressed payload (a view of
   * {@code buf} when the block is not compressed).
   *
   * @param fileOffset where the block starts in the file, for messages
   * @throws CorruptStoreFileException on a wrong type, size or checksum, or undecodable payload
   */
  static Payload open(
      byte[] buf, int off, int size, byte expectedType, String file, long fileOffset)
      throws CorruptStoreFileException {
    String what = typeName(expectedType);
    if (size < OVERHEAD) {
      throw new CorruptStoreFileException(
          file, fileOffset, what + " of " + size + " bytes is shorter than its envelope");
    }
    int stored = Bytes.readInt(buf, off + 2);
    CRC32C crc = new CRC32C();
    crc.update(buf, off, size - 4);
    int expectedCrc = Bytes.readInt(buf, off + size - 4);
    if ((int) crc.getValue() != expectedCrc) {
      throw new CorruptStoreFileException(file, fileOffset, what + ": checksum mismatch");
    }
    if (buf[off] != expectedType) {
      throw new CorruptStoreFileException(
          file, fileOffset, "expected a " + what + ", found a " + typeName(buf[off] & 0xFF));
    }
    if (stored != size - OVERHEAD) {
      throw new CorruptStoreFileException(
          file,
          fileOffset,
          what + ": header says " + stored + " stored bytes, the block has " + (size - OVERHEAD));
    }
    Compression c = Compressors.fromCode(buf[off + 1] & 0xFF);
    if (c == null) {
      throw new CorruptStoreFileException(
          file, fileOffset, what + ": unknown compression code " + (buf[off + 1] & 0xFF));
    }
    int uncompressed = Bytes.readInt(buf, off + 6);
    if (uncompressed < 0 || uncompressed > Integer.MAX_VALUE - 16) {
      throw new CorruptStoreFileException(
          file, fileOffset, what + ": uncompressed size " + uncompressed + " is impossible");
    }
    int p = off + HEADER;
    String problem = Compressors.checkSize(c, buf, p, stored, uncompressed);
    if (problem != null) {
      throw new CorruptStoreFileException(file, fileOffset, what + ": " + problem);
    }
    if (c == Compression.NONE) {
      return new Payload(buf, p, stored);
    }
    byte[] out = new byte[uncompressed];
    try {
      Compressors.decompress(c, buf, p, stored, out, 0, uncompressed);
    } catch (IllegalArgumentException e) {
      throw new CorruptStoreFileException(
          file, fileOffset, what + ": " + c + " payload does not decompress: " + e.getMessage(), e);
    }
    return new Payload(out, 0, uncompressed);
  }
}
