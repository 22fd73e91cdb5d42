package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionFlusher;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalCorruptionException;
import dev.basalt.wal.WalSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A database survives restarts with every acknowledged write, and its DDL is crash-safe. */
class DatabaseTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  private static TableDescriptor table(TableName name) {
    return TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(3).build())
        .build();
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  @Test
  void writesSurviveARestart() throws IOException {
    try (Database db = Database.open(dir)) {
      db.createTable(table(T));
      Table t = db.getTable(T);
      t.put(new Put(b("r1")).addColumn(F, Q, 1, b("v1")));
      t.put(new Put(b("r1")).addColumn(F, Q, 2, b("v2")).setDurability(Durability.FSYNC_WAL));
      t.put(new Put(b("r2")).addColumn(F, Q, b("async")).setDurability(Durability.ASYNC_WAL));
      t.increment(new Increment(b("c")).addColumn(F, Q, 5));
      t.increment(new Increment(b("c")).addColumn(F, Q, 7));
      t.mutateRow(
          new RowMutations(b("r3"))
              .add(new Put(b("r3")).addColumn(F, b("a"), b("x")))
              .add(new Put(b("r3")).addColumn(F, b("b"), b("y"))));
      t.delete(new Delete(b("r1")).addColumn(F, Q, 1));
    }
    try (Database db = Database.open(dir)) {
      Table t = db.getTable(T);
      assertThat(t.get(new Get(b("r1")).readAllVersions()).getValue(F, Q)).isEqualTo(b("v2"));
      assertThat(t.get(new Get(b("r1")).readAllVersions()).size()).isEqualTo(1);
      assertThat(t.get(new Get(b("r2"))).getValue(F, Q)).isEqualTo(b("async"));
      assertThat(Bytes.toLong(t.get(new Get(b("c"))).getValue(F, Q))).isEqualTo(12);
      assertThat(t.get(new Get(b("r3"))).size()).isEqualTo(2);
      // The sequence continues after the recovered edits.
      t.increment(new Increment(b("c")).addColumn(F, Q, 1));
      assertThat(Bytes.toLong(t.get(new Get(b("c"))).getValue(F, Q))).isEqualTo(13);
    }
    try (Database db = Database.open(dir)) {
      assertThat(Bytes.toLong(db.getTable(T).get(new Get(b("c"))).getValue(F, Q))).isEqualTo(13);
    }
  }

  @Test
  void tablesAreListedAndDescribedAfterARestart() throws IOException {
    TableDescriptor desc =
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(F)
                    .setMaxVersions(5)
                    .setTimeToLive(60)
                    .build())
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("g"))
            .setValue("OWNER", "me")
            .build();
    try (Database db = Database.open(dir)) {
      db.createTable(desc);
      db.createTable(table(TableName.valueOf("a")));
    }
    try (Database db = Database.open(dir)) {
      assertThat(db.listTables())
          .extracting(TableDescriptor::getTableName)
          .containsExactly(TableName.valueOf("a"), T);
      assertThat(db.getDescriptor(T)).isEqualTo(desc);
      assertThat(db.getDescriptor(T).getColumnFamily(F).getTimeToLive()).isEqualTo(60);
    }
  }

  @Test
  void deletedTablesStayDeletedAndTheirEditsDoNotLeakIntoANewTableOfTheSameName()
      throws IOException {
    try (Database db = Database.open(dir)) {
      db.createTable(table(T));
      db.getTable(T).put(new Put(b("old")).addColumn(F, Q, b("x")));
      db.disableTable(T);
      db.deleteTable(T);
      assertThat(db.tableExists(T)).isFalse();
      assertThatThrownBy(() -> db.getTable(T)).isInstanceOf(TableNotFoundException.class);
      db.createTable(table(T));
      db.getTable(T).put(new Put(b("new")).addColumn(F, Q, b("y")));
    }
    try (Database db = Database.open(dir)) {
      Table t = db.getTable(T);
      assertThat(t.get(new Get(b("old"))).isEmpty()).isTrue();
      assertThat(t.get(new Get(b("new"))).isEmpty()).isFalse();
    }
  }

  @Test
  void aCreateInterruptedBeforeItsDescriptorLeavesNoTable() throws IOException {
    try (Database db = Database.open(dir)) {
      FaultPoints.arm(Database.FAULT_CREATE_BEFORE_DESCRIPTOR, FaultPoints.THROW);
      assertThatThrownBy(() -> db.createTable(table(T)))
          .isInstanceOf(FaultPoints.InjectedFault.class);
      FaultPoints.disarmAll();
      assertThat(db.tableExists(T)).isFalse();
    }
    assertThat(Files.exists(dir.resolve("data/default/t")))
        .as("the half-created table's files")
        .isTrue();
    try (Database db = Database.open(dir)) {
      assertThat(db.tableExists(T)).isFalse();
      assertThat(Files.exists(dir.resolve("data/default/t"))).isFalse();
      db.createTable(table(T));
    }
  }

  @Test
  void ddlErrorsNameTheProblem() throws IOException {
    try (Database db = Database.open(dir)) {
      db.createTable(table(T));
      assertThatThrownBy(() -> db.createTable(table(T)))
          .isInstanceOf(TableExistsException.class)
          .hasMessageContaining("'t' already exists");
      assertThatThrownBy(() -> db.deleteTable(TableName.valueOf("nope")))
          .isInstanceOf(TableNotFoundException.class)
          .hasMessageContaining("'nope' does not exist");
      assertThatThrownBy(() -> db.createTable(table(TableName.valueOf("ns1:t"))))
          .isInstanceOf(NamespaceNotFoundException.class)
          .hasMessageContaining("'ns1' does not exist");
      Table handle = db.getTable(T);
      assertThatThrownBy(() -> db.deleteTable(T))
          .isInstanceOf(TableNotDisabledException.class)
          .hasMessageContaining("disable it");
      db.disableTable(T);
      assertThatThrownBy(() -> handle.get(new Get(b("r"))))
          .isInstanceOf(TableNotEnabledException.class)
          .hasMessageContaining("'t' is disabled");
      db.deleteTable(T);
      assertThatThrownBy(() -> handle.get(new Get(b("r"))))
          .isInstanceOf(TableNotFoundException.class);
    }
  }

  @Test
  void editsAfterAFailedFlushSurviveWhenTheRetryAlsoFails() throws IOException {
    Config noFlushOnClose = Config.builder().set(DatabaseSettings.FLUSH_ON_CLOSE, false).build();
    try (Database db = Database.open(dir, noFlushOnClose)) {
      db.createTable(table(T));
      Table t = db.getTable(T);
      t.put(new Put(b("a")).addColumn(F, Q, b("first")));
      FaultPoints.arm(RegionFlusher.FAULT_FILES_WRITTEN, FaultPoints.THROW);
      assertThatThrownBy(() -> db.flush(T)).isInstanceOf(FaultPoints.InjectedFault.class);
      t.put(new Put(b("b")).addColumn(F, Q, b("second")));
      // The retry writes the leftover snapshot, then fails on the newer edits.
      int[] hits = {0};
      FaultPoints.arm(
          RegionFlusher.FAULT_FILES_WRITTEN,
          p -> {
            if (++hits[0] == 2) {
              throw new FaultPoints.InjectedFault(p);
            }
          });
      assertThatThrownBy(() -> db.flush(T)).isInstanceOf(FaultPoints.InjectedFault.class);
      FaultPoints.disarmAll();
    }
    try (Database db = Database.open(dir)) {
      Table t = db.getTable(T);
      assertThat(t.get(new Get(b("a"))).getValue(F, Q)).isEqualTo(b("first"));
      assertThat(t.get(new Get(b("b"))).getValue(F, Q))
          .as("replayed from the WAL")
          .isEqualTo(b("second"));
    }
  }

  @Test
  void flushedDataIsNotReplayedAndOldWalSegmentsAreArchived() throws IOException {
    Config small = Config.builder().set(WalSettings.ROLL_SIZE, 1024L).build();
    try (Database db = Database.open(dir, small)) {
      db.createTable(table(T));
      for (int i = 0; i < 100; i++) {
        db.getTable(T).put(new Put(b("r" + i)).addColumn(F, Q, b("v" + i)));
      }
      assertThat(db.getWal().liveSegments()).isNotEmpty();
      db.flush(T);
      assertThat(db.getWal().liveSegments())
          .as("every segment's edits are in store files")
          .isEmpty();
    }
    try (Database db = Database.open(dir, small)) {
      List<Result> rows = new ArrayList<>();
      try (ResultScanner sc = db.getTable(T).getScanner(new Scan())) {
        sc.forEach(rows::add);
      }
      assertThat(rows).hasSize(100);
    }
  }

  @Test
  void aCompactionThatDropsEverythingStillRemembersWhatIsPersisted() throws IOException {
    Config noFlushOnClose = Config.builder().set(DatabaseSettings.FLUSH_ON_CLOSE, false).build();
    TableDescriptor classic =
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(F).setNewVersionBehavior(false).build())
            .build();
    try (Database db = Database.open(dir, noFlushOnClose)) {
      db.createTable(classic);
      Table t = db.getTable(T);
      t.put(new Put(b("r")).addColumn(F, Q, 5, b("old")));
      t.delete(new Delete(b("r")).addColumns(F, Q, 10));
      db.flush(T);
      db.majorCompact(T); // drops the put and the marker
      t.put(new Put(b("r")).addColumn(F, Q, 3, b("after"))); // visible: the marker is gone
      assertThat(t.get(new Get(b("r"))).getValue(F, Q)).isEqualTo(b("after"));
    }
    try (Database db = Database.open(dir)) {
      // Replaying the WAL from the start would bring the marker back and hide the put.
      assertThat(db.getTable(T).get(new Get(b("r"))).getValue(F, Q)).isEqualTo(b("after"));
    }
  }

  @Test
  void aDatabaseCanBeOpenedOnlyOnce() throws IOException {
    try (Database db = Database.open(dir)) {
      assertThatThrownBy(() -> Database.open(dir))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("already open");
    }
    Database.open(dir).close();
  }

  @Test
  void aCorruptWalStopsTheOpenUnlessSkippingIsAllowed() throws IOException {
    // Without a flush on close the edits stay only in the WAL.
    Config keepInWal = Config.builder().set(DatabaseSettings.FLUSH_ON_CLOSE, false).build();
    try (Database db = Database.open(dir, keepInWal)) {
      db.createTable(table(T));
      for (int i = 0; i < 20; i++) {
        db.getTable(T).put(new Put(b("r" + i)).addColumn(F, Q, b("v" + i)));
      }
    }
    Path segment;
    try (Stream<Path> s = Files.list(dir.resolve("WALs/local"))) {
      segment =
          s.filter(p -> Wal.isSegment(p.getFileName().toString()))
              .sorted()
              .findFirst()
              .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(segment);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(segment, bytes);
    assertThatThrownBy(() -> Database.open(dir))
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageContaining(segment.toString())
        .hasMessageContaining("hbase.hregion.edits.replay.skip.errors");
    Config skip = Config.builder().set(WalSettings.SKIP_REPLAY_ERRORS, true).build();
    try (Database db = Database.open(dir, skip)) {
      List<Result> rows = new ArrayList<>();
      try (ResultScanner sc = db.getTable(T).getScanner(new Scan())) {
        sc.forEach(rows::add);
      }
      assertThat(rows).hasSize(19);
    }
  }
}
