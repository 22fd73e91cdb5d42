package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.Storage;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import dev.basalt.region.RegionScanner;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalCorruptionException;
import dev.basalt.wal.WalSettings;
import dev.basalt.wal.WalSplitter;
import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region server's crash and its recovery, as the master drives it: the dead host's log is fenced
 * (renamed, its lock taken), split into recovered edits per region, and the regions open on a new
 * host, which replays them before serving. Random edits (puts with and without per-cell TTLs,
 * column, family and row deletes, increments with nonces, flushes, and closes that record a
 * sequence floor) against a model: every acknowledged edit must read back exactly.
 */
class RegionHostRecoveryTest {
  static final TableName T = TableName.valueOf("t");
  static final byte[][] FAMILIES = {Bytes.toBytes("a"), Bytes.toBytes("b")};
  static final byte[] COUNTER = Bytes.toBytes("n");
  private static final String DEAD = "h,16020,1";

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  /** A crashed host's root: the catalog, what the host acknowledged, and the nonces it logged. */
  static final class Crashed {
    final LocalStorage storage;
    final ClusterCatalog catalog;
    final TableDescriptor desc;

    /** row -> "family:qualifier" -> value, of acknowledged edits. */
    final Map<String, Map<String, String>> model = new TreeMap<>();

    /** Nonces of increments logged after their region's last floor (the split keeps those). */
    final Map<String, Set<Long>> noncesAboveFloor = new HashMap<>();

    /**
     * Nonces of increments logged after their region's last flush: their segments cannot have been
     * archived, so the split must keep them. (Those of flushed edits may be archived with their
     * segment, as in HBase: the edits are safe in store files, their nonces are gone.)
     */
    final Map<String, Set<Long>> noncesUnflushed = new HashMap<>();

    Crashed(LocalStorage storage, ClusterCatalog catalog, TableDescriptor desc) {
      this.storage = storage;
      this.catalog = catalog;
      this.desc = desc;
    }

    Set<Long> allNoncesAboveFloor() {
      Set<Long> out = new HashSet<>();
      noncesAboveFloor.values().forEach(out::addAll);
      return out;
    }

    Set<Long> allNoncesUnflushed() {
      Set<Long> out = new HashSet<>();
      noncesUnflushed.values().forEach(out::addAll);
      return out;
    }

    /** Checks the nonces a recovery reported. */
    void checkNonces(List<Database.RecoveredNonce> reported) {
      Set<Long> got = new HashSet<>();
      reported.forEach(n -> got.add(n.nonce()));
      assertThat(got).containsAll(allNoncesUnflushed());
      assertThat(allNoncesAboveFloor()).containsAll(got);
    }
  }

