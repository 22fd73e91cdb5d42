package dev.basalt.db;

import dev.basalt.fs.Storage;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes files from {@code archive/} once they have been there for {@code
 * hbase.master.hfilecleaner.ttl} (nothing reads archived files yet; snapshots and replication will
 * keep theirs). Files are timed from the first run that sees them (the storage interface has no
 * modification times), so a restart gives every archived file a new full period. Runs on the
 * maintenance chore thread only. Not thread-safe.
 */
final class ArchiveCleaner {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveCleaner.class);
  private static final String ROOT = "archive";

  private final Storage storage;
  private final Clock clock;
  private final long ttlMillis;
  private final Map<String, Long> firstSeen = new HashMap<>();

  ArchiveCleaner(Storage storage, Clock clock, long ttlMillis) {
    this.storage = storage;
    this.clock = clock;
    this.ttlMillis = ttlMillis;
  }

  /** Deletes what has been archived for long enough; returns how many files it deleted. */
  int run() throws IOException {
    if (ttlMillis <= 0) {
      return 0;
    }
    long now = clock.currentTimeMillis();
    Set<String> present = new HashSet<>();
    int deleted = clean(ROOT, now, present);
    firstSeen.keySet().retainAll(present);
    return deleted;
  }

  private int clean(String dir, long now, Set<String> present) throws IOException {
    int deleted = 0;
    for (String name : storage.list(dir)) {
      String path = dir + "/" + name;
      if (storage.isDirectory(path)) {
        // Directories stay: a file being archived right now may need its directory.
        deleted += clean(path, now, present);
        continue;
      }
      long seen = firstSeen.computeIfAbsent(path, p -> now);
      if (now - seen >= ttlMillis) {
        storage.delete(path);
        deleted++;
      } else {
        present.add(path);
      }
    }
    if (deleted > 0) {
      LOG.debug("deleted {} archived files under {}", deleted, dir);
    }
    return deleted;
  }
}
