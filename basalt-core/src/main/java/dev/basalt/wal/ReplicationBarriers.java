package dev.basalt.wal;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.SealedFile;
import dev.basalt.fs.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The lives of a region for serial replication (HBase keeps the same facts as "replication
 * barriers" in hbase:meta): each time the region opens, on which server's log its edits go from
 * which sequence id on, and once it closes there, where in that log its last edit lies. A serial
 * peer's source ships an edit of a region only once every earlier life's edits on other servers'
 * logs have been shipped, so a region's edits reach the peer in order across moves and crashes.
 *
 * <p>One file per region, {@code replication/barriers/<encoded region>}
 * (docs/formats/replication.md): magic {@code "BRB1"}, life count (4), per life: first sequence id
 * (8), server length (2) and server (UTF-8), close segment (8) and offset (8), both -1 while open
 * or when the server died; then CRC32C (4): a {@link SealedFile}, synced. The newest {@link #KEPT}
 * lives are kept. Only the region's current server writes it. Thread-safe (stateless over the
 * storage).
 */
public final class ReplicationBarriers {
  /** The directory of every barrier file. */
  public static final String DIR = "replication/barriers";

  /** Lives kept per region; older ones are long shipped. */
  static final int KEPT = 32;

  private static final byte[] MAGIC = "BRB1".getBytes(StandardCharsets.US_ASCII);

  /**
   * One life of a region.
   *
   * @param firstSequenceId the lowest sequence id of its edits
   * @param server the log its edits went to
   * @param end where its last edit lies in that log, or null (still open, or its server died: then
   *     the whole log)
   */
  public record Life(long firstSequenceId, String server, WalPosition end) {}

  private final Storage storage;

  public ReplicationBarriers(Storage storage) {
    this.storage = storage;
  }

  private static String path(String region) {
    return DIR + "/" + region;
  }

  /** The region's lives, oldest first; empty when none was recorded. */
  public List<Life> read(String region) throws IOException {
    byte[] b = SealedFile.read(storage, path(region), MAGIC, "replication barriers");
    if (b == null) {
      return List.of();
    }
    int n = Bytes.readInt(b, 0);
    int pos = 4;
    List<Life> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long first = Bytes.readLong(b, pos);
      int len = Bytes.readShort(b, pos + 8);
      String server = new String(b, pos + 10, len, StandardCharsets.UTF_8);
      pos += 10 + len;
      long seg = Bytes.readLong(b, pos);
      long off = Bytes.readLong(b, pos + 8);
      pos += 16;
      out.add(new Life(first, server, seg < 0 ? null : new WalPosition(seg, off)));
    }
    return out;
  }

  /** Records that the region opens on {@code server}'s log with edits from {@code firstSeq} on. */
  public void opened(String region, String server, long firstSeq) throws IOException {
    List<Life> lives = new ArrayList<>(read(region));
    lives.add(new Life(firstSeq, server, null));
    write(region, lives);
  }

  /** Records where the region's current life on {@code server} ended in that server's log. */
  public void closed(String region, String server, WalPosition end) throws IOException {
    List<Life> lives = new ArrayList<>(read(region));
    for (int i = lives.size() - 1; i >= 0; i--) {
      Life l = lives.get(i);
      if (l.server().equals(server) && l.end() == null) {
        lives.set(i, new Life(l.firstSequenceId(), server, end));
        write(region, lives);
        return;
      }
    }
  }

  private void write(String region, List<Life> all) throws IOException {
    List<Life> lives = all.size() > KEPT ? all.subList(all.size() - KEPT, all.size()) : all;
    int size = 4;
    List<byte[]> servers = new ArrayList<>();
    for (Life l : lives) {
      byte[] s = l.server().getBytes(StandardCharsets.UTF_8);
      servers.add(s);
      size += 8 + 2 + s.length + 16;
    }
    byte[] b = new byte[size];
    int pos = Bytes.putInt(b, 0, lives.size());
    for (int i = 0; i < lives.size(); i++) {
      Life l = lives.get(i);
      pos = Bytes.putLong(b, pos, l.firstSequenceId());
      pos = Bytes.putShort(b, pos, (short) servers.get(i).length);
      System.arraycopy(servers.get(i), 0, b, pos, servers.get(i).length);
      pos += servers.get(i).length;
      pos = Bytes.putLong(b, pos, l.end() == null ? -1 : l.end().segment());
      pos = Bytes.putLong(b, pos, l.end() == null ? -1 : l.end().offset());
    }
    SealedFile.write(storage, path(region), MAGIC, b, true);
  }
}
