package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.OperationStatus;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.sstable.BlockCache;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Creating (with split keys), disabling, enabling, deleting and truncating tables. */
class TableAdminTest {
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
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .build();
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static byte[][] keys(String... s) {
    byte[][] out = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      out[i] = b(s[i]);
    }
    return out;
  }

  private static List<String> boundaries(List<RegionInfo> regions) {
    List<String> out = new ArrayList<>();
    for (RegionInfo r : regions) {
      out.add(Bytes.toStringBinary(r.getStartKey()) + "-" + Bytes.toStringBinary(r.getEndKey()));
    }
    return out;
  }

  private static void writeRows(Table t, String... rows) throws IOException {
    for (String r : rows) {
      t.put(new Put(b(r)).addColumn(F, Q, b("v-" + r)));
    }
  }

  private static List<String> rows(Table t) throws IOException {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        out.add(Bytes.toString(r.getRow()));
      }
    }
    return out;
  }

  // ---- create -----------------------------------------------------------------------------

  @Test
  void splitKeysMakeOneRegionPerRangeAndRowsLandInTheirRegion() throws IOException {
    try (Database db = Basalt.open(dir, Config.defaults())) {
      db.createTable(table(T), keys("m", "d", "t")); // any order
      assertThat(boundaries(db.getRegions(T))).containsExactly("-d", "d-m", "m-t", "t-");
      Table t = db.getTable(T);
      writeRows(t, "a", "d", "l", "m", "z");
      for (String r : new String[] {"a", "d", "l", "m", "z"}) {
        assertThat(db.region(T, b(r)).getRegionInfo().containsRow(b(r))).isTrue();
        assertThat(t.get(new Get(b(r))).getValue(F, Q)).isEqualTo(b("v-" + r));
      }
      assertThat(rows(t)).containsExactly("a", "d", "l", "m", "z");
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(boundaries(db.getRegions(T))).containsExactly("-d", "d-m", "m-t", "t-");
      assertThat(rows(db.getTable(T))).containsExactly("a", "d", "l", "m", "z");
    }
    try (Stream<Path> s = Files.list(dir.resolve("data/default/t"))) {
      assertThat(s.filter(Files::isDirectory).count()).as("region directories").isEqualTo(4);
    }
  }

  @Test
  void aKeyRangeAndARegionCountSplitAsHBaseDoes() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(T), b("a"), b("z"), 4);
      assertThat(boundaries(db.getRegions(T))).containsExactly("-a", "a-m", "m-z", "z-");
      db.createTable(table(TableName.valueOf("three")), b("a"), b("z"), 3);
      assertThat(boundaries(db.getRegions(TableName.valueOf("three"))))
          .containsExactly("-a", "a-z", "z-");
      db.createTable(table(TableName.valueOf("ten")), b("0000"), b("9999"), 10);
      assertThat(db.getRegions(TableName.valueOf("ten"))).hasSize(10);
    }
  }

  @Test
  void badSplitKeysAreRefusedAndCreateNothing() throws IOException {
    try (Database db = Basalt.open(dir)) {
      assertThatThrownBy(() -> db.createTable(table(T), keys("a", "")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Empty split key");
      assertThatThrownBy(() -> db.createTable(table(T), keys("b", "a", "b")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("found duplicate: b");
      assertThatThrownBy(() -> db.createTable(table(T), new byte[][] {b("a"), null}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("split key 2 is null");
      assertThatThrownBy(() -> db.createTable(table(T), b("a"), b("z"), 2))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("at least three regions");
      assertThatThrownBy(() -> db.createTable(table(T), b("z"), b("a"), 5))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Start key must be smaller than end key");
      assertThatThrownBy(() -> db.createTable(table(T), b("a"), b("a"), 5))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(db.tableExists(T)).isFalse();
      db.createTable(table(T), keys("a"));
      assertThatThrownBy(() -> db.createTable(table(T), keys("b")))
          .isInstanceOf(TableExistsException.class);
      assertThat(db.getRegions(T)).hasSize(2);
    }
  }

  @Test
  void aCreateInterruptedBeforeItsDescriptorLeavesNoRegions() throws IOException {
    try (Database db = Basalt.open(dir)) {
      FaultPoints.arm(Database.FAULT_CREATE_BEFORE_DESCRIPTOR, FaultPoints.THROW);
      assertThatThrownBy(() -> db.createTable(table(T), keys("a", "b")))
          .isInstanceOf(FaultPoints.InjectedFault.class);
      FaultPoints.disarmAll();
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(db.tableExists(T)).isFalse();
      assertThat(Files.exists(dir.resolve("data/default/t"))).isFalse();
    }
  }

  // ---- disable and enable -----------------------------------------------------------------

  @Test
  void aDisabledTableRefusesEveryOperationUntilEnabled() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(T), keys("m"));
      Table t = db.getTable(T);
      writeRows(t, "a", "z");
      db.disableTable(T);
      assertThat(db.isTableDisabled(T)).isTrue();
      assertThat(db.isTableEnabled(T)).isFalse();
      assertThat(db.getRegionMetrics(T)).as("no region is open").isEmpty();
      assertThat(db.getRegions(T)).hasSize(2);
      for (ThrowingCall c :
          List.<ThrowingCall>of(
              () -> t.get(new Get(b("a"))),
              () -> t.put(new Put(b("a")).addColumn(F, Q, b("x"))),
              () -> t.getScanner(new Scan()),
              () -> t.batch(List.of(new Put(b("a")).addColumn(F, Q, b("x")))),
              () -> db.flush(T),
              () -> db.majorCompact(T))) {
        assertThatThrownBy(c::call)
            .isInstanceOf(TableNotEnabledException.class)
            .hasMessageContaining("'t' is disabled");
      }
      assertThatThrownBy(() -> db.disableTable(T))
          .isInstanceOf(TableNotEnabledException.class)
          .hasMessageContaining("already disabled");
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(db.isTableDisabled(T)).as("the state survives a restart").isTrue();
      assertThatThrownBy(() -> db.getTable(T).get(new Get(b("a"))))
          .isInstanceOf(TableNotEnabledException.class);
      db.enableTable(T);
      assertThatThrownBy(() -> db.enableTable(T))
          .isInstanceOf(TableNotDisabledException.class)
          .hasMessageContaining("already enabled");
      assertThat(rows(db.getTable(T))).containsExactly("a", "z");
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(db.isTableEnabled(T)).isTrue();
      assertThat(rows(db.getTable(T))).containsExactly("a", "z");
    }
  }

  @Test
  void disablingFlushesSoNothingWaitsInTheWal() throws IOException {
    Config noFlushOnClose = Config.builder().set(DatabaseSettings.FLUSH_ON_CLOSE, false).build();
    try (Database db = Basalt.open(dir, noFlushOnClose)) {
      db.createTable(table(T), keys("m"));
      writeRows(db.getTable(T), "a", "z");
      db.disableTable(T);
      db.enableTable(T);
      writeRows(db.getTable(T), "b");
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(rows(db.getTable(T))).containsExactly("a", "b", "z");
    }
  }

  @FunctionalInterface
  private interface ThrowingCall {
    void call() throws Exception;
  }

  // ---- delete -----------------------------------------------------------------------------

  @Test
  void onlyADisabledTableCanBeDeleted() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(T), keys("m"));
      writeRows(db.getTable(T), "a", "z");
      assertThatThrownBy(() -> db.deleteTable(T))
          .isInstanceOf(TableNotDisabledException.class)
          .hasMessageContaining("disable it before it can be deleted");
      db.disableTable(T);
      db.deleteTable(T);
      assertThat(db.tableExists(T)).isFalse();
      assertThat(Files.exists(dir.resolve("data/default/t"))).isFalse();
      assertThatThrownBy(() -> db.deleteTable(T)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> db.disableTable(T)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> db.enableTable(T)).isInstanceOf(TableNotFoundException.class);
      db.createTable(table(T));
      assertThat(rows(db.getTable(T))).isEmpty();
    }
  }

  /**
   * A deleted or truncated table's blocks leave the block cache; another table's stay, even one
   * whose name starts with the first's.
   */
  @Test
  void deletingOrTruncatingATableDropsItsCachedBlocks() throws IOException {
    TableName other = TableName.valueOf("t2");
    try (Database db = Basalt.open(dir)) {
      BlockCache cache = db.getBlockCache();
      db.createTable(table(other));
      writeRows(db.getTable(other), "a", "b");
      db.flush(other);
      assertThat(rows(db.getTable(other))).containsExactly("a", "b");
      cache.cleanUp();
      long otherBlocks = cache.blockCount();
      assertThat(otherBlocks).isPositive();

      for (boolean truncate : new boolean[] {true, false}) {
        if (!db.tableExists(T)) {
          db.createTable(table(T), keys("g"));
        }
        writeRows(db.getTable(T), "a", "h");
        db.flush(T);
        assertThat(rows(db.getTable(T))).containsExactly("a", "h");
        cache.cleanUp();
        assertThat(cache.blockCount()).isGreaterThan(otherBlocks);
        db.disableTable(T);
        if (truncate) {
          db.truncateTable(T, true);
        } else {
          db.deleteTable(T);
        }
        cache.cleanUp();
        assertThat(cache.blockCount())
            .as(truncate ? "truncated" : "deleted")
            .isEqualTo(otherBlocks);
      }
      assertThat(rows(db.getTable(other))).containsExactly("a", "b");
    }
  }

  // ---- truncate ---------------------------------------------------------------------------

  @Test
  void truncateEmptiesTheTableAndKeepsOrDropsItsSplits() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(T), keys("g", "p"));
      List<RegionInfo> before = db.getRegions(T);
      writeRows(db.getTable(T), "a", "h", "q");
      db.flush(T);
      assertThatThrownBy(() -> db.truncateTable(T, true))
          .isInstanceOf(TableNotDisabledException.class);
      db.disableTable(T);
      db.truncateTable(T, true);
      assertThat(db.isTableEnabled(T)).as("enabled again, as in HBase").isTrue();
      assertThat(boundaries(db.getRegions(T))).containsExactly("-g", "g-p", "p-");
      assertThat(db.getRegions(T)).as("new regions").doesNotContainAnyElementsOf(before);
      assertThat(rows(db.getTable(T))).isEmpty();
      writeRows(db.getTable(T), "b");
      db.disableTable(T);
      db.truncateTable(T, false);
      assertThat(boundaries(db.getRegions(T))).containsExactly("-");
      assertThat(rows(db.getTable(T))).isEmpty();
    }
    try (Stream<Path> s = Files.walk(dir.resolve("archive"))) {
      assertThat(s.filter(Files::isRegularFile).map(Path::toString))
          .as("the old store files are archived")
          .anyMatch(p -> p.contains("/data/default/t/") && p.contains("/f/"));
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(boundaries(db.getRegions(T))).containsExactly("-");
      assertThat(rows(db.getTable(T))).isEmpty();
    }
  }

  @Test
  void aTruncateInterruptedBeforeTheSwitchLeavesTheOldTable() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(T), keys("g"));
      writeRows(db.getTable(T), "a", "h");
      db.disableTable(T);
      FaultPoints.arm(TableAdmin.FAULT_TRUNCATE_BEFORE_SWITCH, FaultPoints.THROW);
      assertThatThrownBy(() -> db.truncateTable(T, false))
          .isInstanceOf(FaultPoints.InjectedFault.class);
      FaultPoints.disarmAll();
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(db.getRegions(T)).hasSize(2);
      assertThat(db.isTableDisabled(T)).isTrue();
      db.enableTable(T);
      assertThat(rows(db.getTable(T))).containsExactly("a", "h");
      try (Stream<Path> s = Files.list(dir.resolve("data/default/t"))) {
        assertThat(s.filter(Files::isDirectory).count())
            .as("the new regions' directories are gone")
            .isEqualTo(2);
      }
    }
  }

  // ---- lists ------------------------------------------------------------------------------

  @Test
  void tablesAreListedByName() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(TableName.valueOf("b")));
      db.createTable(table(TableName.valueOf("a")), keys("x"));
      assertThat(db.listTableNames())
          .containsExactly(TableName.valueOf("a"), TableName.valueOf("b"));
      assertThat(db.tableExists(TableName.valueOf("a"))).isTrue();
      assertThat(db.tableExists(TableName.valueOf("c"))).isFalse();
      assertThatThrownBy(() -> db.getRegions(TableName.valueOf("c")))
          .isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> db.listTablesByNamespace("nope"))
          .isInstanceOf(NamespaceNotFoundException.class);
      List<OperationStatus> st =
          db.getTable(TableName.valueOf("a"))
              .batch(List.of(new Put(b("y")).addColumn(F, Q, b("1"))));
      assertThat(st.get(0).isSuccess()).isTrue();
    }
  }
}
