package dev.basalt.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Storage} promises, run against each implementation: {@code
 * LocalStorageContractTest} here, {@code HdfsStorageContractTest} in basalt-hdfs on a
 * MiniDFSCluster. Where the two differ on purpose (a lock held by a live process: the local OS lock
 * waits for its death, HDFS lease recovery takes it away) the test says which promise it checks.
 */
public abstract class StorageContractTest {
  /** The storage under test, at a fresh root of its own. */
  protected Storage storage;

  /** The same root as another process sees it (HDFS: another client, another lease holder). */
  protected Storage other;

  /** A storage at a new, empty root for one test. */
  protected abstract Storage newStorage(String name) throws IOException;

  /** The same root through another client, as another process would reach it. */
  protected abstract Storage otherClient(String name) throws IOException;

  /** Whether taking a directory lock takes it away from a live holder (HDFS lease recovery). */
  protected abstract boolean fencesLiveHolders();

  private static int roots;

  @BeforeEach
  void openRoots() throws IOException {
    String name = "contract-" + (++roots);
    storage = newStorage(name);
    other = otherClient(name);
  }

  @AfterEach
  void closeRoots() throws IOException {
    other.close();
    storage.close();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String read(Storage s, String path) throws IOException {
    try (ReadableFile f = s.open(path)) {
      byte[] buf = new byte[(int) f.length()];
      f.readFully(0, buf, 0, buf.length);
      return new String(buf, StandardCharsets.UTF_8);
    }
  }

  private static void write(Storage s, String path, String text) throws IOException {
    try (WritableFile f = s.create(path)) {
      f.write(b(text));
      f.sync();
    }
  }

  @Test
  void createWritesANewFileAndMakesItsDirectories() throws IOException {
    try (WritableFile f = storage.create("a/b/c/file")) {
      f.write(b("hello "));
      assertThat(f.position()).isEqualTo(6);
      f.write(b("world"), 0, 5);
      assertThat(f.position()).isEqualTo(11);
    }
    assertThat(read(storage, "a/b/c/file")).isEqualTo("hello world");
    assertThat(storage.exists("a/b/c/file")).isTrue();
    assertThat(storage.isDirectory("a/b/c")).isTrue();
    assertThat(storage.isDirectory("a/b/c/file")).isFalse();
    assertThat(storage.length("a/b/c/file")).isEqualTo(11);
    assertThat(read(other, "a/b/c/file")).as("another process reads it").isEqualTo("hello world");
    assertThatThrownBy(() -> storage.create("a/b/c/file"))
        .isInstanceOf(FileAlreadyExistsException.class);
  }

  @Test
  void aLargeWriteReadsBackWhole() throws IOException {
    byte[] big = new byte[300_000];
    new java.util.Random(5).nextBytes(big);
    try (WritableFile f = storage.create("big")) {
      f.write(big, 0, 10);
      f.write(big, 10, big.length - 10);
    }
    try (ReadableFile f = storage.open("big")) {
      assertThat(f.length()).isEqualTo(big.length);
      byte[] got = new byte[big.length - 1000];
      f.readFully(1000, got, 0, got.length);
      assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(big, 1000, big.length));
      assertThat(f.read(big.length, new byte[1], 0, 1)).isEqualTo(-1);
      assertThatThrownBy(() -> f.readFully(big.length - 1, new byte[2], 0, 2))
          .isInstanceOf(java.io.EOFException.class);
    }
  }

  @Test
  void createNonRecursiveNeedsAnExistingDirectory() throws IOException {
    assertThatThrownBy(() -> storage.createNonRecursive("WALs/gone/wal-1"))
        .isInstanceOf(FileNotFoundException.class);
    assertThat(storage.exists("WALs/gone")).as("no directory was made").isFalse();
    storage.mkdirs("WALs/here");
    try (WritableFile f = storage.createNonRecursive("WALs/here/wal-1")) {
      f.write(b("x"));
      f.sync();
    }
    assertThat(read(storage, "WALs/here/wal-1")).isEqualTo("x");
    assertThatThrownBy(() -> storage.createNonRecursive("WALs/here/wal-1"))
        .isInstanceOf(FileAlreadyExistsException.class);
  }

  @Test
  void aFenceByRenameLeavesAWriterNowhereToCreateItsNextSegment() throws IOException {
    storage.mkdirs("WALs/s1");
    try (WritableFile f = storage.createNonRecursive("WALs/s1/wal-1")) {
      f.write(b("edit"));
      f.flush();
      other.rename("WALs/s1", "WALs/s1-splitting");
      assertThatThrownBy(() -> storage.createNonRecursive("WALs/s1/wal-2"))
          .isInstanceOf(FileNotFoundException.class);
    }
    assertThat(storage.list("WALs")).containsExactly("s1-splitting");
  }

