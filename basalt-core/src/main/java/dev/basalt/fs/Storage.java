package dev.basalt.fs;

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
 */
public interface Storage {

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
}
