package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.Scan;
import dev.basalt.region.NoSuchColumnFamilyException;
import dev.basalt.region.OperationStatus;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table of several regions: routing, batches, per-region figures, recovery from the WAL. */
class MultiRegionTableTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[][] SPLITS = {Bytes.toBytes("g"), Bytes.toBytes("p")};

  @TempDir Path dir;

  private static TableDescriptor table() {
    return TableDescriptorBuilder.newBuilder(T)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(3).build())
        .build();
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  @Test
  void aBatchAcrossRegionsKeepsOrderAndReportsEachOperation() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(), SPLITS);
      Table t = db.getTable(T);
      List<Row> ops = new ArrayList<>();
      ops.add(new Put(b("z")).addColumn(F, Q, b("1")));
      ops.add(new Increment(b("a")).addColumn(F, Q, 5));
      ops.add(new Put(b("h")).addColumn(b("nope"), Q, b("x"))); // fails alone
      ops.add(new Increment(b("a")).addColumn(F, Q, 2)); // after the first, same row
      ops.add(new Put(b("h")).addColumn(F, Q, b("2")));
      ops.add(CheckAndMutate.newBuilder(b("z")).ifEquals(F, Q, b("1")).build(new Delete(b("z"))));
      List<OperationStatus> st = t.batch(ops);
      assertThat(st).hasSize(6);
      assertThat(st.get(0).isSuccess()).isTrue();
      assertThat(Bytes.toLong(st.get(1).getResult().getValue(F, Q))).isEqualTo(5);
      assertThat(st.get(2).getException()).isInstanceOf(NoSuchColumnFamilyException.class);
      assertThat(Bytes.toLong(st.get(3).getResult().getValue(F, Q))).isEqualTo(7);
      assertThat(st.get(4).isSuccess()).isTrue();
      assertThat(st.get(5).getCheckAndMutateResult().isSuccess()).isTrue();
      assertThat(t.get(new Get(b("z"))).isEmpty()).isTrue();
      assertThat(t.get(new Get(b("h"))).getValue(F, Q)).isEqualTo(b("2"));
      List<Put> puts = new ArrayList<>();
      for (char c = 'a'; c <= 'z'; c++) {
        puts.add(new Put(b(String.valueOf(c) + c)).addColumn(F, Q, b("v")));
      }
      t.put(puts);
      boolean[] exist = t.exists(List.of(new Get(b("aa")), new Get(b("mm")), new Get(b("m"))));
      assertThat(exist).containsExactly(true, true, false);
      Result[] got = t.get(List.of(new Get(b("qq")), new Get(b("gg"))));
      assertThat(got[0].getRow()).isEqualTo(b("qq"));
      assertThat(got[1].getRow()).isEqualTo(b("gg"));
      t.delete(List.of(new Delete(b("aa")), new Delete(b("zz"))));
      assertThat(t.exists(new Get(b("zz")))).isFalse();
      assertThat(t.incrementColumnValue(b("q"), F, Q, 3)).isEqualTo(3);
    }
  }

  @Test
  void aBatchOnAMissingTableThrows() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(), SPLITS);
      Table t = db.getTable(T);
      db.disableTable(T);
      db.deleteTable(T);
      assertThatThrownBy(() -> t.batch(List.of(new Put(b("a")).addColumn(F, Q, b("1")))))
          .isInstanceOf(TableNotFoundException.class);
    }
  }

  @Test
  void everyRegionReplaysItsEditsFromTheSharedWal() throws IOException {
    Config keepInWal = Config.builder().set(DatabaseSettings.FLUSH_ON_CLOSE, false).build();
    List<String> rows = new ArrayList<>();
    try (Database db = Basalt.open(dir, keepInWal)) {
      db.createTable(table(), SPLITS);
      db.createTable(
          TableDescriptorBuilder.newBuilder(TableName.valueOf("other"))
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build(),
          new byte[][] {b("m")});
      Table t = db.getTable(T);
      Table other = db.getTable(TableName.valueOf("other"));
      for (int i = 0; i < 200; i++) {
        String r = String.valueOf((char) ('a' + i % 26)) + i;
        rows.add(r);
        t.put(new Put(b(r)).addColumn(F, Q, b("v" + i)));
        other.put(new Put(b(r)).addColumn(F, Q, b("o" + i)));
      }
      db.flush(TableName.valueOf("other")); // one table flushed, the other only in the WAL
    }
    try (Database db = Basalt.open(dir)) {
      for (TableName name : List.of(T, TableName.valueOf("other"))) {
        int n = 0;
        try (ResultScanner s = db.getTable(name).getScanner(new Scan())) {
          for (Result r : s) {
            n++;
          }
        }
        assertThat(n).as("rows of %s", name).isEqualTo(200);
      }
      for (RegionMetrics m : db.getRegionMetrics(T)) {
        assertThat(m.getMemstoreSize()).as("recovered edits are flushed on open").isZero();
        assertThat(m.getStoreFileCount()).isEqualTo(1);
      }
      assertThat(db.getWal().liveSegments()).as("every recovered segment archived").isEmpty();
    }
  }

  @Test
  void regionFiguresCountRequestsAndStorage() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(), SPLITS);
      Table t = db.getTable(T);
      t.put(new Put(b("a")).addColumn(F, Q, b("1")));
      t.put(new Put(b("b")).addColumn(F, Q, b("1")));
      t.batch(List.of(new Put(b("h")).addColumn(F, Q, b("1")), new Delete(b("c"))));
      t.get(new Get(b("h")));
      try (ResultScanner s = t.getScanner(new Scan())) {
        s.forEach(r -> {});
      }
      List<RegionMetrics> m = db.getRegionMetrics(T);
      assertThat(m).hasSize(3);
      assertThat(m.get(0).getWriteRequestCount()).isEqualTo(3);
      assertThat(m.get(0).getReadRequestCount()).as("two scanned rows").isEqualTo(2);
      assertThat(m.get(1).getWriteRequestCount()).isEqualTo(1);
      assertThat(m.get(1).getReadRequestCount()).as("a get and a scanned row").isEqualTo(2);
      assertThat(m.get(2).getWriteRequestCount()).isZero();
      assertThat(m.get(0).getMemstoreSize()).isPositive();
      assertThat(m.get(2).getMemstoreSize()).isZero();
      assertThat(m.get(0).getStoreFileCount()).isZero();
      db.flush(T);
      m = db.getRegionMetrics(T);
      assertThat(m.get(0).getMemstoreSize()).isZero();
      assertThat(m.get(0).getStoreFileCount()).isEqualTo(1);
      assertThat(m.get(0).getStoreFileSize()).isPositive();
      assertThat(m.get(2).getStoreFileCount()).isZero();
      assertThat(m.get(0).getCompactionQueueLength()).isBetween(0, 1);
      assertThat(m.get(0).getRegionInfo()).isEqualTo(db.getRegions(T).get(0));
      assertThat(db.getRegionMetrics()).hasSize(3);
      assertThat(m.get(0).toString()).contains("writes=3");
    }
  }

  @Test
  void aTableWithoutARegionSetIsAdoptedFromItsRegionDirectories() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table());
      db.getTable(T).put(new Put(b("a")).addColumn(F, Q, b("1")));
    }
    // Databases written before region sets existed have none.
    Files.delete(dir.resolve("data/default/t/.regionset"));
    try (Database db = Basalt.open(dir)) {
      assertThat(db.getRegions(T)).hasSize(1);
      assertThat(db.getTable(T).get(new Get(b("a"))).getValue(F, Q)).isEqualTo(b("1"));
    }
    assertThat(Files.exists(dir.resolve("data/default/t/.regionset"))).isTrue();
  }

  @Test
  void aDamagedRegionSetStopsTheOpenNamingTheFile() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(), SPLITS);
    }
    Path set = dir.resolve("data/default/t/.regionset");
    byte[] bytes = Files.readAllBytes(set);
    bytes[bytes.length / 2] ^= 0x40;
    Files.write(set, bytes);
    assertThatThrownBy(() -> Basalt.open(dir))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(set.toString())
        .hasMessageContaining("checksum");
  }

  @Test
  void aRegionListedButMissingStopsTheOpen() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(), SPLITS);
    }
    String region;
    try (Database db = Basalt.open(dir)) {
      region = db.getRegions(T).get(1).getEncodedName();
    }
    Files.delete(dir.resolve("data/default/t/" + region + "/.regioninfo"));
    assertThatThrownBy(() -> Basalt.open(dir))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("lists region " + region);
  }

  @Test
  void anOpenScanJudgesTtlsInEveryRegionAsOfWhenItOpened() throws IOException {
    ManualClock clock = new ManualClock(1_000_000);
    try (Database db = Database.open(dir, Config.defaults(), clock)) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(T)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setTimeToLive(1).build())
              .build(),
          SPLITS);
      Table t = db.getTable(T);
      t.put(new Put(b("a")).addColumn(F, Q, b("1")));
      t.put(new Put(b("z")).addColumn(F, Q, b("2")));
      try (ResultScanner s = t.getScanner(new Scan())) {
        assertThat(s.next().getRow()).isEqualTo(b("a"));
        clock.advance(1500); // both cells expired now, but not when the scan opened
        assertThat(s.next().getRow()).as("the last region opens now").isEqualTo(b("z"));
        assertThat(s.next()).isNull();
      }
      try (ResultScanner s = t.getScanner(new Scan())) {
        assertThat(s.next()).isNull();
      }
    }
  }

  @Test
  void aClosedDatabaseRefusesOperations() throws IOException {
    Database db = Basalt.open(dir);
    db.createTable(table(), SPLITS);
    Table t = db.getTable(T);
    db.close();
    assertThatThrownBy(() -> t.get(new Get(b("a"))))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is closed");
    assertThatThrownBy(() -> db.createTable(table())).hasMessageContaining("is closed");
  }
}
