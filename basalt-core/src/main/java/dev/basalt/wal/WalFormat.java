package dev.basalt.wal;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.zip.CRC32C;

/**
 * The byte format of WAL segment files (format version 2; version 1 segments are still read, see
 * {@link WalFormatV1}). Integers are big-endian; "varint" is an unsigned LEB128 varint.
 *
 * <pre>
 * Segment  = Header Frame* [Trailer frame]
 *
 * Header
 *   0     4   magic "BWAL" (0x4257414C)
 *   4     2   format version (2)
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
 * Region payload (defines a region id for the rest of the segment)
 *   1   type = 3, or 9 when the table's name follows
 *   varint region id
 *   1   region name length R, then R bytes of the region's encoded name (ASCII)
 *   (type 9) 2 table name length T, then T bytes of the table's name (namespace:qualifier, or
 *       the qualifier alone in the default namespace; UTF-8)
 *
 * Cluster payload (defines a cluster id for the rest of the segment)
 *   1   type = 4
 *   varint cluster id
 *   16  cluster UUID (most, then least significant half)
 *
 * Edit payload (one row mutation of one region)
 *   1   type = 5, 6 for an edit with a client nonce, 7 (8 with a nonce) for an edit whose cells
 *       may carry a per-cell TTL
 *   varint region id
 *   varint first sequence id F
 *   varint write time, ms since epoch
 *   1   cluster count C, then C x varint cluster id
 *   (types 6 and 8) 8 nonce group, 8 nonce
 *   varint cell count K, then per cell
 *     types 5, 6: varint (cell sequence id - F), cell in KeyValue layout
 *     types 7, 8: varint ((cell sequence id - F) * 2 + t), 8 TTL in ms when t = 1, cell
 *
 * Trailer payload (written when a segment is closed cleanly; nothing may follow it)
 *   1   type = 2
 *   8   number of edit frames in the segment
 * </pre>
 *
 * Replication reads the table name to filter edits by table and family (an edit's region may be
 * gone by the time a lagging peer's source reads it); segments written before type 9 existed carry
 * none.
 *
 * <p>A region or cluster id is defined by its frame before the first edit of the segment that uses
 * it, so that each segment reads on its own; an edit that names an undefined id is corrupt. Ids are
 * small numbers the log assigns once per process, so an edit is encoded (on the writer's thread,
 * before it is queued) without knowing which segment it goes to. The dictionary frames took the 32
 * characters of region name and the 16 bytes of cluster id out of every edit (218 bytes for a put
 * of a 16-byte row and a 100-byte value in version 1, 161 in version 2).
 *
 * <p>A KeyValue is self-delimiting (its first 8 bytes give key and value lengths). An edit without
 * a per-cell TTL is written as type 5 or 6, byte for byte as before types 7 and 8 existed, so only
 * edits that use TTLs pay for them (a reader that predates them stops at the first one as an
 * unknown type). Thread-safe (stateless).
 */
public final class WalFormat {
  static final int MAGIC = 0x4257414C;
  static final short VERSION = 2;
  static final byte TYPE_EDIT_V1 = 1;
  static final byte TYPE_TRAILER = 2;
  static final byte TYPE_REGION = 3;
  static final byte TYPE_CLUSTER = 4;
  static final byte TYPE_EDIT = 5;
  static final byte TYPE_EDIT_NONCE = 6;
  static final byte TYPE_EDIT_TTL = 7;
  static final byte TYPE_EDIT_TTL_NONCE = 8;
  static final byte TYPE_REGION_TABLE = 9;
  static final int FRAME_HEADER = 8;

  private WalFormat() {}

  /** Whether a payload type code is one a segment may hold. */
  static boolean isKnownType(byte type) {
    return type >= TYPE_EDIT_V1 && type <= TYPE_REGION_TABLE;
  }

