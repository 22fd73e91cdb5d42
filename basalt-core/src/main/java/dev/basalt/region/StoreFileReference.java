package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * A reference file: a store file of a region made by a split or a merge that stands for the rows
 * {@code [startRow, stopRow)} of a store file of the region it came from (its <em>parent</em>), so
 * that a split or a merge writes no data. Reads go to the parent's file through a row-range view; a
 * compaction of the new region rewrites the rows into a file of its own and archives the reference;
 * the parent's directory is archived once no reference names it.
 *
 * <p>Named {@code <parent file>.<parent encoded region name>} (as HBase names references) in the
 * new region's family directory; the parent's file is {@code <table dir>/<parent>/<family>/<parent
 * file>}. Format version 1, big-endian (docs/formats/reference.md):
 *
 * <pre>
 * magic "BREF"(4) version(2)=1 string(parent region) string(parent file)
 * bytes16(startRow) bytes16(stopRow) crc32c(4) of every byte before it
 * string = u16(length) UTF-8;  bytes16 = u16(length) bytes;  empty row = unbounded
 * </pre>
 *
 * Written under a temporary name, synced and renamed into place. Immutable.
 */
public final class StoreFileReference {
  private static final int MAGIC = 0x42524546; // BREF
  private static final short VERSION = 1;

  private final String parentRegion;
  private final String parentFile;
  private final byte[] startRow;
  private final byte[] stopRow;

  public StoreFileReference(
      String parentRegion, String parentFile, byte[] startRow, byte[] stopRow) {
    this.parentRegion = parentRegion;
    this.parentFile = parentFile;
    this.startRow = startRow.clone();
    this.stopRow = stopRow.clone();
  }

  public String parentRegion() {
    return parentRegion;
  }

  public String parentFile() {
    return parentFile;
  }

  byte[] startRow() {
    return startRow.clone();
  }

  byte[] stopRow() {
    return stopRow.clone();
  }

  /** The reference's file name in the new region's family directory. */
  public String fileName() {
    return parentFile + "." + parentRegion;
  }

  /**
   * Whether a store file name is a reference's; if so, {@link #parentRegionOf} gives the parent.
   * Store files are named by 32 hex digits, encoded region names too.
   */
  public static boolean isReference(String name) {
    int dot = name.indexOf('.');
    return dot == 32 && name.length() == 65 && name.indexOf('.', dot + 1) < 0;
  }

  /** The encoded name of the region a reference file name refers to. */
  public static String parentRegionOf(String referenceName) {
    return referenceName.substring(33);
  }

  /** The path of the parent's file, for a reference in family directory {@code familyDir}. */
  String parentPath(String familyDir) {
    int f = familyDir.lastIndexOf('/');
    int r = familyDir.lastIndexOf('/', f - 1);
    return familyDir.substring(0, r)
        + "/"
        + parentRegion
        + familyDir.substring(f)
        + "/"
        + parentFile;
  }

  byte[] encode() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] b4 = new byte[4];
    Bytes.putInt(b4, 0, MAGIC);
    out.write(b4, 0, 4);
    out.write(VERSION >>> 8);
    out.write(VERSION);
    for (byte[] field :
        new byte[][] {
          parentRegion.getBytes(StandardCharsets.UTF_8),
          parentFile.getBytes(StandardCharsets.UTF_8),
          startRow,
          stopRow
        }) {
      out.write(field.length >>> 8);
      out.write(field.length);
      out.write(field, 0, field.length);
    }
    byte[] body = out.toByteArray();
    CRC32C c = new CRC32C();
    c.update(body, 0, body.length);
    byte[] all = new byte[body.length + 4];
    System.arraycopy(body, 0, all, 0, body.length);
    Bytes.putInt(all, body.length, (int) c.getValue());
    return all;
  }

  static StoreFileReference decode(byte[] b, String where) throws IOException {
    if (b.length < 14) {
      throw new IOException("reference file " + where + " is truncated (" + b.length + " bytes)");
    }
    int end = b.length - 4;
    CRC32C c = new CRC32C();
    c.update(b, 0, end);
    if ((int) c.getValue() != Bytes.readInt(b, end)) {
      throw new IOException("reference file " + where + " is corrupt: checksum mismatch");
    }
    if (Bytes.readInt(b, 0) != MAGIC) {
      throw new IOException("reference file " + where + " has the wrong magic number");
    }
    if (Bytes.readShort(b, 4) != VERSION) {
      throw new IOException(
          "reference file " + where + " has unsupported format version " + Bytes.readShort(b, 4));
    }
    byte[][] fields = new byte[4][];
    int pos = 6;
    for (int i = 0; i < 4; i++) {
      if (pos + 2 > end) {
        throw new IOException("reference file " + where + ": field " + (i + 1) + " overruns it");
      }
      int n = ((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff);
      pos += 2;
      if (pos + n > end) {
        throw new IOException("reference file " + where + ": field " + (i + 1) + " overruns it");
      }
      fields[i] = Bytes.copy(b, pos, n);
      pos += n;
    }
    if (pos != end) {
      throw new IOException("reference file " + where + " has " + (end - pos) + " stray bytes");
    }
    return new StoreFileReference(
        new String(fields[0], StandardCharsets.UTF_8),
        new String(fields[1], StandardCharsets.UTF_8),
        fields[2],
        fields[3]);
  }

  /** Writes this reference into {@code familyDir} (temporary name, sync, rename). */
  public void write(Storage storage, String familyDir) throws IOException {
    String path = familyDir + "/" + fileName();
    String tmp = path + ".tmp";
    storage.delete(tmp);
    try (WritableFile f = storage.create(tmp)) {
      f.write(encode());
      f.sync();
    }
    storage.rename(tmp, path);
  }

  static StoreFileReference read(Storage storage, String path) throws IOException {
    try (ReadableFile f = storage.open(path)) {
      long len = f.length();
      if (len > 1 << 20) {
        throw new IOException("reference file " + storage.describe(path) + " is too large");
      }
      byte[] b = new byte[(int) len];
      f.readFully(0, b, 0, b.length);
      return decode(b, storage.describe(path));
    }
  }

  @Override
  public String toString() {
    return "Reference("
        + parentRegion
        + "/"
        + parentFile
        + " rows ["
        + Bytes.toStringBinary(startRow)
        + ", "
        + Bytes.toStringBinary(stopRow)
        + "))";
  }
}
