package dev.basalt.server.replication;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.SealedFile;
import dev.basalt.fs.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    byte[] body = SealedFile.read(storage, PATH, MAGIC, "a Basalt peer list");
    return body == null ? List.of() : decode(body, storage.describe(PATH));
  }

  void save(List<Peer> peers) throws IOException {
    SealedFile.write(storage, PATH, MAGIC, encode(peers), true);
  }

  /** The body between the magic and the checksum. */
  static byte[] encode(List<Peer> peers) {
    List<byte[]> ids = new ArrayList<>();
    List<byte[]> configs = new ArrayList<>();
    int size = 4;
    for (Peer p : peers) {
      byte[] id = p.id().getBytes(StandardCharsets.UTF_8);
      byte[] c = p.config().toByteArray();
      ids.add(id);
      configs.add(c);
      size += 2 + id.length + 1 + 8 + 4 + c.length;
    }
    byte[] b = new byte[size];
    int pos = Bytes.putInt(b, 0, peers.size());
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
    return b;
  }

  static List<Peer> decode(byte[] b, String where) throws IOException {
    try {
      int n = Bytes.readInt(b, 0);
      int pos = 4;
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
        if (cLen < 0 || pos + cLen > b.length) {
          throw new IOException(where + ": peer " + id + " overruns the file");
        }
        ReplicationPeer config = ReplicationPeer.parseFrom(Arrays.copyOfRange(b, pos, pos + cLen));
        pos += cLen;
        out.add(new Peer(id, enabled, config, createdAt));
      }
      if (pos != b.length) {
        throw new IOException(where + " has " + (b.length - pos) + " stray bytes");
      }
      return out;
    } catch (InvalidProtocolBufferException | IndexOutOfBoundsException e) {
      throw new IOException(where + " does not decode: " + e.getMessage(), e);
    }
  }
}
