package dev.basalt.wal;

import dev.basalt.cell.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads the edits of version 1 segments, which a log written before version 2 leaves behind. In
 * version 1 every edit names its region and cluster ids in full (no dictionary frames):
 *
 * <pre>
 * Edit payload (version 1)
 *   1   type = 1
 *   1   region name length R, then R bytes of the region's encoded name (ASCII)
 *   8   first sequence id F
 *   8   write time, ms since epoch
 *   1   cluster id count C, then C x 16 bytes (UUID most, least significant halves)
 *   4   cell count K, then K x ( varint (cell sequence id - F), cell in KeyValue layout )
 * </pre>
 *
 * Header, frames and trailer are as in {@link WalFormat}. Thread-safe (stateless).
 */
final class WalFormatV1 {
  static final short VERSION = 1;

  private WalFormatV1() {}

  /**
   * Decodes a version 1 edit payload whose CRC already matched.
   *
   * @throws IllegalArgumentException naming what is inconsistent
   */
  static WalEntry decodeEdit(byte[] p) {
    int[] pos = {1};
    int rlen = WalFormat.u8(p, pos);
    WalFormat.need(p, pos[0], rlen);
    String region = new String(p, pos[0], rlen, StandardCharsets.US_ASCII);
    pos[0] += rlen;
    WalFormat.need(p, pos[0], 16);
    long first = Bytes.readLong(p, pos[0]);
    long writeTime = Bytes.readLong(p, pos[0] + 8);
    pos[0] += 16;
    int c = WalFormat.u8(p, pos);
    List<UUID> ids = new ArrayList<>(c);
    for (int i = 0; i < c; i++) {
      WalFormat.need(p, pos[0], 16);
      ids.add(new UUID(Bytes.readLong(p, pos[0]), Bytes.readLong(p, pos[0] + 8)));
      pos[0] += 16;
    }
    WalFormat.need(p, pos[0], 4);
    int k = Bytes.readInt(p, pos[0]);
    pos[0] += 4;
    if (k <= 0 || k > p.length) {
      throw new IllegalArgumentException("impossible cell count " + k);
    }
    return new WalEntry(region, writeTime, ids, WalFormat.readCells(p, pos, k, first, false));
  }
}