  @Test
  void flushedBytesAreVisibleToAnotherReaderWhileTheFileIsOpen() throws IOException {
    try (WritableFile f = storage.create("WALs/s/wal-1")) {
      f.write(b("first"));
      f.flush();
      assertThat(read(other, "WALs/s/wal-1")).isEqualTo("first");
      f.write(b(" second"));
      f.sync();
      assertThat(read(other, "WALs/s/wal-1")).isEqualTo("first second");
    }
  }

  @Test
  void openOfAMissingFileIsFileNotFound() {
    assertThatThrownBy(() -> storage.open("nope")).isInstanceOf(FileNotFoundException.class);
    assertThatThrownBy(() -> storage.length("nope")).isInstanceOf(IOException.class);
  }

  @Test
  void listGivesSortedNamesAndNothingForAMissingDirectory() throws IOException {
    write(storage, "d/b", "1");
    write(storage, "d/a", "2");
    write(storage, "d/c/x", "3");
    assertThat(storage.list("d")).containsExactly("a", "b", "c");
    assertThat(storage.list("missing")).isEmpty();
    assertThat(storage.exists("missing")).isFalse();
    assertThat(storage.isDirectory("missing")).isFalse();
  }

  @Test
  void renameReplacesAnExistingTargetAtOnce() throws IOException {
    write(storage, "t/.tabledesc", "old");
    write(storage, "t/.tmp/.tabledesc", "new");
    try (ReadableFile before = other.open("t/.tabledesc")) {
      storage.rename("t/.tmp/.tabledesc", "t/.tabledesc");
      byte[] buf = new byte[3];
      before.readFully(0, buf, 0, 3);
      assertThat(new String(buf, StandardCharsets.UTF_8))
          .as("a reader that had the old file open keeps reading it")
          .isEqualTo("old");
    }
    assertThat(read(other, "t/.tabledesc")).isEqualTo("new");
    assertThat(storage.exists("t/.tmp/.tabledesc")).isFalse();
    assertThatThrownBy(() -> storage.rename("t/.tmp/.tabledesc", "t/x"))
        .isInstanceOf(IOException.class);
  }

  @Test
  void renameMakesTheTargetsDirectoryAndMovesDirectories() throws IOException {
    write(storage, "a/f", "1");
    storage.rename("a/f", "x/y/f");
    assertThat(read(storage, "x/y/f")).isEqualTo("1");
    write(storage, "WALs/s1/wal-1", "w");
    storage.rename("WALs/s1", "WALs/s1-splitting");
    assertThat(storage.list("WALs")).containsExactly("s1-splitting");
    assertThat(read(storage, "WALs/s1-splitting/wal-1")).isEqualTo("w");
  }

  @Test
  void deleteRemovesFilesAndTrees() throws IOException {
    write(storage, "d/a", "1");
    write(storage, "d/e/f", "2");
    assertThat(storage.delete("d/a")).isTrue();
    assertThat(storage.exists("d/a")).isFalse();
    assertThat(storage.delete("d")).isTrue();
    assertThat(storage.exists("d")).isFalse();
    assertThat(storage.delete("d")).isFalse();
  }

  @Test
  void mkdirsMakesEveryLevel() throws IOException {
    storage.mkdirs("p/q/r");
    assertThat(storage.isDirectory("p/q/r")).isTrue();
    storage.mkdirs("p/q/r"); // again: nothing to do
    assertThat(storage.list("p/q")).containsExactly("r");
  }

  @Test
  void aStorageAtASubdirectorySeesOnlyIt() throws IOException {
    Storage sub = storage.at("MasterData");
    write(sub, "data/f", "in");
    assertThat(read(storage, "MasterData/data/f")).isEqualTo("in");
    assertThat(sub.list("")).containsExactly("data");
    assertThat(sub.describe("data/f")).isEqualTo(storage.describe("MasterData/data/f"));
    sub.close(); // shares the parent's connections: the parent still works
    assertThat(read(storage, "MasterData/data/f")).isEqualTo("in");
  }

  @Test
  void pathsStayUnderTheRoot() {
    assertThatThrownBy(() -> storage.create("/abs")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> storage.create("../out")).isInstanceOf(IllegalArgumentException.class);
    assertThat(storage.describe("a/b")).endsWith("a/b");
  }

