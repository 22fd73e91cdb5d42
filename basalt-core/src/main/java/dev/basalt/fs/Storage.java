package dev.basalt.fs;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * The storage the engine writes through: just what the WAL and store files need. Paths are
 * '/'-separated and relative to the storage root (e.g. {@code data/default/t1/.tabledesc}), so the
 * same engine runs on a local directory or, later, on HDFS.
 *
 * <p>Guarantees every implementation gives: {@link #create} never exposes another writer's file;
 * {@link #rename} is atomic (readers see the old name or the new one, never a half state) and
 * durable once it returns; {@link WritableFile#sync()} makes written bytes survive a crash of the
 * machine. Implementations are thread-safe; the files they return are not.
 *
 * <p>A directory lock ({@link #lockDirectory}) fences a writer: a region server holds the lock of
 * its log directory for its whole life, and whoever recovers the log after a crash takes it first,
 * which succeeds only once no live process can write there any more.
 */
public interface Storage {
  /** The lock file of a locked directory ({@link #lockDirectory}). */
  String LOCK_FILE = ".lock";

  /**
   * Creates a new file for sequential writing, creating missing parent directories.
   *
   * @throws java.nio.file.FileAlreadyExistsException when the file exists
   */
  WritableFile create(String path) throws IOException;

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

  /** Cuts a file to {@code length} bytes and syncs it (used to drop a torn WAL tail). */
  void truncate(String path, long length) throws IOException;

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
   * The lock of {@code dir} when no live process holds it (the caller then holds it until close),
   * null while one does. The lock file is found at its current path: the holder's lock stays held
   * across a rename of {@code dir} (it is on the file, not the name). A missing directory or lock
   * file is created (nobody can hold what does not exist); the holder line in it is left as it is,
   * naming the last holder.
   */
  Closeable tryLockDirectory(String dir) throws IOException;

  /** The holderInfo last written into {@code dir}'s lock file, or null when there is none. */
  String lockHolder(String dir) throws IOException;
}
