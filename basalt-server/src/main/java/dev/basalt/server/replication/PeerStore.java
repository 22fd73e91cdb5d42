package dev.basalt.server.replication;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationPeer;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * The peer list on the root's storage, {@code replication/peers}, rewritten whole on each change
 * (under a temporary name, then renamed into place) and read by the master at start and by every
 * region server of a cluster when it refreshes. Format (docs/formats/replication.md): magic {@code
 * "BRP1"}, peer count (4), per peer: id length (2) and id (UTF-8), state (1: 1 enabled, 0
 * disabled), creation time (8), config length (4) and HBase's {@code ReplicationPeer} message; then
 * CRC32C (4) of everything before. Thread-safe (stateless over the storage).
 */
final class PeerStore {
  static final String PATH = "replication/peers";
  private static final byte[] MAGIC = "BRP1".getBytes(StandardCharsets.US_ASCII);

  private final Storage storage;

  PeerStore(Storage storage) {
    this.storage = storage;
  }

  /** The stored peers; empty when none were ever added. */
  List<Peer> load() throws IOException {
    if (!storage.exists(PATH)) {
      return List.of();
    }
    byte[] b;
    try (ReadableFile f = storage.open(PATH)) {
      long n = f.length();
      if (n > Integer.MAX_VALUE) {
        throw new IOException(storage.describe(PATH) + " is too large to be a peer list");
      }
      b = new byte[(int) n];
      f.readFully(0, b, 0, b.length);
    }
    return decode(b, storage.describe(PATH));
  }

  void save(List<Peer> peers) throws IOException {
    byte[] b = encode(peers);
    String tmp = "replication/.peers.tmp";
    storage.delete(tmp);
    try (WritableFile f = storage.create(tmp)) {
      f.write(b);
      f.sync();
    }
    storage.rename(tmp, PATH);
  }

  static byte[] encode(List<Peer> peers) {
    List<byte[]> ids = new ArrayList<>();
    List<byte[]> configs = new ArrayList<>();
    int size = MAGIC.length + 4 + 4;
    for (Peer p : peers) {
      byte[] id = p.id().getBytes(StandardCharsets.UTF_8);
      byte[] c = p.config().toByteArray();
      ids.add(id);
      configs.add(c);
      size += 2 + id.length + 1 + 8 + 4 + c.length;
    }
    byte[] b = new byte[size];
    System.arraycopy(MAGIC, 0, b, 0, MAGIC.length);
    int pos = Bytes.putInt(b, MAGIC.length, peers.size());
    for (int i = 0; i < peers.size(); i++) {
      Peer p = peers.get(i);
      pos = Bytes.putShort(b, pos, (short) ids.get(i).length);
      System.arraycopy(ids.get(i), 0, b, pos, ids.get(i).length);
      pos += ids.get(i).length;
      b[pos++] = (byte) (p.enabled() ? 1 : 0);
      pos = Bytes.putLong(b, pos, p.createdAt());
      pos = Bytes.putInt(b, pos, configs.get(i).length);
      System.arraycopy(configs.get(i), 0, b, pos, configs.get(i).length);
      pos += configs.get(i).length;
    }
    Bytes.putInt(b, pos, crc(b, pos));
    return b;
  }

  static List<Peer> decode(byte[] b, String where) throws IOException {
    if (b.length < MAGIC.length + 8) {
      throw new IOException(where + " is " + b.length + " bytes, too short for a peer list");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (b[i] != MAGIC[i]) {
        throw new IOException(where + " is not a Basalt peer list (bad magic)");
      }
    }
    int end = b.length - 4;
    if (Bytes.readInt(b, end) != crc(b, end)) {
      throw new IOException(where + " fails its checksum");
    }
    try {
      int n = Bytes.readInt(b, MAGIC.length);
      int pos = MAGIC.length + 4;
      List<Peer> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        int idLen = Bytes.readShort(b, pos);
        pos += 2;
        String id = new String(b, pos, idLen, StandardCharsets.UTF_8);
        pos += idLen;
        boolean enabled = b[pos++] == 1;
        long createdAt = Bytes.readLong(b, pos);
        pos += 8;
        int cLen = Bytes.readInt(b, pos);
        pos += 4;
        if (cLen < 0 || pos + cLen > end) {
          throw new IOException(where + ": peer " + id + " overruns the file");
        }
        ReplicationPeer config =
            ReplicationPeer.parseFrom(java.util.Arrays.copyOfRange(b, pos, pos + cLen));
        pos += cLen;
        out.add(new Peer(id, enabled, config, createdAt));
      }
      if (pos != end) {
        throw new IOException(where + " has " + (end - pos) + " stray bytes");
      }
      return out;
    } catch (InvalidProtocolBufferException | IndexOutOfBoundsException e) {
      throw new IOException(where + " does not decode: " + e.getMessage(), e);
    }
  }

  private static int crc(byte[] b, int len) {
    CRC32C c = new CRC32C();
    c.update(b, 0, len);
    return (int) c.getValue();
  }
}
