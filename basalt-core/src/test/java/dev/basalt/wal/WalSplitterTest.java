package dev.basalt.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.Storage;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splitting a dead server's log into recovered edits per region: what is kept (everything an edit
 * was logged with), what is dropped (regions the targets drop, cells at or below a floor), torn
 * tails and corruption, repeated and interrupted splits, archiving.
 */
class WalSplitterTest {
  private static final String SERVER = "h,16020,1700000000000";
  private static final String SPLITTING = Wal.DIR + "/" + SERVER + WalSplitter.SPLITTING_SUFFIX;
  private static final UUID CLUSTER_A = new UUID(1, 2);
  private static final UUID CLUSTER_B = new UUID(3, 4);

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  /** Region names as the log has them: 32 hex characters. */
  private static String region(int i) {
    return String.format("%032x", i);
  }

  /**
   * Random edits of {@code regions} regions with increasing sequence ids per region: some with two
   * cells of consecutive ids, nonces, per-cell TTLs, two cluster ids.
   */
  private static List<WalEntry> randomEdits(Random rnd, int regions, int count) {
    List<WalEntry> out = new ArrayList<>();
    long[] seq = new long[regions];
    for (int i = 0; i < count; i++) {
      int r = rnd.nextInt(regions);
      int cells = 1 + rnd.nextInt(2);
      List<KeyValue> kvs = new ArrayList<>();
      for (int c = 0; c < cells; c++) {
        KeyValue kv =
            KeyValue.of(
                    Bytes.toBytes("row" + rnd.nextInt(50)),
                    Bytes.toBytes(rnd.nextBoolean() ? "a" : "b"),
                    Bytes.toBytes("q" + c),
                    1000 + i,
                    rnd.nextInt(5) == 0 ? CellType.DELETE_COLUMN : CellType.PUT,
                    Bytes.toBytes("v" + i))
                .withSequenceId(++seq[r]);
        if (rnd.nextInt(4) == 0) {
          kv = kv.withTtl(60_000L + rnd.nextInt(1000));
        }
        kvs.add(kv);
      }
      List<UUID> clusters =
          rnd.nextInt(3) == 0 ? List.of(CLUSTER_B, CLUSTER_A) : List.of(CLUSTER_A);
      boolean nonce = rnd.nextInt(3) == 0;
      out.add(
          new WalEntry(
              region(r),
              1_700_000_000_000L + i,
              clusters,
              kvs,
              nonce ? 42 : 0,
              nonce ? rnd.nextLong() | 1 : WalEntry.NO_NONCE));
    }
    return out;
  }

  /** Writes the edits as a server's log of several segments, as a crash leaves it (no close). */
  private static void writeLog(Storage s, List<WalEntry> edits) throws IOException {
    Config small = Config.builder().set(WalSettings.ROLL_SIZE, 4096L).build();
    Wal wal = new Wal(s, SERVER, small, Clock.system(), List.of());
    for (WalEntry e : edits) {
      wal.sync(wal.append(e), Durability.SYNC_WAL);
    }
    // Abandoned, not closed: the last segment has no trailer. (Its threads are daemons.)
    s.rename(Wal.DIR + "/" + SERVER, SPLITTING);
  }

  /** Every field an edit carries, the cells' sequence ids and TTLs included. */
  private static String describe(WalEntry e) {
    StringBuilder b =
        new StringBuilder(e.region())
            .append(' ')
            .append(e.writeTime())
            .append(' ')
            .append(e.clusterIds())
            .append(' ')
            .append(e.nonceGroup())
            .append('/')
            .append(e.nonce());
    for (KeyValue kv : e.cells()) {
      b.append(" [").append(kv).append(" seq=").append(kv.getSequenceId());
      b.append(" ttl=").append(kv.getTtl()).append(']');
    }
    return b.toString();
  }

  /** What the recovered-edits files of each region hold, described. */
  private static Map<String, List<String>> readBack(Storage s, Map<String, String> regionDirs)
      throws IOException {
    Map<String, List<String>> out = new TreeMap<>();
    for (Map.Entry<String, String> r : regionDirs.entrySet()) {
      for (String f : WalSplitter.recoveredEdits(s, r.getValue())) {
        WalReplay.replayFile(
            s,
            f,
            false,
            e -> {
              assertThat(e.region()).isEqualTo(r.getKey());
              out.computeIfAbsent(r.getKey(), k -> new ArrayList<>()).add(describe(e));
            });
      }
    }
    return out;
  }

