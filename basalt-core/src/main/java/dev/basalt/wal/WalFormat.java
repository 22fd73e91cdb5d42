package dev.basalt.wal;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The byte format of WAL segment files (format version 1). All integers big-endian.
 *
 * <pre>
 * Segment  = Header Frame* [Trailer frame]
 *
 * Header
 *   0     4   magic "BWAL" (0x4257414C)
 *   4     2   format version (1)
 *   6     2   server id length S
 *   8     S   server id, UTF-8
 *   8+S   8   creation time, ms since epoch
 *   16+S  4   CRC32C of bytes [0, 16+S)
 *
 * Frame (one per entry)
 *   0     4   payload length N (1 .. 2^31-1)
 *   4     4   CRC32C of the payload
 *   8     N   payload
 *
 * Edit payload
 *   1   type = 1
 *   1   region name length R, then R bytes of the region's encoded name (ASCII)
 *   8   first sequence id F
 *   8   write time, ms since epoch
 *   1   cluster id count C, then C x 16 bytes (UUID most, least significant halves)
 *   4   cell count K, then K x ( varint (cell sequence id - F), cell in KeyValue layout )
 *
 * Trailer payload (written when a segment is closed cleanly; nothing may follow it)
 *   1   type = 2
 *   8   number of edit frames in the segment
 * </pre>
 *
 * A KeyValue is self-delimiting (its first 8 bytes give key and value lengths). Thread-safe
 * (stateless).
 */
public final class WalFormat {
  static final int MAGIC = 0x4257414C;
  static final short VERSION = 1;
  static final byte TYPE_EDIT = 1;
  static final byte TYPE_TRAILER = 2;
  static final int FRAME_HEADER = 8;

  private WalFormat() {}

