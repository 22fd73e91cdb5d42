package dev.basalt.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.db.DatabaseSettings;
import dev.basalt.db.ResultScanner;
import dev.basalt.fs.Storage;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The embedded database with its root on HDFS: the WAL's group commit from many writers, flushes,
 * compactions and splits writing store files through HDFS, a DataNode lost in the middle of writes,
 * and a second process kept out of a database that is open.
 */
class HdfsDatabaseTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static MiniDfs dfs;
  private static int roots;

  @BeforeAll
  static void startDfs() throws IOException {
    dfs = MiniDfs.shared();
  }

  private static String newRoot() {
    return "db-" + (++roots);
  }

  private static Config.Builder settings() {
    return MiniDfs.config()
        .set(DatabaseSettings.BLOCK_CACHE_FRACTION.key(), "0.02")
        .set(DatabaseSettings.ROW_CACHE_FRACTION.key(), "0");
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }

  private static void createTable(Database db) throws IOException {
    db.createTable(
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
  }

  private static int count(Database db) throws IOException {
    int n = 0;
    try (ResultScanner s = db.getTable(T).getScanner(new Scan())) {
      for (Result r = s.next(); r != null; r = s.next()) {
        n++;
      }
    }
    return n;
  }

  @Test
  void flushCompactionAndSplitWriteStoreFilesOnHdfs() throws IOException {
    String name = newRoot();
    Config config = settings().build();
    try (Storage storage = dfs.storage(name, config)) {
      try (Database db = Database.open(storage, config, Clock.system())) {
        createTable(db);
        for (int batch = 0; batch < 3; batch++) {
          List<Put> puts = new ArrayList<>();
          for (int i = batch * 1000; i < (batch + 1) * 1000; i++) {
            puts.add(new Put(row(i)).addColumn(F, Q, Bytes.toBytes("value-" + i)));
          }
          db.getTable(T).put(puts);
          db.flush(T);
        }
        db.majorCompact(T);
        List<?> daughters = db.split(T, row(1500));
        assertThat(daughters).hasSize(2);
        assertThat(db.getRegions(T)).hasSize(2);
        assertThat(count(db)).isEqualTo(3000);
      }
      assertThat(storage.list("data/default/t")).contains(".tabledesc");
      try (Database db = Database.open(storage, config, Clock.system())) {
        assertThat(db.getRegions(T)).hasSize(2);
        assertThat(count(db)).isEqualTo(3000);
        for (int i : new int[] {0, 1499, 1500, 2999}) {
          assertThat(Bytes.toString(db.getTable(T).get(new Get(row(i))).getValue(F, Q)))
              .isEqualTo("value-" + i);
        }
      }
    }
  }

  /**
   * 64 writers, each waiting for its own SYNC_WAL (hflush) or FSYNC_WAL (hsync): one sync serves
   * many. Nothing is flushed on close, so the reopen replays every edit from the log on HDFS.
   */
  @Test
  void groupCommitOfManyWritersIsReplayedFromTheLog() throws Exception {
    String name = newRoot();
    Config config = settings().set(DatabaseSettings.FLUSH_ON_CLOSE.key(), "false").build();
    int writers = 64;
    int each = 40;
    try (Storage storage = dfs.storage(name, config)) {
      try (Database db = Database.open(storage, config, Clock.system())) {
        createTable(db);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          int writer = w;
          done.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < each; i++) {
                      Put p =
                          new Put(row(writer * each + i)).addColumn(F, Q, Bytes.toBytes("v" + i));
                      p.setDurability(i % 2 == 0 ? Durability.SYNC_WAL : Durability.FSYNC_WAL);
                      db.getTable(T).put(p);
                    }
                    return null;
                  }));
        }
        for (Future<?> f : done) {
          f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
      }
      assertThat(storage.list("WALs/local").stream().filter(n -> n.startsWith("wal-")))
          .as("the edits are only in the log")
          .isNotEmpty();
      try (Database db = Database.open(storage, config, Clock.system())) {
        assertThat(count(db)).isEqualTo(writers * each);
      }
    }
  }

  /**
   * A DataNode of the pipeline stops while writers log and flush: the client recovers the pipeline
   * on the DataNode left, and every acknowledged write reads back, from the log and from the store
   * files written after the loss.
   */
  @Test
  void aDataNodeStoppedDuringWritesLosesNoAcknowledgedWrite() throws Exception {
    String name = newRoot();
    Config config = settings().set(DatabaseSettings.FLUSH_ON_CLOSE.key(), "false").build();
    ConcurrentLinkedQueue<Integer> acked = new ConcurrentLinkedQueue<>();
    MiniDFSCluster.DataNodeProperties stopped = null;
    try (Storage storage = dfs.storage(name, config)) {
      try (Database db = Database.open(storage, config, Clock.system())) {
        createTable(db);
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
          int writer = w;
          done.add(
              pool.submit(
                  () -> {
                    for (int i = 0; !stop.get() && i < 100_000; i++) {
                      Thread.sleep(1); // paced: each phase below sees a bounded number of rows
                      int r = writer * 100_000 + i;
                      db.getTable(T).put(new Put(row(r)).addColumn(F, Q, Bytes.toBytes("v" + r)));
                      acked.add(r);
                    }
                    return null;
                  }));
        }
        waitFor(() -> acked.size() > 500, done);
        db.flush(T);
        long stopAt = System.nanoTime();
        stopped = dfs.cluster().stopDataNode(0);
        int before = acked.size();
        waitFor(() -> acked.size() > before + 4, done);
        System.out.printf(
            "writes acknowledged again %d ms after a DataNode of the pipeline stopped%n",
            (System.nanoTime() - stopAt) / 1_000_000);
        waitFor(() -> acked.size() > before + 1000, done);
        db.flush(T);
        int after = acked.size();
        waitFor(() -> acked.size() > after + 500, done);
        stop.set(true);
        for (Future<?> f : done) {
          f.get(60, TimeUnit.SECONDS); // no writer failed
        }
        pool.shutdown();
      }
      try (Database db = Database.open(storage, config, Clock.system())) {
        assertThat(count(db)).isEqualTo(acked.size());
        for (int r : acked) {
          if (r % 97 == 0) {
            assertThat(db.getTable(T).get(new Get(row(r))).isEmpty()).as("row %d", r).isFalse();
          }
        }
      }
    } finally {
      if (stopped != null) {
        dfs.cluster().restartDataNode(stopped, true);
        dfs.cluster().waitActive();
      }
    }
  }

  @Test
  void aSecondProcessIsKeptOutWhileTheDatabaseIsOpen() throws IOException {
    String name = newRoot();
    Config config = settings().build();
    try (Storage first = dfs.storage(name, config);
        Storage second = dfs.storage(name, config)) {
      try (Database db = Database.open(first, config, Clock.system())) {
        assertThatThrownBy(() -> Database.open(second, config, Clock.system()))
            .hasMessageContaining("is already open in this process");
        assertThat(first.lockHolder("WALs/local")).as("the log names its holder").isNotNull();
      }
      Database.open(second, config, Clock.system()).close(); // free once closed
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier c, List<Future<?>> writers)
      throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (!c.getAsBoolean()) {
      boolean allDone = true;
      for (Future<?> w : writers) {
        if (w.isDone()) {
          w.get(); // a writer that failed says why
        } else {
          allDone = false;
        }
      }
      if (allDone && !c.getAsBoolean()) {
        throw new AssertionError("the writers finished before the condition held");
      }
      if (System.currentTimeMillis() > deadline) {
        StringBuilder dump = new StringBuilder("timed out; threads:\n");
        Thread.getAllStackTraces()
            .forEach(
                (t, trace) -> {
                  dump.append(t.getName()).append(" ").append(t.getState()).append('\n');
                  for (StackTraceElement e : trace) {
                    dump.append("    at ").append(e).append('\n');
                  }
                });
        System.out.println(dump);
        throw new AssertionError("timed out");
      }
      Thread.sleep(20);
    }
  }
}
