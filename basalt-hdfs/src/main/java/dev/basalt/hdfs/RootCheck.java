package dev.basalt.hdfs;

import dev.basalt.fs.StorageSettings;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RpcException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a server checks about an HDFS root before it uses it, through a client that gives up fast:
 * the NameNode answers (else {@link IllegalArgumentException}, which the launcher reports with exit
 * code 2, naming the URI); this user may read and write the root, or create it (else the same); the
 * NameNode is out of safe mode, in which it refuses every write (waited for, up to {@code
 * basalt.fs.safemode.wait}, as HBase's master waits at start).
 */
final class RootCheck {
  private static final Logger LOG = LoggerFactory.getLogger(RootCheck.class);
  private static final long SAFE_MODE_LOG_MILLIS = 10_000;
  private static final long SAFE_MODE_POLL_MILLIS = 500;

  private RootCheck() {}

  static void check(URI root, Path rootPath, Configuration conf, Config config) throws IOException {
    long timeout = config.get(StorageSettings.CONNECT_TIMEOUT);
    Configuration probe = HadoopConfigurations.probe(conf, timeout);
    ExecutorService t =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread th = new Thread(r, "basalt-hdfs-root-check");
              th.setDaemon(true);
              return th;
            });
    try {
      // A thread of its own bounds the whole check, whatever the client's retry settings do.
      Future<FileSystem> opened = t.submit(() -> reach(root, rootPath, probe));
      FileSystem fs;
      try {
        fs = opened.get(timeout * 3 + 1000, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        opened.cancel(true);
        throw unreachable(root, "no answer within " + (timeout * 3 + 1000) + " ms", null);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof IllegalArgumentException iae) {
          throw iae;
        }
        if (c instanceof IOException io) {
          throw io;
        }
        throw new IOException(c);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while checking " + root);
      }
      try {
        awaitSafeModeOff(root, fs, config.get(StorageSettings.SAFE_MODE_WAIT));
      } finally {
        fs.close();
      }
    } finally {
      t.shutdownNow();
    }
  }

  /** Connects, checks access; returns the probe's file system (the caller closes it). */
  private static FileSystem reach(URI root, Path rootPath, Configuration probe) throws IOException {
    FileSystem fs;
    try {
      fs = FileSystem.newInstance(root, probe);
    } catch (IOException e) {
      throw explain(root, e);
    } catch (IllegalArgumentException e) {
      // the HDFS client wraps an unknown NameNode host this way
      if (e.getCause() instanceof UnknownHostException u) {
        throw unreachable(root, "unknown host " + u.getMessage(), e);
      }
      throw new IllegalArgumentException(root + ": " + firstLine(e.getMessage()), e);
    }
    try {
      Path p = fs.makeQualified(rootPath);
      Path existing = p;
      while (existing != null && !fs.exists(existing)) {
        existing = existing.getParent();
      }
      if (existing == null) {
        throw new IllegalArgumentException(root + ": not even its file system's root exists");
      }
      // The root itself: read, write and list. Else the nearest existing ancestor, to create it.
      fs.access(existing, existing.equals(p) ? FsAction.ALL : FsAction.WRITE_EXECUTE);
      return fs;
    } catch (IOException e) {
      fs.close();
      throw explain(root, e);
    } catch (RuntimeException e) {
      fs.close();
      throw e;
    }
  }

  /**
   * A root that cannot be used as configured (unreachable, no permission, unknown scheme) throws
   * {@link IllegalArgumentException}; anything else comes back as an IOException naming the root.
   */
  private static IOException explain(URI root, IOException e) {
    if (e instanceof AccessControlException) {
      throw new IllegalArgumentException(
          root
              + ": permission denied for user "
              + userName()
              + " ("
              + firstLine(e.getMessage())
              + ")",
          e);
    }
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof ConnectException
          || c instanceof UnknownHostException
          || c instanceof NoRouteToHostException
          || c instanceof SocketTimeoutException) {
        throw unreachable(root, firstLine(c.toString()), e);
      }
    }
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof RpcException) {
        // something answers at that address, but not Hadoop's RPC (a web port, a proxy)
        throw unreachable(
            root, "the address does not answer as a NameNode: " + firstLine(c.getMessage()), e);
      }
    }
    if (e.getMessage() != null && e.getMessage().startsWith("No FileSystem for scheme")) {
      throw new IllegalArgumentException(root + ": " + e.getMessage(), e);
    }
    return new IOException(root + ": " + firstLine(e.getMessage()), e);
  }

  /** The user HDFS sees (Kerberos, HADOOP_USER_NAME or the OS user). */
  private static String userName() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      return System.getProperty("user.name");
    }
  }

  private static IllegalArgumentException unreachable(URI root, String why, Throwable cause) {
    return new IllegalArgumentException(
        "cannot reach the NameNode of " + root + " (" + why + ")", cause);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static void awaitSafeModeOff(URI root, FileSystem fs, long waitMillis)
      throws IOException {
    if (!(fs instanceof DistributedFileSystem dfs)) {
      return;
    }
    long start = System.currentTimeMillis();
    long lastLog = 0;
    while (dfs.setSafeMode(SafeModeAction.GET)) {
      long waited = System.currentTimeMillis() - start;
      if (waited >= waitMillis) {
        throw new IOException(
            "the NameNode of "
                + root
                + " is in safe mode (it refuses writes)"
                + (waitMillis > 0 ? "; waited " + waited + " ms (basalt.fs.safemode.wait)" : ""));
      }
      if (waited - lastLog >= SAFE_MODE_LOG_MILLIS || lastLog == 0) {
        LOG.warn("the NameNode of {} is in safe mode; waiting for it to leave", root);
        lastLog = Math.max(waited, 1);
      }
      try {
        Thread.sleep(SAFE_MODE_POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for safe mode to end");
      }
    }
  }
}
