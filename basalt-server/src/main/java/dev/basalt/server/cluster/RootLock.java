package dev.basalt.server.cluster;

import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import java.io.Closeable;
import java.io.IOException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock on a root directory's {@code LOCK} file that the process changing its catalog holds: a
 * standalone server's database, or a cluster's active master. Locally the kernel releases it when
 * the process dies, so a new active master waits for it while the previous one lives (a paused
 * master whose ZooKeeper session expired cannot go on writing the catalog beside it), and a
 * standalone server cannot open a cluster's root while its master runs. On HDFS it is the file's
 * lease ({@link Storage#tryLockFile}): the new master waits while the previous one renews it, and
 * takes it when it died on this host or HDFS expired its lease (a minute after its last renewal).
 */
final class RootLock implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RootLock.class);
  private static final long POLL_MILLIS = 200;
  static final String FILE = "LOCK";

  private final Closeable lock;

  private RootLock(Closeable lock) {
    this.lock = lock;
  }

  /**
   * Takes the lock, waiting while another process (or another master of this JVM, in tests) holds
   * it.
   *
   * @param stop checked while waiting; when true the wait ends with an IOException
   */
  static RootLock acquire(Storage root, BooleanSupplier stop) throws IOException {
    boolean logged = false;
    try {
      while (true) {
        Closeable l = root.tryLockFile(FILE, LockHolder.current().format());
        if (l != null) {
          return new RootLock(l);
        }
        if (stop.getAsBoolean()) {
          throw new IOException("stopped while waiting for the lock of " + root.describe(""));
        }
        if (!logged) {
          LOG.warn(
              "waiting for the lock of {}: another process (a previous master, or a standalone"
                  + " server) still holds it ({})",
              root.describe(""),
              root.lockFileHolder(FILE));
          logged = true;
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the lock of " + root.describe(""), e);
    }
  }

  @Override
  public void close() {
    try {
      lock.close();
    } catch (IOException e) {
      LOG.warn("could not release the root lock cleanly", e);
    }
  }
}
