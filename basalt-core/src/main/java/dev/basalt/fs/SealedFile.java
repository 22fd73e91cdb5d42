package dev.basalt.fs;

import dev.basalt.cell.Bytes;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A small file written whole and replaced atomically: a 4-byte magic, the body, and the CRC32C of
 * everything before it. Written under a temporary name beside it ({@code .<name>.tmp}: a leading
 * dot, so listings of the directory can tell it apart) and renamed into place, so a reader sees the
 * old content or the new, never half. Replication's peer list, queue positions and barriers use it.
 * Stateless.
 */
public final class SealedFile {
  private static final long MAX_LENGTH = 64L << 20;

  private SealedFile() {}

  /**
   * Replaces {@code path} with {@code magic + body + CRC32C}.
   *
   * @param sync force the content to the device (otherwise flushed: it survives a crash of the
   *     process; the rename is durable either way)
   */
  public static void write(Storage storage, String path, byte[] magic, byte[] body, boolean sync)
      throws IOException {
    byte[] b = new byte[magic.length + body.length + 4];
    System.arraycopy(magic, 0, b, 0, magic.length);
    System.arraycopy(body, 0, b, magic.length, body.length);
    Bytes.putInt(b, b.length - 4, crc(b, b.length - 4));
    int slash = path.lastIndexOf('/');
    String tmp = path.substring(0, slash + 1) + "." + path.substring(slash + 1) + ".tmp";
    storage.delete(tmp);
    try (WritableFile f = storage.create(tmp)) {
      f.write(b);
      if (sync) {
        f.sync();
      } else {
        f.flush();
      }
    }
    storage.rename(tmp, path);
  }

  /**
   * The body of {@code path}, or null when it does not exist.
   *
   * @param what what the file is, for messages ("a replication position")
   * @throws IOException naming the file when its magic or checksum is wrong
   */
  public static byte[] read(Storage storage, String path, byte[] magic, String what)
      throws IOException {
    byte[] b;
    try (ReadableFile f = storage.open(path)) {
      long n = f.length();
      if (n > MAX_LENGTH) {
        throw new IOException(
            storage.describe(path) + " is " + n + " bytes, too large for " + what);
      }
      b = new byte[(int) n];
      f.readFully(0, b, 0, b.length);
    } catch (FileNotFoundException | NoSuchFileException e) {
      return null;
    }
    String where = storage.describe(path);
    if (b.length < magic.length + 4) {
      throw new IOException(where + " is " + b.length + " bytes, too short for " + what);
    }
    if (!Arrays.equals(b, 0, magic.length, magic, 0, magic.length)) {
      throw new IOException(where + " is not " + what + " (bad magic)");
    }
    int end = b.length - 4;
    if (Bytes.readInt(b, end) != crc(b, end)) {
      throw new IOException(where + " fails its checksum");
    }
    return Arrays.copyOfRange(b, magic.length, end);
  }

  private static int crc(byte[] b, int len) {
    CRC32C c = new CRC32C();
    c.update(b, 0, len);
    return (int) c.getValue();
  }
}
