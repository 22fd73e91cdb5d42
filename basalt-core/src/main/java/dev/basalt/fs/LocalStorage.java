package dev.basalt.fs;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@link Storage} on a local directory through NIO file channels. Durability: {@link
 * WritableFile#flush} hands bytes to the operating system, {@link WritableFile#sync} forces them
 * with {@code FileChannel.force}, and every change to a directory (a created, renamed or deleted
 * entry) is followed by a force of the directory itself, so that a crash of the machine cannot lose
 * a file whose creation or rename already returned. Directory and file locks are OS file locks
 * ({@link LocalDirectoryLocks}), released by the kernel when the holder dies.
 */
public final class LocalStorage implements Storage {
  private static final int BUFFER = 64 * 1024;

  private final Path root;

  public LocalStorage(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    Files.createDirectories(this.root);
  }

  public Path root() {
    return root;
  }

  private Path resolve(String path) {
    if (path.startsWith("/") || path.contains("\\")) {
      throw new IllegalArgumentException("storage paths are relative and use '/': " + path);
    }
    Path p = root.resolve(path).normalize();
    if (!p.startsWith(root)) {
      throw new IllegalArgumentException("storage path escapes the root: " + path);
    }
    return p;
  }

  @Override
  public WritableFile create(String path) throws IOException {
    Path p = resolve(path);
    Path parent = p.getParent();
    if (!Files.isDirectory(parent)) {
      mkdirs(root.relativize(parent).toString());
    }
    FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    syncDirectory(parent);
    return new LocalWritableFile(ch);
  }

  @Override
  public WritableFile createNonRecursive(String path) throws IOException {
    Path p = resolve(path);
    FileChannel ch;
    try {
      ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException("directory " + p.getParent() + " does not exist");
    }
    syncDirectory(p.getParent());
    return new LocalWritableFile(ch);
  }

  @Override
  public ReadableFile open(String path) throws IOException {
    Path p = resolve(path);
    try {
      return new LocalReadableFile(FileChannel.open(p, StandardOpenOption.READ));
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(p.toString());
    }
  }

  @Override
  public boolean exists(String path) {
    return Files.exists(resolve(path));
  }

  @Override
  public boolean isDirectory(String path) {
    return Files.isDirectory(resolve(path));
  }

  @Override
  public long length(String path) throws IOException {
    return Files.size(resolve(path));
  }

  @Override
  public List<String> list(String dir) throws IOException {
    Path d = resolve(dir);
    if (!Files.isDirectory(d)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(d)) {
      for (Path p : ds) {
        out.add(p.getFileName().toString());
      }
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public void rename(String from, String to) throws IOException {
    Path src = resolve(from);
    Path dst = resolve(to);
    if (!Files.isDirectory(dst.getParent())) {
      mkdirs(root.relativize(dst.getParent()).toString());
    }
    Files.move(src, dst, StandardCopyOption.ATOMIC_MOVE);
    syncDirectory(dst.getParent());
    if (!src.getParent().equals(dst.getParent())) {
      syncDirectory(src.getParent());
    }
  }

  @Override
  public boolean delete(String path) throws IOException {
    Path p = resolve(path);
    if (!Files.exists(p)) {
      return false;
    }
    if (Files.isDirectory(p)) {
      Files.walkFileTree(
          p,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc)
                throws IOException {
              if (exc != null) {
                throw exc;
              }
              Files.delete(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } else {
      Files.delete(p);
    }
    syncDirectory(p.getParent());
    return true;
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    Path d = resolve(dir);
    List<Path> created = new ArrayList<>();
    for (Path p = d; p != null && !Files.exists(p); p = p.getParent()) {
      created.add(p);
    }
    Files.createDirectories(d);
    for (Path p : created) {
      syncDirectory(p.getParent());
    }
  }

  @Override
  public String describe(String path) {
    return resolve(path).toString();
  }

  @Override
  public Closeable lockDirectory(String dir, String holderInfo) throws IOException {
    LocalDirectoryLocks.Attempt a = lock(dir, holderInfo);
    if (a.lock() == null) {
      throw new IOException(
          "directory "
              + describe(dir)
              + " is locked by "
              + (a.holder() == null ? "an unknown process" : "'" + a.holder() + "'"));
    }
    return a.lock();
  }

  @Override
  public Closeable tryLockDirectory(String dir) throws IOException {
    return lock(dir, null).lock();
  }

  private LocalDirectoryLocks.Attempt lock(String dir, String holderInfo) throws IOException {
    mkdirs(dir);
    Path lockFile = resolve(dir).resolve(LOCK_FILE);
    boolean existed = Files.exists(lockFile);
    LocalDirectoryLocks.Attempt a = LocalDirectoryLocks.tryLock(lockFile, holderInfo);
    if (!existed) {
      syncDirectory(lockFile.getParent());
    }
    return a;
  }

  /**
   * {@inheritDoc}
   *
   * <p>An OS file lock. Every lock this JVM takes on a file must go through here or {@link
   * #lockDirectory}: closing any other channel of the process on a locked file would release the
   * lock ({@link LocalDirectoryLocks}).
   */
  @Override
  public Closeable tryLockFile(String path, String holderInfo) throws IOException {
    Path file = resolve(path);
    if (!Files.isDirectory(file.getParent())) {
      mkdirs(root.relativize(file.getParent()).toString());
    }
    boolean existed = Files.exists(file);
    Closeable lock = LocalDirectoryLocks.tryLock(file, holderInfo).lock();
    if (!existed) {
      syncDirectory(file.getParent());
    }
    return lock;
  }

  @Override
  public String lockFileHolder(String path) throws IOException {
    return LocalDirectoryLocks.holder(resolve(path));
  }

  @Override
  public Storage at(String dir) throws IOException {
    return new LocalStorage(resolve(dir));
  }

  @Override
  public String lockHolder(String dir) throws IOException {
    return LocalDirectoryLocks.holder(resolve(dir).resolve(LOCK_FILE));
  }

  private static void syncDirectory(Path dir) throws IOException {
    if (dir == null) {
      return;
    }
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  private static final class LocalWritableFile implements WritableFile {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
    private long position;
    private boolean closed;

    LocalWritableFile(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      ensureOpen();
      if (len >= BUFFER) {
        drain();
        ByteBuffer src = ByteBuffer.wrap(b, off, len);
        while (src.hasRemaining()) {
          channel.write(src);
        }
      } else {
        if (buffer.remaining() < len) {
          drain();
        }
        buffer.put(b, off, len);
      }
      position += len;
    }

    private void drain() throws IOException {
      buffer.flip();
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      buffer.clear();
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public void flush() throws IOException {
      ensureOpen();
      drain();
    }

    @Override
    public void sync() throws IOException {
      flush();
      channel.force(false);
    }

    private void ensureOpen() throws IOException {
      if (closed) {
        throw new IOException("file is closed");
      }
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      try {
        drain();
      } finally {
        closed = true;
        channel.close();
      }
    }
  }

  private static final class LocalReadableFile implements ReadableFile {
    private final FileChannel channel;

    LocalReadableFile(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public int read(long position, byte[] buf, int off, int len) throws IOException {
      return channel.read(ByteBuffer.wrap(buf, off, len), position);
    }

    @Override
    public long length() throws IOException {
      return channel.size();
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
