package dev.basalt.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Directory locks of {@link LocalStorage}: exclusive in this JVM and across processes, kept across
 * a rename of the directory, released by close and by the death of the holding process (kill -9).
 */
class DirectoryLockTest {
  @TempDir Path root;

  @Test
  void aLockIsExclusiveInThisProcessAndNamesItsHolder() throws Exception {
    LocalStorage s = new LocalStorage(root);
    assertThat(s.lockHolder("WALs/a")).as("no lock file yet").isNull();
    Closeable lock = s.lockDirectory("WALs/a", "pid=1 start=2 host=h");
    assertThat(s.exists("WALs/a/" + Storage.LOCK_FILE)).isTrue();
    assertThat(s.lockHolder("WALs/a")).isEqualTo("pid=1 start=2 host=h");
    assertThatThrownBy(() -> s.lockDirectory("WALs/a", "pid=3 start=4 host=h"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(s.describe("WALs/a"))
        .hasMessageContaining("pid=1 start=2 host=h");
    LocalStorage other = new LocalStorage(root); // another instance on the same root, same JVM
    assertThat(other.tryLockDirectory("WALs/a")).isNull();
    assertThat(other.lockHolder("WALs/a")).isEqualTo("pid=1 start=2 host=h");
    // None of these may have released the lock (closing any channel of a process on a POSIX-locked
    // file would): another process still cannot take it.
    assertThat(probe("WALs/a")).as("held, seen from another process").isEqualTo(3);
    lock.close();
    assertThat(probe("WALs/a")).as("released, seen from another process").isZero();
    lock.close(); // twice is fine
    Closeable again = other.tryLockDirectory("WALs/a");
    assertThat(again).isNotNull();
    assertThat(s.lockHolder("WALs/a"))
        .as("tryLock leaves the line")
        .isEqualTo("pid=1 start=2 host=h");
    assertThat(s.tryLockDirectory("WALs/a")).isNull();
    again.close();
    try (Closeable third = s.lockDirectory("WALs/a", "pid=5 start=6 host=h")) {
      assertThat(s.lockHolder("WALs/a")).isEqualTo("pid=5 start=6 host=h");
    }
  }

  @Test
  void theLockFollowsItsDirectoryThroughARename() throws IOException {
    LocalStorage s = new LocalStorage(root);
    Closeable lock = s.lockDirectory("WALs/h,1,1", "pid=1 start=2 host=h");
    s.rename("WALs/h,1,1", "WALs/h,1,1-splitting");
    assertThat(s.tryLockDirectory("WALs/h,1,1-splitting")).as("still held").isNull();
    assertThat(s.lockHolder("WALs/h,1,1-splitting")).isEqualTo("pid=1 start=2 host=h");
    lock.close();
    Closeable taken = s.tryLockDirectory("WALs/h,1,1-splitting");
    assertThat(taken).isNotNull();
    taken.close();
  }

  @Test
  void tryLockCreatesAMissingDirectory() throws IOException {
    LocalStorage s = new LocalStorage(root);
    try (Closeable lock = s.tryLockDirectory("WALs/none-splitting")) {
      assertThat(lock).isNotNull();
      assertThat(s.isDirectory("WALs/none-splitting")).isTrue();
      assertThat(s.lockHolder("WALs/none-splitting")).isNull();
    }
  }

  @Test
  void anotherProcessHoldsTheLockUntilItIsKilled() throws Exception {
    LocalStorage s = new LocalStorage(root);
    Path ready = root.resolve("ready");
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb =
        new ProcessBuilder(
            javaBin,
            "-Xmx64m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            LockChildMain.class.getName(),
            "hold",
            root.toString(),
            "WALs/child",
            ready.toString());
    pb.redirectErrorStream(true);
    pb.redirectOutput(root.resolve("child.out").toFile());
    Process p = pb.start();
    try {
      long deadline = System.currentTimeMillis() + 60_000;
      while (!Files.exists(ready) && p.isAlive() && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(Files.exists(ready))
          .as("child locked (see %s)", root.resolve("child.out"))
          .isTrue();

      LockHolder holder = LockHolder.parse(s.lockHolder("WALs/child"));
      assertThat(holder).isNotNull();
      assertThat(holder.pid()).isEqualTo(p.pid());
      assertThat(holder.isAliveOnThisHost()).isTrue();
      assertThatThrownBy(() -> s.lockDirectory("WALs/child", "me"))
          .hasMessageContaining(holder.format());
      // Reading the holder and failed attempts here must not release the child's lock (closing a
      // channel of this JVM on a POSIX-locked file would release only this JVM's locks; check
      // anyway that the child's survives both).
      for (int i = 0; i < 3; i++) {
        assertThat(s.tryLockDirectory("WALs/child")).isNull();
        s.lockHolder("WALs/child");
      }
      s.rename("WALs/child", "WALs/child-splitting");
      assertThat(s.tryLockDirectory("WALs/child-splitting")).as("held across the rename").isNull();

      p.destroyForcibly(); // SIGKILL
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(holder.isAliveOnThisHost()).isFalse();
      Closeable lock = null;
      deadline = System.currentTimeMillis() + 10_000;
      while (lock == null && System.currentTimeMillis() < deadline) {
        lock = s.tryLockDirectory("WALs/child-splitting");
        if (lock == null) {
          Thread.sleep(20);
        }
      }
      assertThat(lock).as("the kernel released the dead holder's lock").isNotNull();
      lock.close();
    } finally {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Runs a child JVM that tries to take the lock: 0 when it could, 3 when it could not. */
  private int probe(String dir) throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                LockChildMain.class.getName(),
                "probe",
                root.toString(),
                dir)
            .redirectErrorStream(true)
            .redirectOutput(root.resolve("probe.out").toFile())
            .start();
    try {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("probe ended").isTrue();
      return p.exitValue();
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void theHolderLineRoundTrips() {
    LockHolder me = LockHolder.current();
    assertThat(me.pid()).isEqualTo(ProcessHandle.current().pid());
    assertThat(LockHolder.parse(me.format())).isEqualTo(me);
    assertThat(LockHolder.parse(me.format() + "\n")).isEqualTo(me);
    assertThat(me.isAliveOnThisHost()).isTrue();
    assertThat(LockHolder.parse("pid=12 start=-1 host=a.b").host()).isEqualTo("a.b");
    assertThat(new LockHolder(me.pid(), me.startMillis() - 60_000, me.host()).isAliveOnThisHost())
        .as("the pid was reused by another process")
        .isFalse();
    assertThat(new LockHolder(me.pid(), me.startMillis(), "elsewhere").isAliveOnThisHost())
        .isFalse();
    for (String bad :
        new String[] {
          null,
          "",
          "pid=x start=1 host=h",
          "pid=1 start=1",
          "host=h pid=1 start=1",
          "pid=0 start=1 host=h",
          "pid=1 start=1 host="
        }) {
      assertThat(LockHolder.parse(bad)).as("'%s'", bad).isNull();
    }
  }
}