  static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }

  static byte[] header(String serverId, long creationTime) {
    byte[] id = serverId.getBytes(StandardCharsets.UTF_8);
    if (id.length > Short.MAX_VALUE) {
      throw new IllegalArgumentException("server id too long");
    }
    byte[] h = new byte[20 + id.length];
    int p = Bytes.putInt(h, 0, MAGIC);
    p = Bytes.putShort(h, p, VERSION);
    p = Bytes.putShort(h, p, (short) id.length);
    System.arraycopy(id, 0, h, p, id.length);
    p += id.length;
    p = Bytes.putLong(h, p, creationTime);
    Bytes.putInt(h, p, crc(h, 0, p));
    return h;
  }

  /**
   * A whole frame (length, CRC, payload) for an edit, encoded straight into one array of the exact
   * size (a put's entry is encoded on the writer's thread before it queues, so this is on every
   * put's path).
   */
  static byte[] editFrame(WalEntry e) {
    String region = e.region();
    int regionLength = region.length();
    if (regionLength > 255) {
      throw new IllegalArgumentException("region name too long: " + region);
    }
    List<UUID> clusterIds = e.clusterIds();
    if (clusterIds.size() > 255) {
      throw new IllegalArgumentException("too many cluster ids: " + clusterIds.size());
    }
    List<KeyValue> cells = e.cells();
    long first = e.firstSequenceId();
    long payload = 1 + 1 + regionLength + 16 + 1 + 16L * clusterIds.size() + 4;
    for (KeyValue kv : cells) {
      payload += varLongSize(kv.getSequenceId() - first) + kv.getLength();
    }
    if (payload > Integer.MAX_VALUE - FRAME_HEADER) {
      throw new IllegalArgumentException("WAL entry too large: " + payload + " bytes");
    }
    byte[] f = new byte[FRAME_HEADER + (int) payload];
    int p = FRAME_HEADER;
    f[p++] = TYPE_EDIT;
    f[p++] = (byte) regionLength;
    for (int i = 0; i < regionLength; i++) {
      char c = region.charAt(i);
      f[p++] = c < 0x80 ? (byte) c : (byte) '?'; // as String.getBytes(US_ASCII) would
    }
    p = Bytes.putLong(f, p, first);
    p = Bytes.putLong(f, p, e.writeTime());
    f[p++] = (byte) clusterIds.size();
    for (UUID id : clusterIds) {
      p = Bytes.putLong(f, p, id.getMostSignificantBits());
      p = Bytes.putLong(f, p, id.getLeastSignificantBits());
    }
    p = Bytes.putInt(f, p, cells.size());
    for (KeyValue kv : cells) {
      p = putVarLong(f, p, kv.getSequenceId() - first);
      System.arraycopy(kv.getBuffer(), kv.getOffset(), f, p, kv.getLength());
      p += kv.getLength();
    }
    Bytes.putInt(f, 0, (int) payload);
    Bytes.putInt(f, 4, crc(f, FRAME_HEADER, (int) payload));
    return f;
  }

  static byte[] trailerFrame(long edits) {
    byte[] p = new byte[9];
    p[0] = TYPE_TRAILER;
    Bytes.putLong(p, 1, edits);
    return frame(p);
  }

  private static byte[] frame(byte[] payload) {
    byte[] f = new byte[FRAME_HEADER + payload.length];
    Bytes.putInt(f, 0, payload.length);
    Bytes.putInt(f, 4, crc(payload, 0, payload.length));
    System.arraycopy(payload, 0, f, FRAME_HEADER, payload.length);
    return f;
  }

  private static int varLongSize(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }

  private static int putVarLong(byte[] b, int p, long v) {
    while ((v & ~0x7FL) != 0) {
      b[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[p++] = (byte) v;
    return p;
  }

  /**
   * Decodes an edit payload whose CRC already matched.
   *
   * @throws IllegalArgumentException naming what is inconsistent
   */
  static WalEntry decodeEdit(byte[] p) {
    int[] pos = {1};
    int rlen = u8(p, pos);
    need(p, pos[0], rlen);
    String region = new String(p, pos[0], rlen, StandardCharsets.US_ASCII);
    pos[0] += rlen;
    need(p, pos[0], 16);
    long first = Bytes.readLong(p, pos[0]);
    long writeTime = Bytes.readLong(p, pos[0] + 8);
    pos[0] += 16;
    int c = u8(p, pos);
    List<UUID> ids = new ArrayList<>(c);
    for (int i = 0; i < c; i++) {
      need(p, pos[0], 16);
      ids.add(new UUID(Bytes.readLong(p, pos[0]), Bytes.readLong(p, pos[0] + 8)));
      pos[0] += 16;
    }
    need(p, pos[0], 4);
    int k = Bytes.readInt(p, pos[0]);
    pos[0] += 4;
    if (k <= 0 || k > p.length) {
      throw new IllegalArgumentException("impossible cell count " + k);
    }
    List<KeyValue> cells = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      long delta = readVarLong(p, pos);
      need(p, pos[0], 8);
      long len = 8L + Bytes.readInt(p, pos[0]) + Bytes.readInt(p, pos[0] + 4);
      if (len < 8 || len > p.length - pos[0]) {
        throw new IllegalArgumentException("cell " + i + " overruns the entry");
      }
      cells.add(KeyValue.parse(p, pos[0], (int) len, first + delta));
      pos[0] += (int) len;
    }
    if (pos[0] != p.length) {
      throw new IllegalArgumentException((p.length - pos[0]) + " stray bytes after the cells");
    }
    return new WalEntry(region, writeTime, ids, cells);
  }

  private static int u8(byte[] p, int[] pos) {
    need(p, pos[0], 1);
    return p[pos[0]++] & 0xff;
  }

  private static void need(byte[] p, int pos, int n) {
    if (n < 0 || pos + n > p.length) {
      throw new IllegalArgumentException("entry ends early at byte " + pos);
    }
  }

  private static long readVarLong(byte[] p, int[] pos) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = u8(p, pos);
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("varint too long");
  }
}
