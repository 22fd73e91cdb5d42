package dev.basalt.hdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes files away from their writers: HDFS lease recovery, as HBase's RecoverLeaseFSUtils does it
 * but without its fixed 4 s first pause. {@code recoverLease} revokes the writer's lease at once
 * (its next hflush fails) and asks the primary DataNode to recover the last block, which it does at
 * its next heartbeat; the file is closed when that is done. Each call of {@code recoverLease}
 * starts the block recovery anew, so a file gets one call, then is only polled with {@code
 * isFileClosed}, and gets another call only after {@code hbase.lease.recovery.dfs.timeout}
 * (HBASE-8354). Thread-safe.
 */
final class LeaseRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseRecovery.class);

  private final FileSystem fs;
  private final long retryNanos;

  /** When recoverLease was last called per file; guarded by this. */
  private final Map<Path, Long> started = new HashMap<>();

  private boolean warnedNoLeases;

  LeaseRecovery(FileSystem fs, long retryMillis) {
    this.fs = fs;
    this.retryNanos = retryMillis * 1_000_000;
  }

  /**
   * True once {@code file} is closed (or gone); else starts (or, after the retry time, restarts)
   * its lease recovery and returns false. Does not wait.
   */
  boolean closed(Path file) throws IOException {
    if (!(fs instanceof LeaseRecoverable lr)) {
      synchronized (this) {
        if (!warnedNoLeases) {
          warnedNoLeases = true;
          LOG.warn(
              "{} has no leases: a writer of its files cannot be fenced (use HDFS for the root)",
              fs.getUri());
        }
      }
      return true;
    }
    try {
      if (lr.isFileClosed(file)) {
        forget(file);
        return true;
      }
      long now = System.nanoTime();
      synchronized (this) {
        Long at = started.get(file);
        if (at != null && now - at < retryNanos) {
          return false;
        }
        started.put(file, now);
      }
      LOG.info("recovering the lease of {}", file);
      if (lr.recoverLease(file)) {
        forget(file);
        return true;
      }
      return false;
    } catch (FileNotFoundException gone) {
      forget(file);
      return true;
    }
  }

  private synchronized void forget(Path file) {
    started.remove(file);
  }
}
