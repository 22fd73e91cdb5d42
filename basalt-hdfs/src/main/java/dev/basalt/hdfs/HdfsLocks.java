package dev.basalt.hdfs;

import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Locks on HDFS are leases: a lock file held open for writing belongs to its writer's HDFS client
 * as long as that client renews its lease (every few seconds while the process lives); the NameNode
 * refuses to let another client create over it ({@code AlreadyBeingCreatedException}). A dead
 * client's lease expires after the soft limit (60 s), when the next create over the file makes the
 * NameNode recover it ({@code RecoveryInProgressException}, then the create succeeds); {@code
 * recoverLease} takes it at once, from a dead writer or a live one.
 *
 * <ul>
 *   <li>{@link #lockDirectory}: creates (or appends to a closed, stale one) and keeps open {@code
 *       <dir>/.lock} with the holder's line, flushed so that others can read it; the last line
 *       names the holder.
 *   <li>{@link #tryLockDirectory}: the fence. Lease recovery of every file in the directory (lock
 *       file and logs), then the lock file held open for append until closed.
 *   <li>{@link #tryLockFile}: like {@link #lockDirectory} for one file, null while a live holder
 *       has it; a holder that died on this host (its line names a process that is gone) has its
 *       lease recovered at once instead of after the soft limit.
 * </ul>
 */
final class HdfsLocks {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsLocks.class);
  private static final String BEING_CREATED =
      "org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException";
  private static final String RECOVERY_IN_PROGRESS =
      "org.apache.hadoop.hdfs.protocol.RecoveryInProgressException";
  private static final long POLL_MILLIS = 100;

  /** How long a lock attempt waits for the recovery of a dead holder's lock file. */
  private static final long RECOVERY_WAIT_MILLIS = 30_000;

  private final HdfsStorage storage;
  private final FileSystem fs;
  private final LeaseRecovery leases;

  HdfsLocks(HdfsStorage storage, FileSystem fs, LeaseRecovery leases) {
    this.storage = storage;
    this.fs = fs;
    this.leases = leases;
  }

  Closeable lockDirectory(String dir, String holderInfo) throws IOException {
    storage.mkdirs(dir);
    String lockPath = dir + "/" + Storage.LOCK_FILE;
    try {
      return hold(storage.resolve(lockPath), holderInfo);
    } catch (IOException e) {
      if (!isLeaseConflict(e)) {
        throw e;
      }
      String holder = holder(lockPath);
      throw new IOException(
          "directory "
              + storage.describe(dir)
              + " is locked by "
              + (holder == null ? "another HDFS client" : "'" + holder + "'"),
          e);
    }
  }

  Closeable tryLockDirectory(String dir) throws IOException {
    storage.mkdirs(dir);
    Path d = storage.resolve(dir);
    boolean allClosed = true;
    for (FileStatus s : fs.listStatus(d)) {
      if (s.isFile() && !leases.closed(s.getPath())) {
        allClosed = false; // go on: every open file's recovery starts in this call
      }
    }
    if (!allClosed) {
      return null;
    }
    Path lock = new Path(d, Storage.LOCK_FILE);
    try {
      FSDataOutputStream out =
          fs.exists(lock) ? fs.append(lock) : fs.createFile(lock).overwrite(false).build();
      return closer(out, lock);
    } catch (IOException e) {
      if (isLeaseConflict(e) || e instanceof org.apache.hadoop.fs.FileAlreadyExistsException) {
        return null; // another client took it in between
      }
      throw e;
    }
  }

  Closeable tryLockFile(String path, String holderInfo) throws IOException {
    Path p = storage.resolve(path);
    if (p.getParent() != null) {
      fs.mkdirs(p.getParent());
    }
    boolean recovered = false;
    while (true) {
      try {
        return hold(p, holderInfo);
      } catch (IOException e) {
        if (!isLeaseConflict(e)) {
          throw e;
        }
        if (recovered) {
          return null;
        }
        boolean inProgress = RECOVERY_IN_PROGRESS.equals(remoteClass(e));
        LockHolder h = LockHolder.parse(holder(path));
        boolean deadHere = h != null && h.isOnThisHost() && !h.isAliveOnThisHost();
        if (!inProgress && !deadHere) {
          return null; // a live holder, or one elsewhere whose lease has not expired yet
        }
        if (deadHere) {
          LOG.info("{}: its holder ({}) is gone; recovering its lease", storage.describe(path), h);
        }
        awaitClosed(p);
        recovered = true;
      }
    }
  }

  /**
   * The last line of a lock file (each holder appends its own and flushes it), or null when the
   * file is missing or empty.
   */
  String holder(String path) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (InputStream in = fs.open(storage.resolve(path))) {
      in.transferTo(b);
    } catch (FileNotFoundException e) {
      return null;
    }
    String s = b.toString(StandardCharsets.UTF_8).strip();
    String line = s.substring(s.lastIndexOf('\n') + 1).strip();
    return line.isEmpty() ? null : line;
  }

  /**
   * Takes the lease of {@code p} and appends the holder's line. A new file is created; an existing
   * one is opened for append, which succeeds only when it is closed (a past holder's): both fail
   * while another client holds the file. (A create with overwrite would not: the NameNode deletes a
   * file under construction for it, whoever writes it.)
   */
  private Closeable hold(Path p, String holderInfo) throws IOException {
    FSDataOutputStream out;
    try {
      out = fs.create(p, false);
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException closed) {
      out = fs.append(p);
    }
    try {
      out.write((holderInfo + "\n").getBytes(StandardCharsets.UTF_8));
      out.hflush();
    } catch (IOException | RuntimeException e) {
      try {
        out.close();
      } catch (IOException suppressed) {
        if (suppressed != e) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    return closer(out, p);
  }

  private static Closeable closer(FSDataOutputStream out, Path p) {
    return new Closeable() {
      private boolean closed;

      @Override
      public synchronized void close() throws IOException {
        if (!closed) {
          closed = true;
          try {
            out.close();
          } catch (IOException e) {
            // a lock taken away by lease recovery cannot close cleanly; it is released either way
            LOG.debug("lock file {} did not close cleanly", p, e);
          }
        }
      }
    };
  }

  private void awaitClosed(Path p) throws IOException {
    long deadline = System.currentTimeMillis() + RECOVERY_WAIT_MILLIS;
    while (!leases.closed(p)) {
      if (System.currentTimeMillis() >= deadline) {
        return; // the next attempt says whether it is free
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while recovering the lease of " + p);
      }
    }
  }

  /** Another client holds (or held, and its lease is being recovered) the file's lease. */
  static boolean isLeaseConflict(IOException e) {
    String c = remoteClass(e);
    return BEING_CREATED.equals(c) || RECOVERY_IN_PROGRESS.equals(c);
  }

  private static String remoteClass(IOException e) {
    return e instanceof RemoteException r ? r.getClassName() : e.getClass().getName();
  }
}
