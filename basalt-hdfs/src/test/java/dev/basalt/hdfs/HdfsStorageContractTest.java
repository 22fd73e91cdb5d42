package dev.basalt.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import dev.basalt.fs.StorageContractTest;
import dev.basalt.fs.StorageSettings;
import dev.basalt.fs.Storages;
import dev.basalt.util.config.Config;
import java.io.Closeable;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The storage contract on a real HDFS (MiniDFSCluster), plus what only HDFS does: a lock file whose
 * holder died on this host is taken over at once by lease recovery, and opening a root checks that
 * this user may write it and waits while the NameNode is in safe mode.
 */
class HdfsStorageContractTest extends StorageContractTest {
  private static MiniDfs dfs;

  @BeforeAll
  static void startDfs() throws IOException {
    dfs = MiniDfs.shared();
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

  @Test
  void aRootThisUserMayNotWriteIsRefusedNamingIt() throws Exception {
    DistributedFileSystem admin = dfs.cluster().getFileSystem();
    admin.mkdirs(new Path("/private"), new FsPermission((short) 0700));
    admin.mkdirs(new Path("/shared"), new FsPermission((short) 0755));
    UserGroupInformation alice = UserGroupInformation.createRemoteUser("alice");
    for (String root : new String[] {dfs.uri() + "/private/basalt", dfs.uri() + "/shared"}) {
      assertThatThrownBy(
              () ->
                  alice.doAs(
                      (PrivilegedExceptionAction<Storage>)
                          () -> Storages.open(root, MiniDfs.config().build())))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(root)
          .hasMessageContaining("permission denied for user alice");
    }
  }

  @Test
  void aNameNodeInSafeModeIsWaitedForOrRefused() throws Exception {
    DistributedFileSystem admin = dfs.cluster().getFileSystem();
    String root = dfs.uri() + "/safe";
    admin.setSafeMode(SafeModeAction.ENTER);
    try {
      Config noWait = MiniDfs.config().set(StorageSettings.SAFE_MODE_WAIT.key(), "0").build();
      assertThatThrownBy(() -> Storages.open(root, noWait))
          .isInstanceOf(IOException.class)
          .hasMessageContaining(root)
          .hasMessageContaining("safe mode");

      Thread leave =
          new Thread(
              () -> {
                try {
                  Thread.sleep(1500);
                  admin.setSafeMode(SafeModeAction.LEAVE);
                } catch (Exception e) {
                  throw new RuntimeException(e);
                }
              });
      leave.start();
      long start = System.nanoTime();
      Config wait = MiniDfs.config().set(StorageSettings.SAFE_MODE_WAIT.key(), "60000").build();
      try (Storage s = Storages.open(root, wait)) {
        s.mkdirs("");
        assertThat((System.nanoTime() - start) / 1_000_000).as("waited").isGreaterThan(1000);
      }
      leave.join();
    } finally {
      admin.setSafeMode(SafeModeAction.LEAVE);
    }
  }
}