  static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }

  static byte[] header(String serverId, long creationTime) {
    return header(serverId, creationTime, VERSION);
  }

  static byte[] header(String serverId, long creationTime, short version) {
    byte[] id = serverId.getBytes(StandardCharsets.UTF_8);
    if (id.length > Short.MAX_VALUE) {
      throw new IllegalArgumentException("server id too long");
    }
    byte[] h = new byte[20 + id.length];
    int p = Bytes.putInt(h, 0, MAGIC);
    p = Bytes.putShort(h, p, version);
    p = Bytes.putShort(h, p, (short) id.length);
    System.arraycopy(id, 0, h, p, id.length);
    p += id.length;
    p = Bytes.putLong(h, p, creationTime);
    Bytes.putInt(h, p, crc(h, 0, p));
    return h;
  }

  // ---- encoding -------------------------------------------------------------------------------

  /**
   * A whole frame (length, CRC, payload) for an edit whose region and cluster ids are {@code
   * regionId} and {@code clusterIds} (in the order of {@link WalEntry#clusterIds}), encoded
   * straight into one array of the exact size.
   */
  static byte[] editFrame(WalEntry e, int regionId, int[] clusterIds) {
    if (clusterIds.length > 255) {
      throw new IllegalArgumentException("too many cluster ids: " + clusterIds.length);
    }
    List<KeyValue> cells = e.cells();
    long first = e.firstSequenceId();
    boolean withNonce = e.nonce() != WalEntry.NO_NONCE;
    boolean withTtls = false;
    for (KeyValue kv : cells) {
      withTtls |= kv.getTtl() != KeyValue.NO_TTL;
    }
    long payload =
        1L
            + (withNonce ? 16 : 0)
            + varLongSize(regionId)
            + varLongSize(first)
            + varLongSize(e.writeTime())
            + 1
            + varLongSize(cells.size());
    for (int id : clusterIds) {
      payload += varLongSize(id);
    }
    for (KeyValue kv : cells) {
      long delta = kv.getSequenceId() - first;
      if (withTtls) {
        boolean ttl = kv.getTtl() != KeyValue.NO_TTL;
        payload += varLongSize(delta << 1) + (ttl ? 8 : 0);
      } else {
        payload += varLongSize(delta);
      }
      payload += kv.getLength();
    }
    if (payload > Integer.MAX_VALUE - FRAME_HEADER) {
      throw new IllegalArgumentException("WAL entry too large: " + payload + " bytes");
    }
    byte[] f = new byte[FRAME_HEADER + (int) payload];
    int p = FRAME_HEADER;
    f[p++] =
        withTtls
            ? (withNonce ? TYPE_EDIT_TTL_NONCE : TYPE_EDIT_TTL)
            : (withNonce ? TYPE_EDIT_NONCE : TYPE_EDIT);
    p = putVarLong(f, p, regionId);
    p = putVarLong(f, p, first);
    p = putVarLong(f, p, e.writeTime());
    f[p++] = (byte) clusterIds.length;
    for (int id : clusterIds) {
      p = putVarLong(f, p, id);
    }
    if (withNonce) {
      p = Bytes.putLong(f, p, e.nonceGroup());
      p = Bytes.putLong(f, p, e.nonce());
    }
    p = putVarLong(f, p, cells.size());
    for (KeyValue kv : cells) {
      long delta = kv.getSequenceId() - first;
      if (withTtls) {
        boolean ttl = kv.getTtl() != KeyValue.NO_TTL;
        p = putVarLong(f, p, delta << 1 | (ttl ? 1 : 0));
        if (ttl) {
          p = Bytes.putLong(f, p, kv.getTtl());
        }
      } else {
        p = putVarLong(f, p, delta);
      }
      System.arraycopy(kv.getBuffer(), kv.getOffset(), f, p, kv.getLength());
      p += kv.getLength();
    }
    return seal(f);
  }

  /** A frame defining region id {@code id} as {@code region} (an encoded name, ASCII). */
  static byte[] regionFrame(int id, String region) {
    return regionFrame(id, region, null);
  }

  /**
   * A frame defining region id {@code id} as {@code region} (an encoded name, ASCII) of {@code
   * table} (null: not known, the frame is type 3).
   */
  static byte[] regionFrame(int id, String region, String table) {
    byte[] name = region.getBytes(StandardCharsets.US_ASCII);
    if (name.length > 255) {
      throw new IllegalArgumentException("region name too long: " + region);
    }
    byte[] t = table == null ? null : table.getBytes(StandardCharsets.UTF_8);
    if (t != null && t.length > Short.MAX_VALUE) {
      throw new IllegalArgumentException("table name too long: " + table);
    }
    int tableBytes = t == null ? 0 : 2 + t.length;
    byte[] f = new byte[FRAME_HEADER + 1 + varLongSize(id) + 1 + name.length + tableBytes];
    int p = FRAME_HEADER;
    f[p++] = t == null ? TYPE_REGION : TYPE_REGION_TABLE;
    p = putVarLong(f, p, id);
    f[p++] = (byte) name.length;
    System.arraycopy(name, 0, f, p, name.length);
    p += name.length;
    if (t != null) {
      p = Bytes.putShort(f, p, (short) t.length);
      System.arraycopy(t, 0, f, p, t.length);
    }
    return seal(f);
  }

  /** A frame defining cluster id {@code id} as {@code cluster}. */
  static byte[] clusterFrame(int id, UUID cluster) {
    byte[] f = new byte[FRAME_HEADER + 1 + varLongSize(id) + 16];
    int p = FRAME_HEADER;
    f[p++] = TYPE_CLUSTER;
    p = putVarLong(f, p, id);
    p = Bytes.putLong(f, p, cluster.getMostSignificantBits());
    Bytes.putLong(f, p, cluster.getLeastSignificantBits());
    return seal(f);
  }

  static byte[] trailerFrame(long edits) {
    byte[] f = new byte[FRAME_HEADER + 9];
    f[FRAME_HEADER] = TYPE_TRAILER;
    Bytes.putLong(f, FRAME_HEADER + 1, edits);
    return seal(f);
  }

  /** Fills in the frame header of a frame whose payload is in place. */
  private static byte[] seal(byte[] f) {
    int n = f.length - FRAME_HEADER;
    Bytes.putInt(f, 0, n);
    Bytes.putInt(f, 4, crc(f, FRAME_HEADER, n));
    return f;
  }

  static int varLongSize(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }

  static int putVarLong(byte[] b, int p, long v) {
    while ((v & ~0x7FL) != 0) {
      b[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[p++] = (byte) v;
    return p;
  }

  // ---- decoding -------------------------------------------------------------------------------

  /** A region or cluster definition: the id and what it stands for. */
  record Definition<T>(int id, T value) {}

  /**
   * Decodes a region payload whose CRC already matched.
   *
   * @throws IllegalArgumentException naming what is inconsistent
   */
  static Definition<String> decodeRegion(byte[] p) {
    int[] pos = {1};
    int id = readId(p, pos);
    int len = u8(p, pos);
    need(p, pos[0], len);
    String name = new String(p, pos[0], len, StandardCharsets.US_ASCII);
    pos[0] += len;
    if (p[0] == TYPE_REGION_TABLE) {
      tableOf(p, pos);
    }
    end(p, pos[0]);
    return new Definition<>(id, name);
  }

  /** The table a region payload names (type 9), or null (type 3). */
  static String decodeRegionTable(byte[] p) {
    if (p[0] != TYPE_REGION_TABLE) {
      return null;
    }
    int[] pos = {1};
    readId(p, pos);
    int len = u8(p, pos);
    need(p, pos[0], len);
    pos[0] += len;
    return tableOf(p, pos);
  }

  private static String tableOf(byte[] p, int[] pos) {
    need(p, pos[0], 2);
    int t = Bytes.readShort(p, pos[0]);
    if (t <= 0) {
      throw new IllegalArgumentException("impossible table name length " + t);
    }
    pos[0] += 2;
    need(p, pos[0], t);
    String table = new String(p, pos[0], t, StandardCharsets.UTF_8);
    pos[0] += t;
    return table;
  }

  /**
   * Decodes a cluster payload whose CRC already matched.
   *
   * @throws IllegalArgumentException naming what is inconsistent
   */
  static Definition<UUID> decodeCluster(byte[] p) {
    int[] pos = {1};
    int id = readId(p, pos);
    need(p, pos[0], 16);
    UUID uuid = new UUID(Bytes.readLong(p, pos[0]), Bytes.readLong(p, pos[0] + 8));
    end(p, pos[0] + 16);
    return new Definition<>(id, uuid);
  }

  /**
   * Decodes an edit payload whose CRC already matched.
   *
   * @param regions the segment's region names by id (null for an undefined id)
   * @param clusters the segment's cluster ids by id (null for an undefined id)
   * @throws IllegalArgumentException naming what is inconsistent
   */
  static WalEntry decodeEdit(byte[] p, IntFunction<String> regions, IntFunction<UUID> clusters) {
    return decodeEdit(p, regions, clusters, id -> null);
  }

  /**
   * {@link #decodeEdit(byte[], IntFunction, IntFunction)}, with the tables of the segment's regions
   * by region id (null where the segment does not name one).
   */
  static WalEntry decodeEdit(
      byte[] p,
      IntFunction<String> regions,
      IntFunction<UUID> clusters,
      IntFunction<String> tables) {
    int[] pos = {1};
    int regionId = readId(p, pos);
    String region = regions.apply(regionId);
    if (region == null) {
      throw new IllegalArgumentException("region id " + regionId + " is not defined before use");
    }
    long first = readVarLong(p, pos);
    long writeTime = readVarLong(p, pos);
    int c = u8(p, pos);
    List<UUID> ids = new ArrayList<>(c);
    for (int i = 0; i < c; i++) {
      int clusterId = readId(p, pos);
      UUID id = clusters.apply(clusterId);
      if (id == null) {
        throw new IllegalArgumentException(
            "cluster id " + clusterId + " is not defined before use");
      }
      ids.add(id);
    }
    long nonceGroup = 0;
    long nonce = WalEntry.NO_NONCE;
    boolean withTtls = p[0] == TYPE_EDIT_TTL || p[0] == TYPE_EDIT_TTL_NONCE;
    if (p[0] == TYPE_EDIT_NONCE || p[0] == TYPE_EDIT_TTL_NONCE) {
      need(p, pos[0], 16);
      nonceGroup = Bytes.readLong(p, pos[0]);
      nonce = Bytes.readLong(p, pos[0] + 8);
      pos[0] += 16;
    }
    long k = readVarLong(p, pos);
    if (k <= 0 || k > p.length) {
      throw new IllegalArgumentException("impossible cell count " + k);
    }
    return new WalEntry(
        region,
        writeTime,
        ids,
        readCells(p, pos, (int) k, first, withTtls),
        nonceGroup,
        nonce,
        tables.apply(regionId));
  }

  /**
   * K x (varint sequence id delta, KeyValue) up to the end of the payload; with {@code withTtls}, K
   * x (varint delta * 2 + t, [8-byte TTL when t = 1], KeyValue).
   */
  static List<KeyValue> readCells(byte[] p, int[] pos, int k, long first, boolean withTtls) {
    List<KeyValue> cells = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      long delta = readVarLong(p, pos);
      long ttl = KeyValue.NO_TTL;
      if (withTtls) {
        if ((delta & 1) != 0) {
          need(p, pos[0], 8);
          ttl = Bytes.readLong(p, pos[0]);
          pos[0] += 8;
          if (ttl == KeyValue.NO_TTL) {
            throw new IllegalArgumentException("cell " + i + " has a TTL flag and no TTL");
          }
        }
        delta >>>= 1;
      }
      need(p, pos[0], 8);
      long len = 8L + Bytes.readInt(p, pos[0]) + Bytes.readInt(p, pos[0] + 4);
      if (len < 8 || len > p.length - pos[0]) {
        throw new IllegalArgumentException("cell " + i + " overruns the entry");
      }
      KeyValue kv = KeyValue.parse(p, pos[0], (int) len, first + delta);
      cells.add(ttl == KeyValue.NO_TTL ? kv : kv.withTtl(ttl));
      pos[0] += (int) len;
    }
    end(p, pos[0]);
    return cells;
  }

  private static int readId(byte[] p, int[] pos) {
    long id = readVarLong(p, pos);
    if (id > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("impossible id " + id);
    }
    return (int) id;
  }

  static int u8(byte[] p, int[] pos) {
    need(p, pos[0], 1);
    return p[pos[0]++] & 0xff;
  }

  static void need(byte[] p, int pos, int n) {
    if (n < 0 || pos + n > p.length) {
      throw new IllegalArgumentException("entry ends early at byte " + pos);
    }
  }

  private static void end(byte[] p, int pos) {
    if (pos != p.length) {
      throw new IllegalArgumentException((p.length - pos) + " stray bytes at the end");
    }
  }

  static long readVarLong(byte[] p, int[] pos) {
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
