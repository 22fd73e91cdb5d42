package dev.basalt.server.standalone;

import dev.basalt.fs.Storage;
import dev.basalt.fs.Storages;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The root directory {@code hbase.rootdir} names: a local path or {@code file:} URI, or the URI of
 * another file system ({@code hdfs://namenode:8020/basalt}), whose storage basalt-hdfs provides. A
 * class of its own, without a logger, so that an entry point can find its root, and from it its log
 * directory ({@link ProcessLogs}), before anything initializes Logback: calling a method of a class
 * that has a static logger (such as {@link StandaloneServer}) creates that logger, which configures
 * Logback once for the JVM.
 */
public final class RootDirectory {
  private final String value;
  private final Path local; // null for a remote root

  private RootDirectory(String value, Path local) {
    this.value = value;
    this.local = local;
  }

  /**
   * @param value a local path, a {@code file:} URI, or another file system's URI
   * @throws IllegalArgumentException naming {@code hbase.rootdir} when empty
   */
  public static RootDirectory of(String value) {
    if (value.isEmpty()) {
      throw new IllegalArgumentException(StandaloneSettings.ROOT_DIR.key() + " is empty");
    }
    return new RootDirectory(value, Storages.localPath(value));
  }

  /** The configured root of {@code config}. */
  public static RootDirectory of(Config config) {
    return of(config.get(StandaloneSettings.ROOT_DIR));
  }

  public boolean isLocal() {
    return local != null;
  }

  /**
   * The local directory.
   *
   * @throws IllegalStateException for a remote root
   */
  public Path localPath() {
    if (local == null) {
      throw new IllegalStateException(value + " is not a local directory");
    }
    return local;
  }

  /**
   * Where this process keeps files of its own that do not belong on shared storage (its log file,
   * an embedded ZooKeeper's data): the root itself when it is local, else a directory named after
   * the root under {@code <java.io.tmpdir>/basalt-<user>} (HBase's {@code hbase.tmp.dir}), so that
   * two servers of one user on different remote roots do not share a ZooKeeper data directory:
   * {@code hdfs://nn:8020/basalt} keeps them in {@code basalt-<user>/hdfs_nn_8020_basalt}.
   */
  public Path localDirectory() {
    if (local != null) {
      return local;
    }
    String name = value.replaceAll("[^A-Za-z0-9.-]+", "_").replaceAll("^_+|_+$", "");
    return Path.of(
        System.getProperty("java.io.tmpdir"), "basalt-" + System.getProperty("user.name"), name);
  }

  /**
   * Opens the root's storage; a local root is created when missing, a remote one is not (see {@link
   * Storages#open}). The caller closes it.
   *
   * @throws IllegalArgumentException naming {@code hbase.rootdir} when the root cannot be used as
   *     configured (no storage for its scheme, its NameNode cannot be reached, no permission)
   */
  public Storage open(Config config) throws IOException {
    try {
      return Storages.open(value, config);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          StandaloneSettings.ROOT_DIR.key() + " = " + e.getMessage(), e);
    }
  }

  /** The root for messages: a local directory's absolute path, or the URI. */
  @Override
  public String toString() {
    return local != null ? local.toAbsolutePath().normalize().toString() : value;
  }
}
