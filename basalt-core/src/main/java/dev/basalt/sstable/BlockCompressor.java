package dev.basalt.sstable;

import dev.basalt.schema.Compression;
import io.airlift.compress.Compressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import java.util.zip.Deflater;

/**
 * Compresses the blocks of one file being written, reusing its codec state and output buffer. A
 * block that does not get smaller is stored uncompressed (its header then says NONE), which keeps
 * incompressible data from costing CPU on every read. Not thread-safe; {@link #close} frees the
 * native deflater.
 */
final class BlockCompressor implements AutoCloseable {
  private final Compression type;
  private final Compressor air;
  private final Deflater deflater;
  private byte[] out = new byte[0];

  BlockCompressor(Compression type) {
    this.type = type;
    this.air =
        switch (type) {
          case LZ4 -> new Lz4Compressor();
          case SNAPPY -> new SnappyCompressor();
          case ZSTD -> new ZstdCompressor();
          default -> null;
        };
    this.deflater = type == Compression.GZ ? new Deflater() : null;
  }

  /**
   * Compresses {@code len} bytes into {@link #output()}; returns the compressed length, or -1 when
   * the block should be stored as it is (no compression configured, or it would not shrink).
   */
  int compress(byte[] in, int off, int len) {
    if (type == Compression.NONE || len == 0) {
      return -1;
    }
    int n;
    if (deflater != null) {
      if (out.length < len) {
        out = new byte[len];
      }
      deflater.reset();
      deflater.setInput(in, off, len);
      deflater.finish();
      n = 0;
      while (!deflater.finished() && n < len) {
        n += deflater.deflate(out, n, len - n);
      }
      if (!deflater.finished()) {
        return -1;
      }
    } else {
      int max = air.maxCompressedLength(len);
      if (out.length < max) {
        out = new byte[max];
      }
      n = air.compress(in, off, len, out, 0, out.length);
    }
    return n < len ? n : -1;
  }

  byte[] output() {
    return out;
  }

  @Override
  public void close() {
    if (deflater != null) {
      deflater.end();
    }
  }
}
