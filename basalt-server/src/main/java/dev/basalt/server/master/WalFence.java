package dev.basalt.server.master;

import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalSplitter;
import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure no process can add to a dead region server's log before it is split: the first step of
 * a crash recovery. A region server holds its log directory's lock ({@link Storage#lockDirectory})
 * for as long as its process lives; the OS releases it when the process dies, kill -9 included. So
 * the master renames {@code WALs/<server>} to {@code WALs/<server>-splitting} (a server that is
 * merely slow finds its log gone when it next rolls) and then waits for the lock: once it has it,
 * the process that wrote the log is gone, and so is every write it could still make, acknowledged
 * or not.
 *
 * <p>A renamed file stays open for a paused process (SIGSTOP, a long GC pause), which could write
 * into it when it resumes; the lock is what covers that. Such a process holds the lock until it
 * dies, so when it runs on this host, and its lock file names it (pid and start time, so a reused
 * pid is never taken for it), the master kills it (SIGKILL), as HDFS's HA fencing does with its
 * predecessor; on another host it waits until the process ends (a resumed region server learns its
 * ZooKeeper session expired and stops). {@code basalt.master.fence.kill=false} makes it always
 * wait.
 */
final class WalFence {
  private static final Logger LOG = LoggerFactory.getLogger(WalFence.class);
  private static final long POLL_MILLIS = 50;
  private static final long LOG_EVERY_MILLIS = 10_000;

  private final Storage storage;
  private final boolean kill;

  WalFence(Storage storage, boolean kill) {
    this.storage = storage;
    this.kill = kill;
  }

  /** The directory a server's log is split from. */
  static String splittingDir(ServerName server) {
    return Wal.DIR + "/" + server + WalSplitter.SPLITTING_SUFFIX;
  }

  /**
   * Fences the server's log; returns once no process can write to it (true), or with false when the
   * server left no log. Idempotent: a repeat finds the directory renamed and the lock free.
   *
   * @param stopped polled while waiting for the lock; the fence gives up (InterruptedException)
   *     once it says true
   */
  boolean fence(ServerName server, BooleanSupplier stopped)
      throws IOException, InterruptedException {
    String live = Wal.DIR + "/" + server;
    String splitting = splittingDir(server);
    if (storage.isDirectory(live) && !storage.isDirectory(splitting)) {
      storage.rename(live, splitting);
    }
    if (!storage.isDirectory(splitting)) {
      return false;
    }
    long since = System.currentTimeMillis();
    long lastLog = since;
    long killed =
        -1; // the pid killed, so that a process still dying is not killed (and logged) again
    while (true) {
      Closeable lock = storage.tryLockDirectory(splitting);
      if (lock != null) {
        lock.close(); // its holder is dead; no one else ever takes this server's lock
        break;
      }
      if (stopped.getAsBoolean()) {
        throw new InterruptedException("stopped while fencing the log of " + server);
      }
      String holder = storage.lockHolder(splitting);
      LockHolder parsed = holder == null ? null : LockHolder.parse(holder);
      if (parsed != null && parsed.pid() == killed) {
        Thread.sleep(POLL_MILLIS); // dying: the OS releases its lock when it is gone
        continue;
      }
      if (killIfHere(server, parsed)) {
        killed = parsed.pid();
      } else {
        long now = System.currentTimeMillis();
        if (now - lastLog >= LOG_EVERY_MILLIS) {
          lastLog = now;
          LOG.warn(
              "the log of dead region server {} is still locked by its process ({}) after {} ms:"
                  + " waiting for that process to end before recovering its regions",
              server,
              holder,
              now - since);
        }
      }
      Thread.sleep(POLL_MILLIS);
    }
    adoptLateSegments(live, splitting);
    return true;
  }

  /**
   * A paused server that resumed after the rename may have rolled its log into a new {@code
   * WALs/<server>} before it died; those segments belong to the split too.
   */
  private void adoptLateSegments(String live, String splitting) throws IOException {
    if (!storage.isDirectory(live)) {
      return;
    }
    for (String name : storage.list(live)) {
      if (!storage.exists(splitting + "/" + name)) {
        storage.rename(live + "/" + name, splitting + "/" + name);
      } else {
        storage.delete(live + "/" + name);
      }
    }
    storage.delete(live);
  }

  /** Kills the lock's holder when it is a live process of this host; true when it did. */
  private boolean killIfHere(ServerName server, LockHolder holder) {
    if (!kill || holder == null || !holder.isAliveOnThisHost()) {
      return false; // elsewhere, gone (the lock is free on the next try), or its pid reused
    }
    Optional<ProcessHandle> p = ProcessHandle.of(holder.pid());
    if (p.isEmpty()) {
      return false;
    }
    LOG.warn(
        "fencing dead region server {}: its process {} on this host still holds its log;"
            + " killing it (SIGKILL)",
        server,
        holder.pid());
    return p.get().destroyForcibly();
  }
}