  /** The model: the edits a region must get, with cells at or below its floor removed. */
  private static Map<String, List<String>> expected(
      List<WalEntry> edits, Map<String, Long> floors, Map<String, String> dirs) {
    Map<String, List<String>> out = new TreeMap<>();
    for (WalEntry e : edits) {
      if (!dirs.containsKey(e.region())) {
        continue;
      }
      long floor = floors.getOrDefault(e.region(), 0L);
      List<KeyValue> kept = new ArrayList<>();
      for (KeyValue kv : e.cells()) {
        if (kv.getSequenceId() > floor) {
          kept.add(kv);
        }
      }
      if (!kept.isEmpty()) {
        out.computeIfAbsent(e.region(), k -> new ArrayList<>())
            .add(
                describe(
                    new WalEntry(
                        e.region(),
                        e.writeTime(),
                        e.clusterIds(),
                        kept,
                        e.nonceGroup(),
                        e.nonce())));
      }
    }
    return out;
  }

  private static Function<String, WalSplitter.Target> targets(
      Map<String, String> dirs, Map<String, Long> floors) {
    return r ->
        dirs.containsKey(r)
            ? new WalSplitter.Target(dirs.get(r), floors.getOrDefault(r, 0L))
            : null;
  }

  @Test
  void eachRegionGetsItsEditsWithEverythingTheyWereLoggedWith() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    for (long seed = 1; seed <= 5; seed++) {
      Random rnd = new Random(seed);
      String root = "run" + seed;
      LocalStorage run = new LocalStorage(dir.resolve(root));
      List<WalEntry> edits = randomEdits(rnd, 6, 400);
      writeLog(run, edits);
      assertThat(run.list(SPLITTING).stream().filter(Wal::isSegment).count())
          .as("several segments")
          .isGreaterThan(3);
      Map<String, String> dirs = new HashMap<>();
      Map<String, Long> floors = new HashMap<>();
      for (int r = 0; r < 5; r++) { // region 5 is no longer in the catalog
        dirs.put(region(r), "data/default/t/" + region(r));
        floors.put(region(r), (long) rnd.nextInt(40)); // some edits at or below it
      }
      floors.put(region(0), 0L);
      floors.put(region(1), Long.MAX_VALUE - 1); // everything persisted

      WalSplitter.Result result = WalSplitter.split(run, SPLITTING, targets(dirs, floors), false);

      Map<String, List<String>> want = expected(edits, floors, dirs);
      assertThat(readBack(run, dirs)).isEqualTo(want);
      assertThat(want).doesNotContainKey(region(1));
      assertThat(run.exists(dirs.get(region(1)) + "/" + WalSplitter.RECOVERED_EDITS_DIR)).isFalse();
      assertThat(run.exists("data/default/t/" + region(5))).isFalse();
      long written = want.values().stream().mapToLong(List::size).sum();
      assertThat(result.editsWritten()).isEqualTo(written);
      assertThat(result.editsDropped()).isEqualTo(edits.size() - written);
      assertThat(result.filesWritten())
          .containsExactlyInAnyOrderElementsOf(
              want.keySet().stream().map(r -> dirs.get(r) + "/recovered.edits/" + SERVER).toList());
      for (String r : want.keySet()) {
        long max = 0;
        for (WalEntry e : edits) {
          if (e.region().equals(r)) {
            max = Math.max(max, e.lastSequenceId());
          }
        }
        assertThat(result.maxSequenceByRegion()).containsEntry(r, max);
      }
      assertThat(result.maxSequenceByRegion().keySet()).isEqualTo(want.keySet());
      assertThat(s.list(root + "/" + SPLITTING)).as("split leaves the log").isNotEmpty();
    }
  }

  @Test
  void aLogOfMoreRegionsThanWritersIsReadOncePerBatchWithTheSameResult() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    List<WalEntry> edits = randomEdits(new Random(7), 9, 300);
    writeLog(s, edits);
    Map<String, String> dirs = new HashMap<>();
    for (int r = 0; r < 9; r++) {
      dirs.put(region(r), "data/default/t/" + region(r));
    }
    WalSplitter.Result batched = WalSplitter.split(s, SPLITTING, targets(dirs, Map.of()), false, 2);
    Map<String, List<String>> got = readBack(s, dirs);
    assertThat(got).isEqualTo(expected(edits, Map.of(), dirs));
    assertThat(batched.editsWritten()).isEqualTo(edits.size());
    assertThat(batched.editsDropped()).isZero();
    assertThat(batched.filesWritten()).hasSize(9);

    WalSplitter.Result whole = WalSplitter.split(s, SPLITTING, targets(dirs, Map.of()), false);
    assertThat(whole.maxSequenceByRegion()).isEqualTo(batched.maxSequenceByRegion());
    assertThat(readBack(s, dirs)).as("a second split rewrites the same files").isEqualTo(got);
  }

  @Test
  void aTornTailOfTheLastSegmentIsSkippedAndTheRestSplit() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    List<WalEntry> edits = randomEdits(new Random(3), 3, 100);
    writeLog(s, edits);
    List<String> segs = s.list(SPLITTING).stream().filter(Wal::isSegment).toList();
    Path last = dir.resolve(SPLITTING).resolve(segs.get(segs.size() - 1));
    long whole = Files.size(last);
    // Half of one more frame: its header claims 200 bytes, 17 follow.
    try (RandomAccessFile f = new RandomAccessFile(last.toFile(), "rw")) {
      f.seek(whole);
      f.writeInt(200);
      f.writeInt(12345);
      f.write(new byte[17]);
    }
    Map<String, String> dirs = new HashMap<>();
    for (int r = 0; r < 3; r++) {
      dirs.put(region(r), "data/default/t/" + region(r));
    }
    WalSplitter.split(s, SPLITTING, targets(dirs, Map.of()), false);
    assertThat(readBack(s, dirs)).isEqualTo(expected(edits, Map.of(), dirs));
    assertThat(Files.size(last)).as("the torn frame is skipped, not cut").isEqualTo(whole + 25);
  }

  @Test
  void damageInsideTheLogStopsTheSplitUnlessErrorsAreSkipped() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    List<WalEntry> edits = randomEdits(new Random(4), 3, 100);
    writeLog(s, edits);
    String first = s.list(SPLITTING).stream().filter(Wal::isSegment).findFirst().orElseThrow();
    Path seg = dir.resolve(SPLITTING).resolve(first);
    try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
      long at = Files.size(seg) / 2;
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x55);
    }
    Map<String, String> dirs = new HashMap<>();
    for (int r = 0; r < 3; r++) {
      dirs.put(region(r), "data/default/t/" + region(r));
    }
    assertThatThrownBy(() -> WalSplitter.split(s, SPLITTING, targets(dirs, Map.of()), false))
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageContaining(first);
    for (String d : dirs.values()) {
      assertThat(s.list(d + "/recovered.edits")).as("no file, not even a temporary one").isEmpty();
    }
    WalSplitter.Result r = WalSplitter.split(s, SPLITTING, targets(dirs, Map.of()), true);
    assertThat(r.editsWritten()).isBetween(edits.size() - 2L, edits.size() - 1L);
  }

  @Test
  void aSplitInterruptedAtEachFaultPointIsFinishedByTheNextOne() throws IOException {
    for (String point : List.of(WalSplitter.FAULT_SOME_WRITTEN, WalSplitter.FAULT_BEFORE_RENAME)) {
      LocalStorage s = new LocalStorage(dir.resolve(point));
      List<WalEntry> edits = randomEdits(new Random(11), 4, 200);
      writeLog(s, edits);
      Map<String, String> dirs = new HashMap<>();
      for (int r = 0; r < 4; r++) {
        dirs.put(region(r), "data/default/t/" + region(r));
      }
      FaultPoints.arm(point, FaultPoints.THROW);
      assertThatThrownBy(() -> WalSplitter.split(s, SPLITTING, targets(dirs, Map.of()), false))
          .isInstanceOf(FaultPoints.InjectedFault.class);
      FaultPoints.disarmAll();
      int complete = 0;
      for (String d : dirs.values()) {
        complete += WalSplitter.recoveredEdits(s, d).size();
      }
      if (point.equals(WalSplitter.FAULT_SOME_WRITTEN)) {
        assertThat(complete).as("one region's file is in place").isEqualTo(1);
      } else {
        assertThat(complete).as("no file got its name").isZero();
        // As a crash would leave it: the whole file under its temporary name.
        boolean tmp = false;
        for (String d : dirs.values()) {
          tmp |= s.exists(d + "/recovered.edits/" + SERVER + WalSplitter.TMP_SUFFIX);
        }
        assertThat(tmp).isTrue();
      }
      WalSplitter.split(s, SPLITTING, targets(dirs, Map.of()), false);
      assertThat(readBack(s, dirs)).isEqualTo(expected(edits, Map.of(), dirs));
      for (String d : dirs.values()) {
        assertThat(s.list(d + "/recovered.edits")).containsExactly(SERVER);
      }
    }
  }

  @Test
  void aDamagedRecoveredEditsFileFailsItsReplayNamingFileAndOffset() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    writeLog(s, randomEdits(new Random(5), 1, 50));
    String regionDir = "data/default/t/" + region(0);
    WalSplitter.split(s, SPLITTING, r -> new WalSplitter.Target(regionDir, 0), false);
    String file = regionDir + "/recovered.edits/" + SERVER;
    Path p = dir.resolve(file);
    long size = Files.size(p);

    // Cut short: the trailer is missing, which a file renamed into place whole cannot be.
    byte[] all = Files.readAllBytes(p);
    Files.write(p, java.util.Arrays.copyOf(all, all.length - 17));
    assertThatThrownBy(() -> WalReplay.replayFile(s, file, false, e -> {}))
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageContaining(s.describe(file))
        .hasMessageContaining("offset");
    assertThat(Files.size(p)).as("never truncated").isEqualTo(size - 17);

    Files.write(p, all);
    all[(int) (size / 2)] ^= 0x10;
    Files.write(p, all);
    assertThatThrownBy(() -> WalReplay.replayFile(s, file, false, e -> {}))
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageContaining(s.describe(file));
    int[] read = {0};
    WalReplay.replayFile(s, file, true, e -> read[0]++);
    assertThat(read[0]).as("the rest with skip errors").isBetween(40, 49);
  }

  @Test
  void archiveMovesTheSegmentsAndRemovesTheDirectoryEvenAfterAPartialRun() throws IOException {
    LocalStorage s = new LocalStorage(dir);
    Closeable lock = s.lockDirectory(Wal.DIR + "/" + SERVER, "pid=1 start=1 host=h");
    writeLog(s, randomEdits(new Random(6), 2, 200));
    lock.close();
    List<String> segs = s.list(SPLITTING).stream().filter(Wal::isSegment).toList();
    assertThat(segs.size()).isGreaterThan(2);
    assertThat(s.exists(SPLITTING + "/" + Storage.LOCK_FILE)).isTrue();
    // A first run that moved one segment and stopped.
    s.rename(SPLITTING + "/" + segs.get(0), Wal.OLD_DIR + "/" + SERVER + "." + segs.get(0));
    WalSplitter.archive(s, SPLITTING);
    assertThat(s.exists(SPLITTING)).isFalse();
    List<String> archived = new ArrayList<>();
    for (String n : segs) {
      archived.add(SERVER + "." + n);
    }
    assertThat(s.list(Wal.OLD_DIR)).containsExactlyElementsOf(archived);
    WalSplitter.archive(s, SPLITTING); // again: nothing left to do
    assertThat(s.list(Wal.OLD_DIR)).containsExactlyElementsOf(archived);
  }

  @Test
  void theServerIsTheLogDirectorysNameWithoutSplitting() {
    assertThat(WalSplitter.serverOf("WALs/h,1,2-splitting")).isEqualTo("h,1,2");
    assertThat(WalSplitter.serverOf("WALs/h,1,2")).isEqualTo("h,1,2");
    assertThat(WalSplitter.serverOf("WALs/h,1,2-splitting/")).isEqualTo("h,1,2");
    assertThatThrownBy(() -> WalSplitter.serverOf("WALs/-splitting"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