  static TableDescriptor descriptor() {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(T);
    for (byte[] f : FAMILIES) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f));
    }
    return b.build();
  }

  static RegionInfo regionOf(List<RegionInfo> regions, byte[] row) {
    for (RegionInfo r : regions) {
      if (r.containsRow(row)) {
        return r;
      }
    }
    throw new AssertionError("no region for " + Bytes.toString(row));
  }

  /** Runs random edits on a host named {@link #DEAD}, then drops the host without a flush. */
  private Crashed crash(Path root, long seed, int ops) throws IOException {
    LocalStorage storage = new LocalStorage(root);
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    catalog.createTable(descriptor(), new byte[][] {Bytes.toBytes("r3"), Bytes.toBytes("r6")});
    TableDescriptor desc = catalog.requireTable(T).descriptor();
    Crashed c = new Crashed(storage, catalog, desc);
    Config small = Config.builder().set(WalSettings.ROLL_SIZE, 8L * 1024).build();
    RegionHost host = RegionHost.start(storage, DEAD, small, Clock.system());
    List<RegionInfo> regions = catalog.requireTable(T).regionInfos();
    for (RegionInfo r : regions) {
      host.open(r, desc, 0);
    }
    Random rnd = new Random(seed);
    // Timestamps in the future: an increment's (the server's clock) is always older, so a later
    // delete masks it as the model expects.
    long base = System.currentTimeMillis() + 600_000;
    long nonce = seed * 1_000_000;
    for (int i = 0; i < ops; i++) {
      long ts = base + i;
      String row = "r" + rnd.nextInt(10);
      byte[] rowBytes = Bytes.toBytes(row);
      RegionInfo info = regionOf(regions, rowBytes);
      Region region = host.region(info.getEncodedName());
      Map<String, String> cols = c.model.computeIfAbsent(row, k -> new TreeMap<>());
      int dice = rnd.nextInt(100);
      if (dice < 45) {
        Put p = new Put(rowBytes);
        for (int k = 0, n = 1 + rnd.nextInt(2); k < n; k++) {
          byte[] f = FAMILIES[rnd.nextInt(2)];
          String q = "q" + rnd.nextInt(3);
          String v = "v" + i + "-" + k;
          p.addColumn(f, Bytes.toBytes(q), ts, Bytes.toBytes(v));
          cols.put(Bytes.toString(f) + ":" + q, Bytes.toStringBinary(Bytes.toBytes(v)));
        }
        if (rnd.nextInt(4) == 0) {
          p.setTTL(3_600_000L); // from the cell's timestamp: alive for the whole test
        }
        region.put(p);
      } else if (dice < 57) {
        byte[] f = FAMILIES[rnd.nextInt(2)];
        String q = "q" + rnd.nextInt(3);
        region.delete(new Delete(rowBytes).addColumns(f, Bytes.toBytes(q), ts));
        cols.remove(Bytes.toString(f) + ":" + q);
      } else if (dice < 62) {
        byte[] f = FAMILIES[rnd.nextInt(2)];
        region.delete(new Delete(rowBytes).addFamily(f, ts));
        cols.keySet().removeIf(k -> k.startsWith(Bytes.toString(f) + ":"));
      } else if (dice < 65) {
        region.delete(new Delete(rowBytes, ts));
        cols.clear();
      } else if (dice < 90) {
        long delta = 1 + rnd.nextInt(9);
        Increment inc = new Increment(rowBytes).addColumn(FAMILIES[0], COUNTER, delta);
        inc.setNonce(7, ++nonce);
        Result r = region.increment(inc);
        String key = "a:n";
        long before = cols.containsKey(key) ? Bytes.toLong(Bytes.toBytesBinary(cols.get(key))) : 0;
        assertThat(Bytes.toLong(r.getValue(FAMILIES[0], COUNTER))).isEqualTo(before + delta);
        cols.put(key, Bytes.toStringBinary(Bytes.toBytes(before + delta)));
        c.noncesAboveFloor.computeIfAbsent(info.getEncodedName(), k -> new HashSet<>()).add(nonce);
        c.noncesUnflushed.computeIfAbsent(info.getEncodedName(), k -> new HashSet<>()).add(nonce);
      } else if (dice < 97) {
        region.flush(); // its cells are then both in store files and in the log
        c.noncesUnflushed.remove(info.getEncodedName());
      } else {
        // A move away and back: the close records a floor, below which the split drops edits.
        long last = host.close(info.getEncodedName());
        catalog.recordFloors(T, Map.of(info.getEncodedName(), last));
        host.open(info, desc, last);
        c.noncesAboveFloor.remove(info.getEncodedName());
        c.noncesUnflushed.remove(info.getEncodedName());
      }
    }
    host.abort(); // no flush; the log keeps every acknowledged edit; the lock is released
    return c;
  }

  /** The master's fence: rename the log directory, then take its lock (free once the host died). */
  static String fence(Storage storage, String server) throws IOException {
    String live = Wal.DIR + "/" + server;
    String splitting = live + WalSplitter.SPLITTING_SUFFIX;
    if (storage.isDirectory(live)) {
      storage.rename(live, splitting);
    }
    Closeable lock = storage.tryLockDirectory(splitting);
    assertThat(lock).as("the dead host's lock is free").isNotNull();
    lock.close();
    return splitting;
  }

  /** Opens every region of the table on {@code host} with its catalog floor. */
  static void openAll(RegionHost host, ClusterCatalog catalog) throws IOException {
    ClusterCatalog.TableEntry t = catalog.requireTable(T);
    for (ClusterCatalog.RegionEntry r : t.regions()) {
      host.open(r.info(), t.descriptor(), r.sequenceFloor());
    }
  }

  /** What the host serves: row -> "family:qualifier" -> value, newest versions. */
  static Map<String, Map<String, String>> read(RegionHost host) throws IOException {
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (Region region : host.regions()) {
      try (RegionScanner s = region.getScanner(new Scan())) {
        for (Result r = s.next(); r != null; r = s.next()) {
          for (Cell cell : r.rawCells()) {
            out.computeIfAbsent(Bytes.toString(CellUtil.cloneRow(cell)), k -> new TreeMap<>())
                .put(
                    Bytes.toString(CellUtil.cloneFamily(cell))
                        + ":"
                        + Bytes.toString(CellUtil.cloneQualifier(cell)),
                    Bytes.toStringBinary(CellUtil.cloneValue(cell)));
          }
        }
      }
    }
    return out;
  }

  static Map<String, Map<String, String>> withoutEmptyRows(Map<String, Map<String, String>> m) {
    Map<String, Map<String, String>> out = new TreeMap<>();
    m.forEach(
        (row, cols) -> {
          if (!cols.isEmpty()) {
            out.put(row, cols);
          }
        });
    return out;
  }

  private static List<String> recoveredEditsFiles(Crashed c) throws IOException {
    List<String> out = new ArrayList<>();
    for (RegionInfo r : c.catalog.requireTable(T).regionInfos()) {
      out.addAll(WalSplitter.recoveredEdits(c.storage, Catalog.regionDir(r)));
    }
    return out;
  }

  @Test
  void everyAcknowledgedEditReadsBackAfterACrashSplitAndReplay() throws IOException {
    for (long seed = 1; seed <= 4; seed++) {
      Crashed c = crash(dir.resolve("seed" + seed), seed, 400);
      String splitting = fence(c.storage, DEAD);
      WalSplitter.Result first =
          WalSplitter.split(c.storage, splitting, c.catalog::recoveryTarget, false);
      List<String> files = recoveredEditsFiles(c);
      Map<String, byte[]> contents = new HashMap<>();
      for (String f : files) {
        contents.put(f, Files.readAllBytes(c.storage.root().resolve(f)));
      }
      WalSplitter.Result again =
          WalSplitter.split(c.storage, splitting, c.catalog::recoveryTarget, false);
      assertThat(again.maxSequenceByRegion()).isEqualTo(first.maxSequenceByRegion());
      assertThat(again.filesWritten()).isEqualTo(first.filesWritten());
      assertThat(again.editsWritten()).isEqualTo(first.editsWritten());
      assertThat(recoveredEditsFiles(c))
          .as("a second split rewrites the same files")
          .isEqualTo(files);
      WalSplitter.archive(c.storage, splitting);
      assertThat(c.storage.exists(splitting)).isFalse();

      List<Database.RecoveredNonce> nonces = new ArrayList<>();
      try (RegionHost b =
          RegionHost.start(c.storage, "h,16020,2", Config.defaults(), Clock.system())) {
        b.onRecoveredNonces(nonces::addAll);
        openAll(b, c.catalog);
        assertThat(read(b)).as("seed %d", seed).isEqualTo(withoutEmptyRows(c.model));
        c.checkNonces(nonces);
        assertThat(c.allNoncesUnflushed()).as("seed %d tests nonces", seed).isNotEmpty();
        assertThat(recoveredEditsFiles(c)).as("deleted after the flush").isEmpty();
        for (Region r : b.regions()) {
          String name = r.getRegionInfo().getEncodedName();
          assertThat(
                  c.storage.exists(
                      Catalog.regionDir(r.getRegionInfo()) + "/" + WalSplitter.RECOVERED_EDITS_DIR))
              .isFalse();
          assertThat(r.getLastSequenceId())
              .as("the sequence continues after the replayed ids")
              .isGreaterThanOrEqualTo(first.maxSequenceByRegion().getOrDefault(name, 0L));
        }
        // New edits on top, then a clean close and another host: all of it is in store files.
        Region any = b.regions().iterator().next();
        byte[] row =
            any.getRegionInfo().getStartKey().length == 0
                ? Bytes.toBytes("r0")
                : any.getRegionInfo().getStartKey();
        any.put(new Put(row).addColumn(FAMILIES[1], Bytes.toBytes("after"), Bytes.toBytes("x")));
        c.model.computeIfAbsent(Bytes.toString(row), k -> new TreeMap<>()).put("b:after", "x");
        Map<String, Long> floors = new HashMap<>();
        for (Region r : b.regions()) {
          String name = r.getRegionInfo().getEncodedName();
          floors.put(name, b.close(name));
        }
        c.catalog.recordFloors(T, floors);
      }
      try (RegionHost third =
          RegionHost.start(c.storage, "h,16020,3", Config.defaults(), Clock.system())) {
        openAll(third, c.catalog);
        assertThat(read(third)).isEqualTo(withoutEmptyRows(c.model));
      }
    }
  }

  @Test
  void aSplitInterruptedAtEitherFaultPointIsRepairedByRunningItAgain() throws IOException {
    for (String point : List.of(WalSplitter.FAULT_SOME_WRITTEN, WalSplitter.FAULT_BEFORE_RENAME)) {
      Crashed c = crash(dir.resolve(point), 21, 300);
      String splitting = fence(c.storage, DEAD);
      FaultPoints.arm(point, FaultPoints.THROW);
      assertThatThrownBy(
              () -> WalSplitter.split(c.storage, splitting, c.catalog::recoveryTarget, false))
          .isInstanceOf(FaultPoints.InjectedFault.class);
      FaultPoints.disarmAll();
      WalSplitter.split(c.storage, splitting, c.catalog::recoveryTarget, false);
      WalSplitter.archive(c.storage, splitting);
      try (RegionHost b =
          RegionHost.start(c.storage, "h,16020,2", Config.defaults(), Clock.system())) {
        openAll(b, c.catalog);
        assertThat(read(b)).as(point).isEqualTo(withoutEmptyRows(c.model));
      }
    }
  }

  @Test
  void aReplayFlushedButNotCleanedUpReplaysAgainToTheSameData() throws IOException {
    Crashed c = crash(dir, 31, 300);
    String splitting = fence(c.storage, DEAD);
    WalSplitter.split(c.storage, splitting, c.catalog::recoveryTarget, false);
    WalSplitter.archive(c.storage, splitting);
    List<String> files = recoveredEditsFiles(c);
    assertThat(files).isNotEmpty();

    RegionHost b = RegionHost.start(c.storage, "h,16020,2", Config.defaults(), Clock.system());
    FaultPoints.arm(RegionHost.FAULT_RECOVERED_EDITS_FLUSHED, FaultPoints.THROW);
    ClusterCatalog.RegionEntry first = c.catalog.requireTable(T).regions().get(0);
    assertThatThrownBy(() -> b.open(first.info(), c.desc, first.sequenceFloor()))
        .isInstanceOf(FaultPoints.InjectedFault.class);
    assertThat(b.region(first.info().getEncodedName())).as("not opened").isNull();
    b.abort(); // the host dies before it could delete the files
    FaultPoints.disarmAll();
    assertThat(recoveredEditsFiles(c)).isEqualTo(files);

    List<Database.RecoveredNonce> nonces = new ArrayList<>();
    try (RegionHost again =
        RegionHost.start(c.storage, "h,16020,3", Config.defaults(), Clock.system())) {
      again.onRecoveredNonces(nonces::addAll);
      openAll(again, c.catalog);
      assertThat(read(again)).isEqualTo(withoutEmptyRows(c.model));
      c.checkNonces(nonces); // replayed again, the nonces come again
      assertThat(recoveredEditsFiles(c)).isEmpty();
    }
  }

  @Test
  void aTornTailAtTheEndOfTheLastSegmentLosesNoAcknowledgedEdit() throws IOException {
    Crashed c = crash(dir, 41, 300);
    String live = Wal.DIR + "/" + DEAD;
    List<String> segs = c.storage.list(live).stream().filter(Wal::isSegment).toList();
    Path last = c.storage.root().resolve(live).resolve(segs.get(segs.size() - 1));
    long whole = Files.size(last);
    try (RandomAccessFile f = new RandomAccessFile(last.toFile(), "rw")) {
      f.seek(whole);
      f.writeInt(500); // a frame header promising 500 bytes, and 30 of them
      f.writeInt(99);
      f.write(new byte[30]);
    }
    String splitting = fence(c.storage, DEAD);
    WalSplitter.split(c.storage, splitting, c.catalog::recoveryTarget, false);
    try (RegionHost b =
        RegionHost.start(c.storage, "h,16020,2", Config.defaults(), Clock.system())) {
      openAll(b, c.catalog);
      assertThat(read(b)).isEqualTo(withoutEmptyRows(c.model));
    }
  }

  @Test
  void aDamagedRecoveredEditsFileFailsTheOpenUnlessErrorsAreSkipped() throws IOException {
    Crashed c = crash(dir, 51, 200);
    String splitting = fence(c.storage, DEAD);
    WalSplitter.split(c.storage, splitting, c.catalog::recoveryTarget, false);
    ClusterCatalog.RegionEntry first = c.catalog.requireTable(T).regions().get(0);
    List<String> files = WalSplitter.recoveredEdits(c.storage, Catalog.regionDir(first.info()));
    assertThat(files).hasSize(1);
    Path p = c.storage.root().resolve(files.get(0));
    byte[] b = Files.readAllBytes(p);
    b[b.length / 2] ^= 0x40;
    Files.write(p, b);
    try (RegionHost host =
        RegionHost.start(c.storage, "h,16020,2", Config.defaults(), Clock.system())) {
      assertThatThrownBy(() -> host.open(first.info(), c.desc, first.sequenceFloor()))
          .isInstanceOf(WalCorruptionException.class)
          .hasMessageContaining(c.storage.describe(files.get(0)))
          .hasMessageContaining("offset");
      assertThat(host.region(first.info().getEncodedName())).isNull();
      assertThat(Files.exists(p)).as("kept for the operator").isTrue();
    }
    Config skip = Config.builder().set(WalSettings.SKIP_REPLAY_ERRORS, true).build();
    try (RegionHost host = RegionHost.start(c.storage, "h,16020,3", skip, Clock.system())) {
      assertThat(host.open(first.info(), c.desc, first.sequenceFloor())).isNotNull();
      assertThat(Files.exists(p)).isFalse();
    }
  }

  @Test
  void theRecoveryTargetIsTheCatalogsRegionDirectoryAndFloor() throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    catalog.createTable(descriptor(), new byte[][] {Bytes.toBytes("m")});
    ClusterCatalog.RegionEntry r = catalog.requireTable(T).regions().get(1);
    String name = r.info().getEncodedName();
    catalog.recordFloors(T, Map.of(name, 17L));
    assertThat(catalog.recoveryTarget(name))
        .isEqualTo(new WalSplitter.Target(Catalog.regionDir(r.info()), 17));
    catalog.setEnabled(T, false, Map.of());
    assertThat(catalog.recoveryTarget(name)).as("disabled tables too").isNotNull();
    assertThat(catalog.recoveryTarget("0123456789abcdef0123456789abcdef")).isNull();
    catalog.deleteTable(T);
    assertThat(catalog.recoveryTarget(name)).isNull();
  }

  @Test
  void aLiveHostHoldsItsLogsLockAndStopsWritingOnceTheLogIsRenamedAway() throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    catalog.createTable(descriptor(), null);
    ClusterCatalog.RegionEntry r = catalog.requireTable(T).regions().get(0);
    RegionHost host = RegionHost.start(storage, DEAD, Config.defaults(), Clock.system());
    String live = Wal.DIR + "/" + DEAD;
    assertThat(dev.basalt.fs.LockHolder.parse(storage.lockHolder(live)))
        .isEqualTo(dev.basalt.fs.LockHolder.current());
    assertThatThrownBy(() -> RegionHost.start(storage, DEAD, Config.defaults(), Clock.system()))
        .as("a second host of that name")
        .hasMessageContaining("locked by");
    Region region = host.open(r.info(), catalog.requireTable(T).descriptor(), 0);
    region.put(new Put(Bytes.toBytes("a")).addColumn(FAMILIES[0], COUNTER, Bytes.toBytes("1")));

    storage.rename(live, live + WalSplitter.SPLITTING_SUFFIX); // a master declared it dead
    assertThat(storage.tryLockDirectory(live + WalSplitter.SPLITTING_SUFFIX))
        .as("the live host still holds it")
        .isNull();
    host.getWal().requestRoll(); // the next segment would land in a new WALs/<server>
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 100; i++) {
                region.put(
                    new Put(Bytes.toBytes("b" + i))
                        .addColumn(FAMILIES[0], COUNTER, Bytes.toBytes("2")));
                Thread.sleep(10);
              }
            })
        .as("the log refuses once it finds its directory gone (it cannot create one)")
        .hasMessageContaining("renamed away to recover this server's log");
    assertThat(storage.exists(live)).as("the new directory is removed again").isFalse();
    host.abort();
    Closeable lock = storage.tryLockDirectory(live + WalSplitter.SPLITTING_SUFFIX);
    assertThat(lock).as("released when the host stopped").isNotNull();
    lock.close();
  }

  @Test
  void anEmbeddedDatabaseDoesNotTakeARecoveredEditsDirectoryForAFamily() throws IOException {
    try (Database db = Database.open(dir)) {
      db.createTable(descriptor());
      db.getTable(T)
          .put(new Put(Bytes.toBytes("r")).addColumn(FAMILIES[0], COUNTER, Bytes.toBytes("v")));
    }
    LocalStorage storage = new LocalStorage(dir);
    RegionInfo info;
    try (Database db = Database.open(dir)) {
      info = db.getRegions(T).get(0);
    }
    String edits = Catalog.regionDir(info) + "/" + WalSplitter.RECOVERED_EDITS_DIR + "/h,1,1";
    try (var out = storage.create(edits)) {
      out.write(Bytes.toBytes("not a family, not a store file"));
    }
    try (Database db = Database.open(dir)) {
      assertThat(
              Bytes.toString(
                  db.getTable(T)
                      .get(new dev.basalt.ops.Get(Bytes.toBytes("r")))
                      .getValue(FAMILIES[0], COUNTER)))
          .isEqualTo("v");
      db.majorCompact(T);
    }
    assertThat(storage.exists(edits)).as("left where it is").isTrue();
  }
}
