package dev.basalt.wal;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.SealedFile;
import dev.basalt.fs.Storage;
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
 * offset (8), CRC32C of the first 20 bytes (4): a {@link SealedFile}. Thread-safe (stateless over
 * the storage).
 */
public final class ReplicationQueues {
  /** The directory of every queue. */
  public static final String DIR = "replication/queues";

  private static final byte[] MAGIC = "BRQ1".getBytes(StandardCharsets.US_ASCII);

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
    byte[] b = SealedFile.read(storage, path, MAGIC, "a replication position");
    if (b == null) {
      return null; // never there, or taken over or removed meanwhile
    }
    if (b.length != 16) {
      throw new IOException(storage.describe(path) + " is not a replication position (length)");
    }
    return new WalPosition(Bytes.readLong(b, 0), Bytes.readLong(b, 8));
  }

  /**
   * Stores a queue's position (creating the queue), flushed: a crash of the machine may lose the
   * newest position, which only ships a batch again.
   */
  public void write(String peer, String queue, WalPosition pos) throws IOException {
    byte[] b = new byte[16];
    Bytes.putLong(b, 0, pos.segment());
    Bytes.putLong(b, 8, pos.offset());
    SealedFile.write(storage, path(peer, queue), MAGIC, b, false);
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
      startOnLog(peer, dir);
    }
  }

  /**
   * Starts {@code peer}'s queue on {@code server}'s own log at its oldest segment, unless the queue
   * exists or the log has no segment yet (a server that hears of a peer added before it started).
   */
  public void startOnOwnLog(String peer, String server) throws IOException {
    startOnLog(peer, server);
  }

  private void startOnLog(String peer, String logDir) throws IOException {
    String server =
        logDir.endsWith(WalSplitter.SPLITTING_SUFFIX)
            ? logDir.substring(0, logDir.length() - WalSplitter.SPLITTING_SUFFIX.length())
            : logDir;
    long oldest = -1;
    for (String name : storage.list(Wal.DIR + "/" + logDir)) {
      long n = Wal.segmentNumber(name);
      if (n >= 0 && (oldest < 0 || n < oldest)) {
        oldest = n;
      }
    }
    if (oldest >= 0 && read(peer, server) == null) {
      write(peer, server, WalPosition.startOf(oldest));
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
