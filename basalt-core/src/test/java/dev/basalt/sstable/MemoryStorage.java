package dev.basalt.sstable;

import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Storage} in memory for store file tests: fast (no fsync), and lets tests flip and cut
 * bytes of a file. Written bytes become visible to readers when the file is closed. Counts open
 * readable files so tests can check readers close theirs.
 */
final class MemoryStorage implements Storage {
  private final Map<String, byte[]> files = new TreeMap<>();
  final AtomicInteger openReaders = new AtomicInteger();

  synchronized byte[] bytes(String path) {
    byte[] b = files.get(path);
    if (b == null) {
      throw new IllegalArgumentException("no file " + path);
    }
    return b.clone();
  }

  synchronized void put(String path, byte[] bytes) {
    files.put(path, bytes.clone());
  }

  synchronized List<String> paths() {
    return new ArrayList<>(files.keySet());
  }

  @Override
  public synchronized WritableFile create(String path) throws IOException {
    if (files.containsKey(path)) {
      throw new FileAlreadyExistsException(path);
    }
    files.put(path, new byte[0]);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    return new WritableFile() {
      boolean closed;

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
          throw new IOException("closed");
        }
        out.write(b, off, len);
      }

      @Override
      public long position() {
        return out.size();
      }

      @Override
      public void flush() {}

      @Override
      public void sync() {}

      @Override
      public void close() {
        if (!closed) {
          closed = true;
          synchronized (MemoryStorage.this) {
            if (files.containsKey(path)) {
              files.put(path, out.toByteArray());
            }
          }
        }
      }
    };
  }

  /** There are no directories here: the same as {@link #create}. */
  @Override
  public WritableFile createNonRecursive(String path) throws IOException {
    return create(path);
  }

  @Override
  public synchronized ReadableFile open(String path) throws IOException {
    byte[] b = files.get(path);
    if (b == null) {
      throw new FileNotFoundException(path);
    }
    openReaders.incrementAndGet();
    return new ReadableFile() {
      boolean closed;

      @Override
      public int read(long position, byte[] buf, int off, int len) throws IOException {
        if (closed) {
          throw new IOException("closed");
        }
        if (position >= b.length) {
          return -1;
        }
        int n = (int) Math.min(len, b.length - position);
        System.arraycopy(b, (int) position, buf, off, n);
        return n;
      }

      @Override
      public long length() {
        return b.length;
      }

      @Override
      public void close() {
        if (!closed) {
          closed = true;
          openReaders.decrementAndGet();
        }
      }
    };
  }

  @Override
  public synchronized boolean exists(String path) {
    return files.containsKey(path);
  }

  @Override
  public boolean isDirectory(String path) {
    return false;
  }

  @Override
  public synchronized long length(String path) throws IOException {
    byte[] b = files.get(path);
    if (b == null) {
      throw new FileNotFoundException(path);
    }
    return b.length;
  }

  @Override
  public synchronized List<String> list(String dir) {
    String prefix = dir.endsWith("/") ? dir : dir + "/";
    List<String> out = new ArrayList<>();
    for (String p : files.keySet()) {
      if (p.startsWith(prefix) && p.indexOf('/', prefix.length()) < 0) {
        out.add(p.substring(prefix.length()));
      }
    }
    return out;
  }

  @Override
  public synchronized void rename(String from, String to) throws IOException {
    byte[] b = files.remove(from);
    if (b == null) {
      throw new FileNotFoundException(from);
    }
    files.put(to, b);
  }

  @Override
  public synchronized boolean delete(String path) {
    return files.remove(path) != null;
  }

  @Override
  public void mkdirs(String dir) {}

  @Override
  public synchronized java.io.Closeable tryLockFile(String path, String holderInfo) {
    if (!locked.add(path)) {
      return null;
    }
    files.put(path, holderInfo.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return () -> {
      synchronized (MemoryStorage.this) {
        locked.remove(path);
      }
    };
  }

  @Override
  public synchronized String lockFileHolder(String path) {
    byte[] b = files.get(path);
    return b == null || b.length == 0
        ? null
        : new String(b, java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public Storage at(String dir) {
    throw new UnsupportedOperationException("store file tests use one root");
  }

  @Override
  public String describe(String path) {
    return "mem:" + path;
  }

  /** Lock files held, by path (a process of its own is not modelled: nothing dies here). */
  private final java.util.Set<String> locked = new java.util.HashSet<>();

  @Override
  public synchronized java.io.Closeable lockDirectory(String dir, String holderInfo)
      throws IOException {
    java.io.Closeable c = tryLockDirectory(dir);
    if (c == null) {
      throw new IOException("directory mem:" + dir + " is locked by '" + lockHolder(dir) + "'");
    }
    files.put(dir + "/" + LOCK_FILE, holderInfo.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return c;
  }

  @Override
  public synchronized java.io.Closeable tryLockDirectory(String dir) {
    String path = dir + "/" + LOCK_FILE;
    if (!locked.add(path)) {
      return null;
    }
    files.putIfAbsent(path, new byte[0]);
    return () -> {
      synchronized (MemoryStorage.this) {
        locked.remove(path);
      }
    };
  }

  @Override
  public synchronized String lockHolder(String dir) {
    byte[] b = files.get(dir + "/" + LOCK_FILE);
    return b == null || b.length == 0
        ? null
        : new String(b, java.nio.charset.StandardCharsets.UTF_8);
  }
}
