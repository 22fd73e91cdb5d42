package dev.basalt.fs;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM for {@link DirectoryLockTest}. {@code hold <root> <dir> <ready file>}: takes the lock
 * of a directory, writes the ready file and sleeps until it is killed. {@code probe <root> <dir>}:
 * exits with 0 when it could take the lock, 3 when another process holds it.
 */
public final class LockChildMain {
  private LockChildMain() {}

  public static void main(String[] args) throws Exception {
    LocalStorage storage = new LocalStorage(Path.of(args[1]));
    if (args[0].equals("probe")) {
      Closeable lock = storage.tryLockDirectory(args[2]);
      System.exit(lock == null ? 3 : 0);
    }
    Closeable lock = storage.lockDirectory(args[2], LockHolder.current().format());
    Files.writeString(Path.of(args[3]), "locked");
    Thread.sleep(120_000); // the test kills it long before; bounded in case it does not
    lock.close();
  }
}
