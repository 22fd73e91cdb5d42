package dev.basalt.fs;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * The storage the engine writes through: just what the WAL and store files need. Paths are
 * '/'-separated and relative to the storage root (e.g. {@code data/default/t1/.tabledesc}), so the
 * same engine runs on a local directory ({@link LocalStorage}) or on HDFS (basalt-hdfs, chosen by
 * the root's URI: {@link Storages#open}).
 *
 * <p>Guarantees every implementation gives: {@link #create} never exposes another writer's file;
 * {@link #rename} is atomic (readers see the old name or the new one, never a half state) and
 * durable once it returns, and replaces an existing target; {@link WritableFile#flush()} makes
 * written bytes survive a crash of the process (HDFS: hflush, in the memory of every DataNode of
 * the pipeline) and {@link WritableFile#sync()} a crash of the machine (HDFS: hsync); created,
 * renamed and deleted entries are durable when the call returns (local: the directory is forced;
 * HDFS: the NameNode journals them). Implementations are thread-safe; the files they return are
 * not.
 *
 * <p>Fencing. A directory lock ({@link #lockDirectory}) fences a writer: a region server holds the
 * lock of its log directory for its whole life, and whoever recovers the log after a crash takes it
 * first ({@link #tryLockDirectory}), which succeeds only once no live process can write there any
 * more. Locally the lock is an OS file lock that the kernel drops when the holder dies, so the
 * recovery waits for the holder's death. On HDFS it is the lease of an open lock file, and taking
 * it is lease recovery of every file of the directory: the files are taken away from their writer,
 * dead or alive, whose next flush fails. Logs are created with {@link #createNonRecursive}, so a
 * fenced writer whose directory was renamed away cannot make a new one.
 *
 * <p>A storage opened by {@link Storages#open} may hold connections (HDFS): its owner closes it;
 * the storages {@link #at} returns share their parent's and need no close.
 */
public interface Storage extends Closeable {
  /** The lock file of a locked directory ({@link #lockDirectory}). */
  String LOCK_FILE = ".lock";

  /**
   * Creates a new file for sequential writing, creating missing parent directories.
   *
   * @throws java.nio.file.FileAlreadyExistsException when the file exists
   */
  WritableFile create(String path) throws IOException;

  /**
   * Creates a new file for sequential writing in an existing directory: a log's segment. Unlike
   * {@link #create}, a missing directory is not created (HBase creates its WAL files the same way):
   * a writer whose log directory was renamed away to fence it cannot make a new one. The file's
   * {@link WritableFile#flush} and {@link WritableFile#sync} must hold their promise; a storage
   * that cannot keep it (an object store without hflush) refuses to create the file.
   *
   * @throws java.io.FileNotFoundException when the directory does not exist
   * @throws java.nio.file.FileAlreadyExistsException when the file exists
   */
  WritableFile createNonRecursive(String path) throws IOException;

  /**
   * Opens a file for positional reads.
   *
   * @throws java.io.FileNotFoundException when it does not exist
   */
  ReadableFile open(String path) throws IOException;

  boolean exists(String path) throws IOException;

  /** True when the path names a directory. */
  boolean isDirectory(String path) throws IOException;

  long length(String path) throws IOException;

  /** Names (not paths) of the entries of a directory, sorted; empty when it does not exist. */
  List<String> list(String dir) throws IOException;

  /**
   * Atomically moves {@code from} to {@code to}, replacing {@code to} if it exists, and makes the
   * change durable.
   */
  void rename(String from, String to) throws IOException;

  /** Deletes a file or a directory tree; false when nothing was there. */
  boolean delete(String path) throws IOException;

  /** Creates a directory and its parents, durably. */
  void mkdirs(String dir) throws IOException;

  /** A full description of the path for error messages (e.g. the absolute local path). */
  String describe(String path);

  /**
   * Takes the exclusive lock of {@code dir} (creating {@code dir} and its lock file {@link
   * #LOCK_FILE}), writing {@code holderInfo} into the lock file; held until the returned handle is
   * closed or this process dies.
   *
   * @throws IOException naming {@code dir} and the holder's info when another process (or this one)
   *     holds it
   */
  Closeable lockDirectory(String dir, String holderInfo) throws IOException;

  /**
   * The lock of {@code dir} once no live process can write to it any more (the caller then holds it
   * until close), null until then; it does not wait, callers poll. Locally: once no live process
   * holds the lock, which the holder keeps across a rename of {@code dir} (it is on the file, not
   * the name), so a paused holder keeps the directory until it dies. On HDFS: once every file of
   * {@code dir} is closed; a call starts the lease recovery of the files still open (taking them
   * from their writer, alive or dead, whose next flush fails) and later calls see whether it
   * finished. A missing directory or lock file is created (nobody can hold what does not exist);
   * the holder line in it is left as it is, naming the last holder.
   */
  Closeable tryLockDirectory(String dir) throws IOException;

  /** The holderInfo last written into {@code dir}'s lock file, or null when there is none. */
  String lockHolder(String dir) throws IOException;

  /**
   * Locks one file for this process (creating it, and its directory, when missing), writing {@code
   * holderInfo} into it, or returns null while another holder lives, this process included (a
   * second open of the same database in one JVM). Held until closed or until the process dies.
   * Locally an OS file lock; on HDFS the file's lease, kept by holding it open for writing: the
   * lease of a holder that died on this host (its {@link LockHolder} line names a process that no
   * longer runs) is recovered at once, that of a holder elsewhere once HDFS expires it (the soft
   * limit, a minute after its last renewal); this may wait a few seconds while that completes.
   */
  Closeable tryLockFile(String path, String holderInfo) throws IOException;

  /** The line last written into a lock file ({@link #tryLockFile}), or null when there is none. */
  String lockFileHolder(String path) throws IOException;

  /**
   * The same storage with its root at the directory {@code dir} (created when missing): a database
   * inside a cluster's root, such as the master's store. Shares this storage's connections; closing
   * it does nothing.
   */
  Storage at(String dir) throws IOException;

  /** Releases connections (HDFS); files still open are not closed. Local storage holds none. */
  @Override
  default void close() throws IOException {}
}
