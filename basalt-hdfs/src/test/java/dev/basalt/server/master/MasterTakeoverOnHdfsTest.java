package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import dev.basalt.hdfs.MiniDfs;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A new active master takes an HDFS root from one that still runs but renews no lease (paused, or
 * cut off from the NameNode): the root's {@code LOCK} (what {@code RootLock.acquire} polls for,
 * through {@link Storage#tryLockFile}) once HDFS expired the old holder's lease, then the master
 * store under {@code MasterData}, whose opening takes the old master's store log by lease recovery.
 * The old master can then log no transition, and the new master holds every transition the old one
 * had acknowledged.
 */
class MasterTakeoverOnHdfsTest {
  private static MiniDfs dfs;

  @BeforeAll
  static void startDfs() throws IOException {
    dfs = MiniDfs.shared();
  }

  @Test
  void aNewMasterFencesTheStoreLogOfOneThatLostItsLease() throws Exception {
    try (Storage a = dfs.storageOfItsOwn("takeover");
        Storage b = dfs.storage("takeover")) {
      Closeable rootLockA = a.tryLockFile("LOCK", LockHolder.current().format());
      assertThat(rootLockA).isNotNull();
      MasterStore old = MasterStore.open(a);
      old.putRegions(Map.of("r1", "OPEN on rs1"));
      assertThat(b.tryLockFile("LOCK", LockHolder.current().format()))
          .as("kept out while the old master renews its lease")
          .isNull();

      // The old master stops renewing; its leases expire after the soft limit, 1 s here (60 s).
      MiniDfs.stopRenewingLeases(a);
      dfs.cluster().setLeasePeriod(1_000, 20 * 60_000);
      MasterStore store;
      long start = System.nanoTime();
      try {
        Closeable rootLock = null;
        while (rootLock == null) {
          assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(60_000);
          Thread.sleep(200); // RootLock.acquire's poll
          rootLock = b.tryLockFile("LOCK", LockHolder.current().format());
        }
        store = openWhenFree(b);
        System.out.printf(
            "master take-over on HDFS (root lock after a 1 s soft limit, then the store log"
                + " fenced and replayed): %d ms%n",
            (System.nanoTime() - start) / 1_000_000);
        rootLock.close();
      } finally {
        dfs.cluster().setLeasePeriod(60_000, 20 * 60_000); // HDFS's defaults
      }

      assertThatThrownBy(() -> old.putRegions(Map.of("r2", "OPEN on rs2")))
          .as("the old master cannot log another transition")
          .isInstanceOf(IOException.class);
      assertThat(store.regions()).containsExactly(Map.entry("r1", "OPEN on rs1"));
      store.putRegions(Map.of("r3", "OPEN on rs3"));
      assertThat(store.regions()).containsOnlyKeys("r1", "r3");
      store.close();
      try {
        old.close();
        rootLockA.close();
      } catch (IOException expected) {
        // its files were taken away
      }
    }
  }

  /**
   * The store, once the old master's lease of its {@code MasterData/LOCK} expired too. A paused
   * master does nothing, but this one's background work (a flush creating a file just after the
   * store opened) may have renewed its lease on the NameNode after the renewal thread stopped, as
   * any create does; then the lock is free a second later.
   */
  private static MasterStore openWhenFree(Storage b) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    while (true) {
      try {
        return MasterStore.open(b);
      } catch (IOException e) {
        if (!String.valueOf(e.getMessage()).contains("is already open")
            || System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }
}
