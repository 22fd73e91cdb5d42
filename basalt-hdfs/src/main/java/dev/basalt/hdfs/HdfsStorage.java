package dev.basalt.hdfs;

import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * {@link Storage} on a Hadoop {@link FileSystem}: HDFS, and the other file systems Hadoop reaches
 * (whose streams must offer hflush and hsync for a log). How the promises of {@link Storage} are
 * kept:
 *
 * <ul>
 *   <li>{@link #rename} replaces its target atomically: {@code rename(src, dst, OVERWRITE)}, one
 *       NameNode operation (plain {@code FileSystem.rename} refuses an existing target).
 *   <li>{@link WritableFile#flush} is {@code hflush} (every DataNode of the pipeline has the bytes,
 *       and new readers see them), {@link WritableFile#sync} is {@code hsync} (on their disks).
 *   <li>Logs are created non-recursively ({@link #createNonRecursive}) and always replicated (an
 *       erasure-coded directory cannot hflush), as HBase creates its WAL files.
 *   <li>No directory is ever forced: the NameNode journals every namespace change before it
 *       answers.
 *   <li>Locks are leases ({@link HdfsLocks}); taking a directory's lock is lease recovery of its
 *       files ({@link LeaseRecovery}).
 * </ul>
 *
 * <p>Each storage opened by {@link HdfsStorageProvider} has a file system instance of its own, so
 * its own HDFS client and lease holder name: two storages in one JVM (a master and a region server
 * in a test) fence each other as two processes would. Thread-safe.
 */
final class HdfsStorage implements Storage {
  private static final int BUFFER = 64 * 1024;

  private final FileSystem fs;
  private final Path root;
  private final String rootText;
  private final LeaseRecovery leases;
  private final HdfsLocks locks;
  private final boolean ownsFileSystem;

  HdfsStorage(FileSystem fs, Path root, LeaseRecovery leases, boolean ownsFileSystem) {
    this.fs = fs;
    this.root = root;
    String r = root.toString();
    this.rootText = r.endsWith("/") ? r.substring(0, r.length() - 1) : r;
    this.leases = leases;
    this.locks = new HdfsLocks(this, fs, leases);
    this.ownsFileSystem = ownsFileSystem;
  }

  FileSystem fileSystem() {
    return fs;
  }

  /** The Hadoop path of a storage path; rejects absolute paths and paths that leave the root. */
  Path resolve(String path) {
    if (path.startsWith("/") || path.contains("\\")) {
      throw new IllegalArgumentException("storage paths are relative and use '/': " + path);
    }
    List<String> parts = new ArrayList<>();
    for (String p : path.split("/")) {
      if (p.isEmpty() || p.equals(".")) {
        continue;
      }
      if (p.equals("..")) {
        if (parts.isEmpty()) {
          throw new IllegalArgumentException("storage path escapes the root: " + path);
        }
        parts.remove(parts.size() - 1);
      } else {
        parts.add(p);
      }
    }
    return parts.isEmpty() ? root : new Path(root, String.join("/", parts));
  }

  @Override
  public WritableFile create(String path) throws IOException {
    Path p = resolve(path);
    try {
      return new HdfsWritableFile(fs.create(p, false), BUFFER);
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      throw alreadyExists(path, e);
    }
  }

  @Override
  public WritableFile createNonRecursive(String path) throws IOException {
    Path p = resolve(path);
    FSDataOutputStream out;
    try {
      if (fs instanceof DistributedFileSystem dfs) {
        // replicate(): an erasure-coded directory gives streams without hflush
        out = dfs.createFile(p).overwrite(false).replicate().build();
      } else {
        out = fs.createFile(p).overwrite(false).build();
      }
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      throw alreadyExists(path, e);
    }
    if (!out.hasCapability(StreamCapabilities.HFLUSH)
        || !out.hasCapability(StreamCapabilities.HSYNC)) {
      out.close();
      fs.delete(p, false);
      throw new IOException(
          describe(path)
              + ": this file system's streams have no hflush/hsync, so a log written here would"
              + " not survive a crash (use HDFS for the root directory)");
    }
    return new HdfsWritableFile(out, BUFFER);
  }

  private IOException alreadyExists(String path, IOException cause) {
    IOException e = new java.nio.file.FileAlreadyExistsException(describe(path));
    e.initCause(cause);
    return e;
  }

  @Override
  public ReadableFile open(String path) throws IOException {
    return HdfsReadableFile.open(fs, resolve(path));
  }

  @Override
  public boolean exists(String path) throws IOException {
    return fs.exists(resolve(path));
  }

  @Override
  public boolean isDirectory(String path) throws IOException {
    try {
      return fs.getFileStatus(resolve(path)).isDirectory();
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public long length(String path) throws IOException {
    return fs.getFileStatus(resolve(path)).getLen();
  }

  @Override
  public List<String> list(String dir) throws IOException {
    Path d = resolve(dir);
    FileStatus[] entries;
    try {
      entries = fs.listStatus(d);
    } catch (FileNotFoundException e) {
      return List.of();
    }
    List<String> out = new ArrayList<>(entries.length);
    for (FileStatus s : entries) {
      if (s.isFile() && entries.length == 1 && s.getPath().toUri().getPath().equals(pathOf(d))) {
        return List.of(); // listStatus of a file lists the file itself; a file has no entries
      }
      out.add(s.getPath().getName());
    }
    Collections.sort(out);
    return out;
  }

  private static String pathOf(Path p) {
    return p.toUri().getPath();
  }

  @Override
  public void rename(String from, String to) throws IOException {
    Path src = resolve(from);
    Path dst = resolve(to);
    Path parent = dst.getParent();
    if (parent != null && !fs.exists(parent)) {
      fs.mkdirs(parent);
    }
    if (fs instanceof DistributedFileSystem dfs) {
      dfs.rename(src, dst, Options.Rename.OVERWRITE);
    } else {
      FileContext.getFileContext(fs.getUri(), fs.getConf())
          .rename(src, dst, Options.Rename.OVERWRITE);
    }
  }

  @Override
  public boolean delete(String path) throws IOException {
    return fs.delete(resolve(path), true);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    Path d = resolve(dir);
    if (!fs.mkdirs(d)) {
      throw new IOException("could not create the directory " + describe(dir));
    }
  }

  @Override
  public String describe(String path) {
    return resolve(path).toString();
  }

  @Override
  public Closeable lockDirectory(String dir, String holderInfo) throws IOException {
    return locks.lockDirectory(dir, holderInfo);
  }

  @Override
  public Closeable tryLockDirectory(String dir) throws IOException {
    return locks.tryLockDirectory(dir);
  }

  @Override
  public String lockHolder(String dir) throws IOException {
    return locks.holder(dir + "/" + LOCK_FILE);
  }

  @Override
  public Closeable tryLockFile(String path, String holderInfo) throws IOException {
    return locks.tryLockFile(path, holderInfo);
  }

  @Override
  public String lockFileHolder(String path) throws IOException {
    return locks.holder(path);
  }

  @Override
  public Storage at(String dir) throws IOException {
    mkdirs(dir);
    return new HdfsStorage(fs, resolve(dir), leases, false);
  }

  @Override
  public void close() throws IOException {
    if (ownsFileSystem) {
      fs.close();
    }
  }

  @Override
  public String toString() {
    return rootText;
  }
}
