package dev.basalt.wal;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The durable positions of replication queues, on the root's storage so that every server (and the
 * master's log cleaner) sees them: one small file per queue, {@code
 * replication/queues/<peer>/<queue>}, where a queue is one peer's way through one server's log.
 *
 * <p>A queue id is the name of the server whose log it reads ({@code host,port,startcode}, or
 * {@code local} for a standalone server), followed by {@code @owner} for each server that took it
 * over after the one before died: {@code a@b@c} reads a's log and belongs to c. The owner is the
 * last name; a queue without {@code @} belongs to the server whose log it reads. Taking a queue
 * over is an atomic rename, so only one server wins it.
 *
 * <p>File format (docs/formats/replication.md): magic {@code "BRQ1"}, segment number (8 bytes),
 * offset (8), CRC32C of the first 20 bytes (4); written under a temporary name and renamed into
 * place. Thread-safe (stateless over the storage).
 */
public final class ReplicationQueues {
  /** The directory of every queue. */
  public static final String DIR = "replication/queues";

  private static final byte[] MAGIC = "BRQ1".getBytes(StandardCharsets.US_ASCII);
  private static final int LENGTH = 24;

  private final Storage storage;

  public ReplicationQueues(Storage storage) {
    this.storage = storage;
  }

  /** The server whose log a queue reads. */
  public static String logServer(String queue) {
    int at = queue.indexOf('@');
    return at < 0 ? queue : queue.substring(0, at);
  }

  /** The server a queue belongs to. */
  public static String owner(String queue) {
    return queue.substring(queue.lastIndexOf('@') + 1);
  }

  /** Whether the queue reads the log of a server that is gone (its owner took it over). */
  public static boolean isRecovered(String queue) {
    return queue.indexOf('@') >= 0;
  }

  private static String path(String peer, String queue) {
    return DIR + "/" + peer + "/" + queue;
  }

  /** The peers that have queues. */
  public List<String> peers() throws IOException {
    return storage.list(DIR);
  }

  /** The queues of {@code peer}. */
  public List<String> queues(String peer) throws IOException {
    List<String> out = new ArrayList<>();
    for (String name : storage.list(DIR + "/" + peer)) {
      if (!name.startsWith(".")) {
        out.add(name);
      }
    }
    return out;
  }

  /** A queue's position, or null when the queue does not exist. */
  public WalPosition read(String peer, String queue) throws IOException {
    String path = path(peer, queue);
    if (!storage.exists(path)) {
      return null;
    }
    byte[] b = new byte[LENGTH];
    try (ReadableFile f = storage.open(path)) {
      if (f.length() != LENGTH) {
        throw new IOException(
            storage.describe(path) + " is " + f.length() + " bytes, not a replication position");
      }
      f.readFully(0, b, 0, LENGTH);
    } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
      return null; // taken over or removed meanwhile
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (b[i] != MAGIC[i]) {
        throw new IOException(storage.describe(path) + " is not a replication position (magic)");
      }
    }
    if (Bytes.readInt(b, 20) != WalFormat.crc(b, 0, 20)) {
      throw new IOException(storage.describe(path) + " fails its checksum");
    }
    return new WalPosition(Bytes.readLong(b, 4), Bytes.readLong(b, 12));
  }

  /** Stores a queue's position durably (creating the queue). */
  public void write(String peer, String queue, WalPosition pos) throws IOException {
    byte[] b = new byte[LENGTH];
    System.arraycopy(MAGIC, 0, b, 0, MAGIC.length);
    Bytes.putLong(b, 4, pos.segment());
    Bytes.putLong(b, 12, pos.offset());
    Bytes.putInt(b, 20, WalFormat.crc(b, 0, 20));
    String tmp = DIR + "/" + peer + "/." + queue + ".tmp";
    storage.delete(tmp);
    try (WritableFile f = storage.create(tmp)) {
      f.write(b);
      f.flush();
    }
    storage.rename(tmp, path(peer, queue));
  }

  /** Deletes a queue (its log is read to the end); false when it was not there. */
  public boolean delete(String peer, String queue) throws IOException {
    return storage.delete(path(peer, queue));
  }

  /** Deletes every queue of a peer (the peer is removed). */
  public void deletePeer(String peer) throws IOException {
    storage.delete(DIR + "/" + peer);
  }

  /**
   * Takes a queue over for {@code newOwner}: renames it to {@code queue@newOwner}. Null when
   * another server took it first (the queue is gone).
   */
  public String claim(String peer, String queue, String newOwner) throws IOException {
    String claimed = queue + "@" + newOwner;
    String from = path(peer, queue);
    if (!storage.exists(from)) {
      return null;
    }
    try {
      storage.rename(from, path(peer, claimed));
    } catch (IOException e) {
      if (!storage.exists(from)) {
        return null; // another server renamed it first
      }
      throw e;
    }
    return claimed;
  }

  /**
   * Starts a new peer's queue on every log there is (each server's under {@code WALs/}, also one
   * being split after its server died), at the log's oldest segment, so that no edit written once
   * the peer exists is missed by a server that stops or dies before it hears of the peer. Queues
   * that exist are left as they are.
   */
  public void startOnEveryLog(String peer) throws IOException {
    for (String dir : storage.list(Wal.DIR)) {
      String server =
          dir.endsWith(WalSplitter.SPLITTING_SUFFIX)
              ? dir.substring(0, dir.length() - WalSplitter.SPLITTING_SUFFIX.length())
              : dir;
      long oldest = -1;
      for (String name : storage.list(Wal.DIR + "/" + dir)) {
        long n = Wal.segmentNumber(name);
        if (n >= 0 && (oldest < 0 || n < oldest)) {
          oldest = n;
        }
      }
      if (oldest >= 0 && read(peer, server) == null) {
        write(peer, server, WalPosition.startOf(oldest));
      }
    }
  }

  /**
   * For each server's log, the lowest segment some queue still has to read: the log cleaner keeps
   * that segment and every later one.
   */
  public Map<String, Long> neededSegments() throws IOException {
    Map<String, Long> out = new HashMap<>();
    for (String peer : peers()) {
      for (String queue : queues(peer)) {
        WalPosition pos = read(peer, queue);
        if (pos != null) {
          out.merge(logServer(queue), pos.segment(), Math::min);
        }
      }
    }
    return out;
  }
}
