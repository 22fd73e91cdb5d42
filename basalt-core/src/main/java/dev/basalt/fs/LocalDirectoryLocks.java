package dev.basalt.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The directory locks of {@link LocalStorage}: an OS lock ({@link FileChannel#tryLock}) on the
 * directory's lock file, which the kernel drops when the holding process dies, also by {@code kill
 * -9}.
 *
 * <p>Why a registry of the locks this JVM holds: on Linux these are POSIX record locks, which
 * belong to the process, and closing <em>any</em> channel of the process on the file releases them
 * (the JDK documents this; a probe confirmed it on JDK 17). So this JVM must never open and close a
 * lock file it holds: reading the holder line, or a second attempt to lock it (a master and region
 * servers of one test JVM), goes through the channel already open. Locks are found by the file's
 * key (device and inode), not by path, so a held lock is still recognised after its directory was
 * renamed. Every open of a lock file happens under one monitor, so no other thread of this JVM can
 * close a channel on a file while it is being locked.
 */
final class LocalDirectoryLocks {
  private static final Object MONITOR = new Object();

  /** Locks this JVM holds, by file key. Guarded by MONITOR. */
  private static final Map<Object, Held> HELD = new HashMap<>();

  /**
   * Channels on which {@link OverlappingFileLockException} was raised: some code of this JVM holds
   * the file's lock outside this registry, and closing them would release it. Kept open for good.
   */
  private static final List<FileChannel> PARKED = new ArrayList<>();

  private LocalDirectoryLocks() {}

  /** A lock attempt's outcome: the held lock, or the current holder's line. */
  record Attempt(Closeable lock, String holder) {}

  private static final class Held implements Closeable {
    final Object key;
    final FileChannel channel;
    final FileLock lock;
    boolean released;

    Held(Object key, FileChannel channel, FileLock lock) {
      this.key = key;
      this.channel = channel;
      this.lock = lock;
    }

    @Override
    public void close() throws IOException {
      synchronized (MONITOR) {
        if (released) {
          return;
        }
        released = true;
        HELD.remove(key);
        try {
          lock.release();
        } finally {
          channel.close();
        }
      }
    }
  }

  /**
   * Tries to lock {@code lockFile} (created when missing; its directory must exist), writing {@code
   * holderInfo} into it when taken (null: leave the line as it is).
   *
   * @return the lock, or (lock null) the line of whoever holds it, in this JVM or another process
   */
  static Attempt tryLock(Path lockFile, String holderInfo) throws IOException {
    synchronized (MONITOR) {
      Held here = HELD.get(fileKey(lockFile));
      if (here != null) {
        return new Attempt(null, read(here.channel));
      }
      FileChannel ch =
          FileChannel.open(
              lockFile,
              StandardOpenOption.CREATE,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      boolean keep = false;
      try {
        Object key = fileKey(lockFile);
        FileLock lock;
        try {
          lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
          PARKED.add(ch);
          keep = true;
          return new Attempt(null, read(ch));
        }
        if (lock == null) {
          return new Attempt(null, read(ch)); // closing ch is safe: this JVM holds no lock on it
        }
        if (holderInfo != null) {
          byte[] line = (holderInfo + "\n").getBytes(StandardCharsets.UTF_8);
          ch.truncate(0);
          ByteBuffer b = ByteBuffer.wrap(line);
          for (long at = 0; b.hasRemaining(); ) {
            at += ch.write(b, at);
          }
          ch.force(true);
        }
        Held held = new Held(key, ch, lock);
        HELD.put(key, held);
        keep = true;
        return new Attempt(held, null);
      } finally {
        if (!keep) {
          ch.close();
        }
      }
    }
  }

  /** The line in {@code lockFile} (without its line end), or null when it is missing or empty. */
  static String holder(Path lockFile) throws IOException {
    synchronized (MONITOR) {
      Object key = fileKey(lockFile);
      if (key == null) {
        return null;
      }
      Held here = HELD.get(key);
      if (here != null) {
        return read(here.channel);
      }
      try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.READ)) {
        return read(ch); // this JVM holds no lock on the file, so closing releases nothing
      } catch (NoSuchFileException e) {
        return null;
      }
    }
  }

  private static String read(FileChannel ch) throws IOException {
    long size = ch.size();
    if (size == 0) {
      return null;
    }
    ByteBuffer b = ByteBuffer.allocate((int) Math.min(size, 64 * 1024));
    while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
      // positional reads: the holder's channel position is not moved
    }
    String s = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
    int end = s.length();
    while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
      end--;
    }
    return end == 0 ? null : s.substring(0, end);
  }

  /** The file's identity (device and inode on Linux), or null when it does not exist. */
  private static Object fileKey(Path p) throws IOException {
    try {
      Object key = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
      return key != null ? key : p.toRealPath(); // platforms without file keys: the real path
    } catch (NoSuchFileException e) {
      return null;
    }
  }
}
