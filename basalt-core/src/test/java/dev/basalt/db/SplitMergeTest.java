package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionSettings;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Splits and merges: by reference, rewritten by compactions, crash-safe at every step. */
class SplitMergeTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 200;

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  private static TableDescriptor table() {
    return TableDescriptorBuilder.newBuilder(T)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setBlocksize(1024).build())
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(G))
        .build();
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%04d", i));
  }

  /** Rows 0..ROWS-1, the first half flushed, every other one also in family g. */
  private static void load(Database db) throws IOException {
    Table t = db.getTable(T);
    for (int i = 0; i < ROWS; i++) {
      Put p = new Put(row(i)).addColumn(F, Q, Bytes.toBytes("v" + i));
      if (i % 2 == 0) {
        p.addColumn(G, Q, Bytes.toBytes("g" + i));
      }
      t.put(p);
      if (i == ROWS / 2) {
        db.flush(T);
      }
    }
  }

  /** Every row once, in order, with its values; the same reversed. */
  private static void checkAll(Database db) throws IOException {
    Table t = db.getTable(T);
    List<String> seen = new ArrayList<>();
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        seen.add(Bytes.toString(r.getRow()));
        int i = Integer.parseInt(Bytes.toString(r.getRow()).substring(3));
        assertThat(r.getValue(F, Q)).isEqualTo(Bytes.toBytes("v" + i));
        assertThat(r.getValue(G, Q)).isEqualTo(i % 2 == 0 ? Bytes.toBytes("g" + i) : null);
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      expected.add(Bytes.toString(row(i)));
    }
    assertThat(seen).isEqualTo(expected);
    List<String> reversed = new ArrayList<>();
    try (ResultScanner s = t.getScanner(new Scan().setReversed(true))) {
      for (Result r : s) {
        reversed.add(Bytes.toString(r.getRow()));
      }
    }
    java.util.Collections.reverse(reversed);
    assertThat(reversed).isEqualTo(expected);
    for (int i = 0; i < ROWS; i += 17) {
      assertThat(t.get(new Get(row(i))).getValue(F, Q)).isEqualTo(Bytes.toBytes("v" + i));
    }
  }

  /**
   * Makes every compaction fail before it commits (the daughters' background compactions would
   * otherwise rewrite their references at any moment), until disarmed.
   */
  private static void holdCompactions() {
    FaultPoints.arm("compaction.outputWritten", FaultPoints.THROW);
  }

  private long referenceFiles() throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("data"))) {
      return s.filter(
              p -> dev.basalt.region.StoreFileReference.isReference(p.getFileName().toString()))
          .count();
    }
  }

  private boolean regionDirExists(RegionInfo r) {
    return Files.isDirectory(dir.resolve("data/default/t/" + r.getEncodedName()));
  }

  private static void eventually(String what, BooleanSupplier done) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!done.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void aSplitRefersToTheParentUntilCompactionsRewriteIt() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table());
      load(db);
      RegionInfo parent = db.getRegions(T).get(0);
      holdCompactions();
      List<RegionInfo> daughters = db.split(T, row(60));
      assertThat(daughters).hasSize(2);
      assertThat(db.getRegions(T)).isEqualTo(daughters);
      assertThat(daughters.get(0).getEndKey()).isEqualTo(row(60));
      assertThat(daughters.get(1).getStartKey()).isEqualTo(row(60));
      assertThat(referenceFiles())
          .as("one per parent file (2 flushes, 2 families) per daughter")
          .isEqualTo(2 * 2 * 2);
      assertThat(regionDirExists(parent)).isTrue();
      checkAll(db);
      FaultPoints.disarmAll();
      db.compact(T);
      assertThat(referenceFiles()).isZero();
      assertThat(regionDirExists(parent)).as("archived once unreferenced").isFalse();
      checkAll(db);
      // A daughter without references splits again; merging brings it back.
      List<RegionInfo> again = db.split(T, row(150));
      assertThat(db.getRegions(T)).hasSize(3);
      db.compact(T);
      RegionInfo merged =
          db.mergeRegions(again.get(0).getEncodedName().getBytes(), again.get(1).getRegionName());
      assertThat(merged.getStartKey()).isEqualTo(row(60));
      assertThat(merged.getEndKey()).isEmpty();
      checkAll(db);
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(db.getRegions(T)).hasSize(2);
      checkAll(db);
      db.majorCompact(T);
      assertThat(referenceFiles()).isZero();
      checkAll(db);
    }
  }

  @Test
  void aRegionWithReferencesSplitsAndMergesOnlyOnceCompacted() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table());
      load(db);
      holdCompactions();
      List<RegionInfo> d = db.split(T, row(100));
      assertThatThrownBy(() -> db.split(T, row(50)))
          .isInstanceOf(BasaltIOException.class)
          .hasMessageContaining("can split once compacted");
      assertThatThrownBy(() -> db.mergeRegions(d.get(0).getRegionName(), d.get(1).getRegionName()))
          .isInstanceOf(MergeRegionException.class)
          .hasMessageContaining("merge it once compacted");
      FaultPoints.disarmAll();
      db.compact(T);
      db.split(T, row(50));
      assertThat(db.getRegions(T)).hasSize(3);
      checkAll(db);
    }
  }

  @Test
  void badSplitsAndMergesNameTheProblem() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(), new byte[][] {row(50), row(100), row(150)});
      load(db);
      List<RegionInfo> r = db.getRegions(T);
      assertThatThrownBy(() -> db.split(T, row(50)))
          .isInstanceOf(BasaltIOException.class)
          .hasMessageContaining("not strictly inside region");
      assertThat(((BasaltIOException) catchIo(() -> db.split(T, row(50)))).hbaseExceptionClass())
          .isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException");
      assertThatThrownBy(() -> db.split(T, new byte[0]))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> db.mergeRegions(r.get(0).getRegionName(), r.get(2).getRegionName()))
          .isInstanceOf(MergeRegionException.class)
          .hasMessageContaining("not adjacent");
      assertThatThrownBy(() -> db.mergeRegions(r.get(0).getRegionName(), r.get(0).getRegionName()))
          .isInstanceOf(MergeRegionException.class)
          .hasMessageContaining("with itself");
      assertThatThrownBy(() -> db.mergeRegions(Bytes.toBytes("nope"), r.get(0).getRegionName()))
          .isInstanceOf(UnknownRegionException.class)
          .hasMessageContaining("nope");
      db.createTable(
          TableDescriptorBuilder.newBuilder(TableName.valueOf("other"))
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
      RegionInfo other = db.getRegions(TableName.valueOf("other")).get(0);
      assertThatThrownBy(() -> db.mergeRegions(r.get(0).getRegionName(), other.getRegionName()))
          .isInstanceOf(MergeRegionException.class)
          .hasMessageContaining("different tables");
      assertThatThrownBy(() -> db.splitRegion(other.getRegionName()))
          .isInstanceOf(BasaltIOException.class)
          .hasMessageContaining("no split point");
      db.modifyTable(
          TableDescriptorBuilder.newBuilder(db.getDescriptor(T))
              .setValue(TableDescriptor.SPLIT_ENABLED, "false")
              .setValue(TableDescriptor.MERGE_ENABLED, "false")
              .build());
      assertThatThrownBy(() -> db.split(T, row(10))).hasMessageContaining("does not allow splits");
      assertThatThrownBy(() -> db.mergeRegions(r.get(0).getRegionName(), r.get(1).getRegionName()))
          .hasMessageContaining("does not allow merges");
      db.disableTable(T);
      assertThatThrownBy(() -> db.split(T, row(10))).isInstanceOf(TableNotEnabledException.class);
      assertThat(db.getRegions(T)).isEqualTo(r);
    }
  }

  private static Throwable catchIo(ThrowingCall c) {
    try {
      c.call();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("no exception");
  }

  @FunctionalInterface
  private interface ThrowingCall {
    void call() throws Exception;
  }

  @Test
  void aRegionSplitsAtItsMiddleAndTheTableSplitsEveryRegion() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(), new byte[][] {row(100)});
      load(db);
      db.flush(T);
      RegionInfo first = db.getRegions(T).get(0);
      List<RegionInfo> halves = db.splitRegion(first.getEncodedName().getBytes());
      byte[] at = halves.get(0).getEndKey();
      assertThat(Bytes.compareTo(at, row(20))).isPositive();
      assertThat(Bytes.compareTo(at, row(80))).isNegative();
      db.compact(T);
      List<RegionInfo> more = db.split(T);
      assertThat(more).hasSize(6);
      assertThat(db.getRegions(T)).hasSize(6);
      checkAll(db);
    }
  }

  @Test
  void aRegionPastTheMaximumFileSizeSplitsByItself() throws Exception {
    Config c =
        Config.builder()
            .set(DatabaseSettings.MAX_FILESIZE, 16L * 1024)
            .set(RegionSettings.FLUSH_SIZE, 32L * 1024)
            .set(DatabaseSettings.MAINTENANCE_INTERVAL, 50L)
            .build();
    try (Database db = Basalt.open(dir, c)) {
      db.createTable(table());
      Table t = db.getTable(T);
      for (int i = 0; i < 3000; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, new byte[40]));
      }
      db.flush(T);
      eventually("automatic splits", () -> regions(db) >= 4);
      eventually(
          "the parents archived",
          () -> {
            try {
              return referenceFiles() == 0 && tableDirs() == regions(db);
            } catch (IOException | java.io.UncheckedIOException e) {
              return false; // a file moved while the directory was walked: look again
            }
          });
      int n = 0;
      try (ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          assertThat(r.getRow()).isEqualTo(row(n));
          n++;
        }
      }
      assertThat(n).isEqualTo(3000);
    }
  }

  private static int regions(Database db) {
    try {
      return db.getRegions(T).size();
    } catch (TableNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private long tableDirs() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("data/default/t"))) {
      return s.filter(Files::isDirectory).count();
    }
  }

  // ---- faults -----------------------------------------------------------------------------

  @Test
  void aSplitFailingAtAnyStepLeavesTheParentOrTheDaughtersServing() throws IOException {
    for (String point :
        List.of(
            RegionTransitions.FAULT_SPLIT_PARENT_CLOSED,
            RegionTransitions.FAULT_SPLIT_WRITTEN,
            RegionTransitions.FAULT_SPLIT_SWITCHED,
            RegionTransitions.FAULT_SPLIT_OPENED)) {
      Path d = dir.resolve(point);
      boolean committed =
          point.equals(RegionTransitions.FAULT_SPLIT_SWITCHED)
              || point.equals(RegionTransitions.FAULT_SPLIT_OPENED);
      try (Database db = Basalt.open(d)) {
        db.createTable(table());
        load(db);
        FaultPoints.arm(point, FaultPoints.THROW);
        assertThatThrownBy(() -> db.split(T, row(70)))
            .as(point)
            .isInstanceOf(FaultPoints.InjectedFault.class);
        FaultPoints.disarmAll();
        // The region set and the served regions agree in this process too.
        assertThat(db.getRegions(T)).as(point).hasSize(committed ? 2 : 1);
        checkAll(db);
      }
      try (Database db = Basalt.open(d)) {
        assertThat(db.getRegions(T)).as(point).hasSize(committed ? 2 : 1);
        checkAll(db);
        db.compact(T);
        checkAll(db);
        try (Stream<Path> s = Files.list(d.resolve("data/default/t"))) {
          assertThat(s.filter(Files::isDirectory).count())
              .as("%s: only the serving regions are left", point)
              .isEqualTo(committed ? 2 : 1);
        }
      }
    }
  }

  @Test
  void aMergeFailingAtAnyStepLeavesTheParentsOrTheNewRegionServing() throws IOException {
    for (String point :
        List.of(
            RegionTransitions.FAULT_MERGE_PARENTS_CLOSED,
            RegionTransitions.FAULT_MERGE_WRITTEN,
            RegionTransitions.FAULT_MERGE_SWITCHED,
            RegionTransitions.FAULT_MERGE_OPENED)) {
      Path d = dir.resolve(point);
      boolean committed =
          point.equals(RegionTransitions.FAULT_MERGE_SWITCHED)
              || point.equals(RegionTransitions.FAULT_MERGE_OPENED);
      try (Database db = Basalt.open(d)) {
        db.createTable(table(), new byte[][] {row(50), row(120)});
        load(db);
        List<RegionInfo> r = db.getRegions(T);
        FaultPoints.arm(point, FaultPoints.THROW);
        assertThatThrownBy(
                () -> db.mergeRegions(r.get(1).getRegionName(), r.get(2).getRegionName()))
            .as(point)
            .isInstanceOf(FaultPoints.InjectedFault.class);
        FaultPoints.disarmAll();
        assertThat(db.getRegions(T)).as(point).hasSize(committed ? 2 : 3);
        checkAll(db);
      }
      try (Database db = Basalt.open(d)) {
        assertThat(db.getRegions(T)).as(point).hasSize(committed ? 2 : 3);
        checkAll(db);
        db.compact(T);
        checkAll(db);
      }
    }
  }
}
