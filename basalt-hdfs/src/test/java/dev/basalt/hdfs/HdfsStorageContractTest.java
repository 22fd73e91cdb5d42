package dev.basalt.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import dev.basalt.fs.StorageContractTest;
import java.io.Closeable;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The storage contract on a real HDFS (MiniDFSCluster), plus what only HDFS does: a lock file whose
 * holder died on this host is taken over at once by lease recovery.
 */
class HdfsStorageContractTest extends StorageContractTest {
  private static MiniDfs dfs;

  @BeforeAll
  static void startDfs() throws IOException {
    dfs = MiniDfs.start();
  }

  @AfterAll
  static void stopDfs() {
    dfs.close();
  }

  @Override
  protected Storage newStorage(String name) throws IOException {
    return dfs.storage(name);
  }

  @Override
  protected Storage otherClient(String name) throws IOException {
    return dfs.storage(name);
  }

  @Override
  protected boolean fencesLiveHolders() {
    return true;
  }

  @Test
  void aLockFileOfAHolderThatDiedOnThisHostIsRecoveredAtOnce() throws IOException {
    // A holder line naming a process of this host that is not running (pid 2^22 + 1 is above
    // Linux's pid_max default), held open by another client as the dead process left it.
    LockHolder dead = new LockHolder(4_194_305, 1, LockHolder.current().host());
    Closeable stale = other.tryLockFile("LOCK", dead.format());
    assertThat(stale).isNotNull();
    long start = System.nanoTime();
    Closeable mine = storage.tryLockFile("LOCK", LockHolder.current().format());
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(mine).as("taken from the dead holder").isNotNull();
    assertThat(millis).as("without waiting for the one-minute soft limit").isLessThan(30_000);
    assertThat(other.lockFileHolder("LOCK")).isEqualTo(LockHolder.current().format());
    mine.close();
    try {
      stale.close();
    } catch (IOException expected) {
      // its lease was taken away
    }
  }

  @Test
  void aLiveHolderOnAnotherHostKeepsItsLockFile() throws IOException {
    LockHolder elsewhere = new LockHolder(42, 1, "some-other-host");
    Closeable held = other.tryLockFile("LOCK", elsewhere.format());
    assertThat(storage.tryLockFile("LOCK", LockHolder.current().format())).isNull();
    held.close();
  }
}
