package dev.basalt.db;

import dev.basalt.fs.Storage;
import dev.basalt.util.Clock;
import dev.basalt.wal.ReplicationQueues;
import dev.basalt.wal.Wal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes what the database has archived once nobody can need it: WAL segments in {@code oldWALs/}
 * (every edit in them is persisted in store files) and store files in {@code archive/} (compacted
 * away; readers that were open on them hold their own handles). Each file is kept for a time to
 * live after this cleaner first sees it, as HBase's log and HFile cleaners keep them, so that tools
 * copying the archive (backups, later replication) have a window.
 *
 * <p>Ages are counted from the first sighting rather than from a modification time, which the
 * storage interface does not offer and which an archive rename would not change anyway; after a
 * restart every file starts a new time to live, which only ever keeps files longer. Directories
 * stay: a compaction may be about to move a file into one. A time to live of 0 deletes a file at
 * the first run that sees it (HBase's meaning).
 *
 * <p>Replication: a log segment some replication queue has not read yet ({@link ReplicationQueues})
 * is kept past its time to live, however long that takes: a peer that is down or disabled only
 * delays it, and once past {@link CleanerSettings#REPLICATION_RETAINED_WARN} bytes every run warns,
 * naming the peers. The queues are read once per run before anything is deleted; when they cannot
 * be read no segment is deleted that run (HBase's ReplicationLogCleaner behaves the same way).
 *
 * <p>Not thread-safe: one chore thread runs it.
 */
public final class ArchiveCleaner {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveCleaner.class);

  /** One directory tree to clean and how long its files are kept. */
  record Root(String dir, long ttlMillis) {}

  private final Storage storage;
  private final List<Root> roots;
  private final Clock clock;
  private final Map<String, Long> firstSeen = new HashMap<>();
  private final ReplicationQueues queues;
  private final long retainedWarnBytes;

  ArchiveCleaner(Storage storage, List<Root> roots, Clock clock) {
    this(storage, roots, clock, Long.MAX_VALUE);
  }

  ArchiveCleaner(Storage storage, List<Root> roots, Clock clock, long retainedWarnBytes) {
    this.storage = storage;
    this.roots = List.copyOf(roots);
    this.clock = clock;
    this.queues = new ReplicationQueues(storage);
    this.retainedWarnBytes = retainedWarnBytes;
  }

  /**
   * The cleaner for a root directory (a database's, or a cluster's: its {@code oldWALs/} and {@code
   * archive/}) with the configured times to live.
   */
  public static ArchiveCleaner forDatabase(
      Storage storage, long walTtlMillis, long fileTtlMillis, Clock clock) {
    return forDatabase(storage, walTtlMillis, fileTtlMillis, clock, Long.MAX_VALUE);
  }

  /** {@link #forDatabase}, warning when replication keeps more than {@code retainedWarnBytes}. */
  public static ArchiveCleaner forDatabase(
      Storage storage, long walTtlMillis, long fileTtlMillis, Clock clock, long retainedWarnBytes) {
    return new ArchiveCleaner(
        storage,
        List.of(new Root(Wal.OLD_DIR, walTtlMillis), new Root("archive", fileTtlMillis)),
        clock,
        retainedWarnBytes);
  }

  /**
   * Deletes every file whose time to live has passed.
   *
   * @return the number of files deleted
   */
  public int run() throws IOException {
    long now = clock.currentTimeMillis();
    Set<String> present = new HashSet<>();
    int deleted = 0;
    Map<String, Long> needed = neededSegments();
    long retained = 0;
    for (Root root : roots) {
      List<String> files = new ArrayList<>();
      collect(root.dir(), files);
      boolean logs = root.dir().equals(Wal.OLD_DIR);
      for (String f : files) {
        present.add(f);
        long seen = firstSeen.computeIfAbsent(f, k -> now);
        if (now - seen < root.ttlMillis()) {
          continue;
        }
        if (logs && (needed == null || isNeeded(f, needed))) {
          retained += needed == null ? 0 : storage.length(f);
          continue;
        }
        if (storage.delete(f)) {
          deleted++;
          present.remove(f);
        }
      }
    }
    if (retained > retainedWarnBytes) {
      LOG.warn(
          "{} MB of WAL segments in {}/ are kept only because replication queues of peers {} have"
              + " not read them: a peer is down, slow or disabled (remove a peer that is not coming"
              + " back: remove_peer)",
          retained >> 20,
          Wal.OLD_DIR,
          queues.peers());
    }
    firstSeen.keySet().retainAll(present);
    if (deleted > 0) {
      LOG.info("deleted {} archived files past their time to live", deleted);
    }
    return deleted;
  }

  /** The replication queues' needs, or null (keep every segment) when they cannot be read. */
  private Map<String, Long> neededSegments() {
    try {
      return queues.neededSegments();
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot read the replication queues; no WAL segment is deleted this time", e);
      return null;
    }
  }

  /** Whether {@code oldWALs/<server>.wal-N} is one a queue still has to read. */
  private static boolean isNeeded(String path, Map<String, Long> needed) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    for (Map.Entry<String, Long> e : needed.entrySet()) {
      long n = Wal.archivedSegmentNumber(name, e.getKey());
      if (n >= 0 && n >= e.getValue()) {
        return true;
      }
    }
    return false;
  }

  /** Files tracked and not yet deleted, for tests and figures. */
  int trackedFiles() {
    return firstSeen.size();
  }

  private void collect(String dir, List<String> out) throws IOException {
    for (String name : storage.list(dir)) {
      String path = dir + "/" + name;
      if (storage.isDirectory(path)) {
        collect(path, out);
      } else {
        out.add(path);
      }
    }
  }
}
