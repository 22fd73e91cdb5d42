package dev.basalt.wal;

import dev.basalt.fs.Storage;
import dev.basalt.fs.StorageSettings;
import dev.basalt.util.config.Config;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a log directory over from its previous writer before the log is replayed and continued: an
 * embedded database's {@code WALs/local}, whose owner already holds the database's lock.
 *
 * <p>Locally that lock proves the previous process is dead (the kernel released it), so the log
 * lock is free at once. On HDFS the database's lock is a lease, which a paused process may have
 * lost while it still holds its log files open; their lease recovery ({@link
 * Storage#tryLockDirectory}) takes them away, so that its next flush fails and it acknowledges
 * nothing the replay misses. The log lock is then held with this process's line until the log
 * closes.
 */
public final class LogTakeover {
  private static final Logger LOG = LoggerFactory.getLogger(LogTakeover.class);

  private LogTakeover() {}

  /**
   * Fences {@code dir} and locks it for this process.
   *
   * @throws IOException when the files are still open after {@code hbase.lease.recovery.timeout}
   */
  public static Closeable take(Storage storage, String dir, String holderInfo, Config config)
      throws IOException {
    long pause = config.get(StorageSettings.LEASE_RECOVERY_PAUSE);
    long timeout = config.get(StorageSettings.LEASE_RECOVERY_TIMEOUT);
    long start = System.nanoTime();
    boolean logged = false;
    while (true) {
      Closeable fenced = storage.tryLockDirectory(dir);
      if (fenced != null) {
        fenced.close();
        break;
      }
      long waited = (System.nanoTime() - start) / 1_000_000;
      if (waited >= timeout) {
        throw new IOException(
            "the log "
                + storage.describe(dir)
                + " is still open for a previous writer after "
                + waited
                + " ms of lease recovery ("
                + StorageSettings.LEASE_RECOVERY_TIMEOUT.key()
                + ")");
      }
      if (!logged) {
        LOG.info(
            "waiting for the files of {} to be taken from their previous writer ({})",
            storage.describe(dir),
            storage.lockHolder(dir));
        logged = true;
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while fencing " + storage.describe(dir));
      }
    }
    if (logged) {
      LOG.info(
          "took {} over after {} ms",
          storage.describe(dir),
          (System.nanoTime() - start) / 1_000_000);
    }
    return storage.lockDirectory(dir, holderInfo);
  }
}
