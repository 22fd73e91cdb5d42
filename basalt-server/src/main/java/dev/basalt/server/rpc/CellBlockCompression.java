package dev.basalt.server.rpc;

import dev.basalt.util.BasaltIOException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * Cell block compression named by {@code ConnectionHeader.cell_block_compressor_class} (a Hadoop
 * CompressionCodec class). The whole cell block is compressed, in both directions, and {@code
 * CellBlockMeta.length} is the compressed length. Supported are the two codecs whose stream format
 * is a standard one that the JDK reads and writes:
 *
 * <pre>
 * class                                       stream
 * org.apache.hadoop.io.compress.GzipCodec     gzip (RFC 1952), members may be concatenated
 * org.apache.hadoop.io.compress.DefaultCodec  zlib (RFC 1950)
 * org.apache.hadoop.io.compress.DeflateCodec  zlib (RFC 1950), DefaultCodec's alias
 * </pre>
 *
 * Hadoop's SnappyCodec, Lz4Codec, ZStandardCodec and BZip2Codec use Hadoop's own block framing and
 * are refused with UnsupportedCompressionCodecException.
 */
enum CellBlockCompression {
  GZIP("org.apache.hadoop.io.compress.GzipCodec"),
  ZLIB("org.apache.hadoop.io.compress.DefaultCodec"),
  ZLIB_DEFLATE("org.apache.hadoop.io.compress.DeflateCodec");

  private final String className;

  CellBlockCompression(String className) {
    this.className = className;
  }

  String className() {
    return className;
  }

  /** The compression a connection header names, or null when Basalt does not support it. */
  static CellBlockCompression forClassName(String name) {
    for (CellBlockCompression c : values()) {
      if (c.className.equals(name)) {
        return c;
      }
    }
    return null;
  }

  byte[] compress(byte[] block) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(64, block.length / 2));
    try (OutputStream out =
        this == GZIP ? new GZIPOutputStream(bytes) : new DeflaterOutputStream(bytes)) {
      out.write(block);
    } catch (IOException e) {
      throw new AssertionError("in-memory compression failed", e); // no I/O happens here
    }
    return bytes.toByteArray();
  }

  /**
   * Decompresses a cell block, refusing to produce more than {@code limit} bytes (a few compressed
   * bytes can claim gigabytes).
   *
   * @throws BasaltIOException (DoNotRetryIOException) when the stream is corrupt or too large
   */
  byte[] decompress(byte[] block, int offset, int length, int limit) throws BasaltIOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, length * 3));
    try (InputStream in = open(new ByteArrayInputStream(block, offset, length))) {
      byte[] buf = new byte[8192];
      int n;
      while ((n = in.read(buf)) > 0) {
        if (out.size() + (long) n > limit) {
          throw BasaltIOException.doNotRetry(
              "cell block decompresses ("
                  + className
                  + ") to more than the maximum of "
                  + limit
                  + " bytes");
        }
        out.write(buf, 0, n);
      }
    } catch (BasaltIOException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw BasaltIOException.doNotRetry(
          "cell block is not a valid " + className + " stream: " + e.getMessage());
    }
    return out.toByteArray();
  }

  private InputStream open(InputStream in) throws IOException {
    return this == GZIP ? new GZIPInputStream(in) : new InflaterInputStream(in);
  }
}
