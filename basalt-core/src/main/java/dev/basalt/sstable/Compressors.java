package dev.basalt.sstable;

import dev.basalt.schema.Compression;
import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Block compression codes (part of the format) and decompression. GZ is a zlib stream from {@link
 * java.util.zip.Deflater} (HBase's GZ codec is also zlib-based); LZ4 is the raw LZ4 block format,
 * SNAPPY the raw Snappy format and ZSTD one Zstandard frame, all from aircompressor (pure Java).
 * Stateless; decompressors are created per call, which costs little next to reading a block.
 */
final class Compressors {
  private Compressors() {}

  /** The code stored in a block header. */
  static int code(Compression c) {
    return switch (c) {
      case NONE -> 0;
      case GZ -> 1;
      case LZ4 -> 2;
      case SNAPPY -> 3;
      case ZSTD -> 4;
    };
  }

  /** The compression with this code, or null when the code is unknown. */
  static Compression fromCode(int code) {
    return switch (code) {
      case 0 -> Compression.NONE;
      case 1 -> Compression.GZ;
      case 2 -> Compression.LZ4;
      case 3 -> Compression.SNAPPY;
      case 4 -> Compression.ZSTD;
      default -> null;
    };
  }

  /**
   * Null when {@code declared} uncompressed bytes are possible for these compressed bytes, else why
   * not. Checked before allocating the output, so that a damaged size cannot ask for gigabytes:
   * Snappy and Zstandard record the size themselves, LZ4 and deflate cannot expand more than about
   * 255 and 1032 times.
   */
  static String checkSize(Compression c, byte[] in, int off, int len, int declared) {
    try {
      switch (c) {
        case NONE:
          return declared == len ? null : "uncompressed size " + declared + " != stored " + len;
        case GZ:
          return declared <= 1100L * len + 1024 ? null : "impossible deflate ratio";
        case LZ4:
          return declared <= 256L * len + 64 ? null : "impossible LZ4 ratio";
        case SNAPPY:
          int s = SnappyDecompressor.getUncompressedLength(in, off);
          return s == declared ? null : "Snappy says " + s + " bytes, header says " + declared;
        case ZSTD:
          long z = ZstdDecompressor.getDecompressedSize(in, off, len);
          return z < 0 || z == declared
              ? null
              : "Zstandard says " + z + " bytes, header says " + declared;
        default:
          return "unknown compression";
      }
    } catch (RuntimeException e) {
      return "unreadable " + c + " data: " + e;
    }
  }

  /**
   * Decompresses exactly {@code outLen} bytes.
   *
   * @throws IllegalArgumentException when the input is malformed or yields another length
   */
  static void decompress(
      Compression c, byte[] in, int off, int len, byte[] out, int outOff, int outLen) {
    int n;
    switch (c) {
      case NONE:
        if (len != outLen) {
          throw new IllegalArgumentException("stored " + len + " bytes, expected " + outLen);
        }
        System.arraycopy(in, off, out, outOff, len);
        return;
      case GZ:
        n = inflate(in, off, len, out, outOff, outLen);
        break;
      case LZ4:
        n = run(new Lz4Decompressor(), in, off, len, out, outOff, outLen);
        break;
      case SNAPPY:
        n = run(new SnappyDecompressor(), in, off, len, out, outOff, outLen);
        break;
      case ZSTD:
        n = run(new ZstdDecompressor(), in, off, len, out, outOff, outLen);
        break;
      default:
        throw new IllegalArgumentException("unknown compression " + c);
    }
    if (n != outLen) {
      throw new IllegalArgumentException(c + " produced " + n + " bytes, expected " + outLen);
    }
  }

  private static int run(
      Decompressor d, byte[] in, int off, int len, byte[] out, int outOff, int outLen) {
    try {
      return d.decompress(in, off, len, out, outOff, outLen);
    } catch (RuntimeException e) {
      // MalformedInputException, or whatever else a decoder throws on bytes it did not expect.
      throw new IllegalArgumentException("malformed input: " + e, e);
    }
  }

  private static int inflate(byte[] in, int off, int len, byte[] out, int outOff, int outLen) {
    Inflater inf = new Inflater();
    try {
      inf.setInput(in, off, len);
      int n = 0;
      while (!inf.finished()) {
        int k = inf.inflate(out, outOff + n, outLen - n);
        n += k;
        if (k == 0 && (inf.needsInput() || inf.needsDictionary() || n == outLen)) {
          break;
        }
      }
      if (!inf.finished() || inf.getRemaining() != 0) {
        throw new IllegalArgumentException("deflate stream does not end where the block does");
      }
      return n;
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("malformed deflate stream: " + e.getMessage(), e);
    } finally {
      inf.end();
    }
  }
}