  @Test
  void aDirectoryLockIsExclusiveAndNamesItsHolder() throws IOException {
    Closeable held = storage.lockDirectory("WALs/s1", "pid=1 start=2 host=h");
    try {
      assertThat(other.lockHolder("WALs/s1")).isEqualTo("pid=1 start=2 host=h");
      assertThat(storage.list("WALs/s1")).containsExactly(Storage.LOCK_FILE);
      assertThatThrownBy(() -> other.lockDirectory("WALs/s1", "pid=3 start=4 host=h"))
          .hasMessageContaining("pid=1 start=2 host=h");
    } finally {
      held.close();
    }
    Closeable again = other.lockDirectory("WALs/s1", "pid=3 start=4 host=h");
    assertThat(storage.lockHolder("WALs/s1")).isEqualTo("pid=3 start=4 host=h");
    again.close();
  }

  @Test
  void tryLockDirectoryGetsAFreeLockAndLeavesTheHolderLine() throws IOException {
    assertThat(storage.lockHolder("WALs/new")).isNull();
    Closeable fresh = storage.tryLockDirectory("WALs/new");
    assertThat(fresh).as("a missing directory is nobody's").isNotNull();
    fresh.close();
    storage.lockDirectory("WALs/s1", "pid=1 start=2 host=h").close();
    Closeable lock = other.tryLockDirectory("WALs/s1");
    assertThat(lock).isNotNull();
    assertThat(storage.lockHolder("WALs/s1")).isEqualTo("pid=1 start=2 host=h");
    lock.close();
  }

  /**
   * The fence: a live writer holds its log's lock and a segment open, the directory is renamed away
   * and its lock taken. Locally the lock waits for the writer to die (it still writes); on HDFS the
   * lease recovery takes lock file and segment away, and the writer's next flush fails.
   */
  @Test
  void takingTheLockOfALiveWritersDirectory() throws Exception {
    Closeable held = storage.lockDirectory("WALs/s1", "pid=1 start=2 host=h");
    WritableFile segment = storage.createNonRecursive("WALs/s1/wal-1");
    segment.write(b("acknowledged"));
    segment.flush();
    other.rename("WALs/s1", "WALs/s1-splitting");
    Closeable fence = other.tryLockDirectory("WALs/s1-splitting");
    if (!fencesLiveHolders()) {
      assertThat(fence).as("the local lock waits for the holder to die").isNull();
      segment.write(b(" more"));
      segment.flush();
      segment.close();
      held.close();
      fence = other.tryLockDirectory("WALs/s1-splitting");
      assertThat(fence).isNotNull();
      fence.close();
      return;
    }
    long deadline = System.currentTimeMillis() + 60_000;
    while (fence == null && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
      fence = other.tryLockDirectory("WALs/s1-splitting");
    }
    assertThat(fence).as("lease recovery completes").isNotNull();
    assertThat(read(other, "WALs/s1-splitting/wal-1")).isEqualTo("acknowledged");
    assertThatThrownBy(
            () -> {
              segment.write(b(" lost"));
              segment.flush();
            })
        .as("the fenced writer cannot acknowledge another write")
        .isInstanceOf(IOException.class);
    assertThat(read(other, "WALs/s1-splitting/wal-1")).isEqualTo("acknowledged");
    closeQuietly(segment);
    closeQuietly(held);
    fence.close();
  }

  @Test
  void aFileLockKeepsOthersOutUntilClosed() throws IOException {
    Closeable lock = storage.tryLockFile("MasterData/LOCK", "pid=1 start=2 host=h");
    assertThat(lock).isNotNull();
    assertThat(other.lockFileHolder("MasterData/LOCK")).isEqualTo("pid=1 start=2 host=h");
    assertThat(other.tryLockFile("MasterData/LOCK", "pid=3 start=4 host=h")).isNull();
    assertThat(storage.tryLockFile("MasterData/LOCK", "pid=3 start=4 host=h"))
        .as("not twice in one process either")
        .isNull();
    lock.close();
    Closeable next = other.tryLockFile("MasterData/LOCK", "pid=3 start=4 host=h");
    assertThat(next).isNotNull();
    assertThat(storage.lockFileHolder("MasterData/LOCK")).isEqualTo("pid=3 start=4 host=h");
    next.close();
    assertThat(storage.lockFileHolder("missing")).isNull();
  }

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException expected) {
      // a fenced file cannot close cleanly
    }
  }

  /** For subclasses: the names of a directory, for messages. */
  protected List<String> names(String dir) throws IOException {
    return storage.list(dir);
  }
}
