package dev.basalt.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.WritableFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The segment format: round trips, torn tails at every byte, and damage in the middle. */
class WalFormatTest {
  private static final String SEG = "WALs/s1/" + Wal.segmentName(0);

  @TempDir Path tmp;

  static WalEntry randomEntry(Random rnd, long firstSeq) {
    int n = 1 + rnd.nextInt(4);
    List<KeyValue> cells = new ArrayList<>();
    byte[] row = new byte[1 + rnd.nextInt(20)];
    rnd.nextBytes(row);
    CellType[] types = {
      CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN, CellType.DELETE_FAMILY
    };
    for (int i = 0; i < n; i++) {
      byte[] q = new byte[rnd.nextInt(6)];
      rnd.nextBytes(q);
      byte[] v = new byte[rnd.nextInt(rnd.nextInt(10) == 0 ? 5000 : 40)];
      rnd.nextBytes(v);
      KeyValue kv =
          KeyValue.of(
                  row,
                  Bytes.toBytes("f" + rnd.nextInt(3)),
                  q,
                  rnd.nextInt(1 << 30),
                  types[rnd.nextInt(types.length)],
                  v)
              .withSequenceId(firstSeq + rnd.nextInt(3));
      // Some puts carry a per-cell TTL (types 7 and 8), chosen without drawing more numbers.
      if (kv.getType() == CellType.PUT && kv.getTimestamp() % 4 == 0) {
        kv = kv.withTtl(kv.getTimestamp() % 3 == 0 ? -kv.getTimestamp() : kv.getTimestamp());
      }
      cells.add(kv);
    }
    List<UUID> ids = new ArrayList<>();
    for (int i = rnd.nextInt(3); i > 0; i--) {
      ids.add(new UUID(rnd.nextLong(), rnd.nextLong()));
    }
    // A third of the edits carry a client nonce (type 6 frames), any 64-bit values but 0.
    long nonce = rnd.nextInt(3) == 0 ? rnd.nextLong() | 1 : WalEntry.NO_NONCE;
    return new WalEntry(
        "region" + rnd.nextInt(5),
        Math.abs(rnd.nextLong() % 1_000_000_000L),
        ids,
        cells,
        nonce == WalEntry.NO_NONCE ? 0 : rnd.nextLong(),
        nonce);
  }

  /**
   * Writes a segment as a crash leaves it: header, the dictionary frames of every region and
   * cluster the entries use, then the edit frames, no trailer; returns the edit frames' offsets.
   */
  private List<Long> writeSegment(LocalStorage s, String path, List<WalEntry> entries)
      throws IOException {
    try (WritableFile f = s.create(path)) {
      return writeFrames(f, entries);
    }
  }

  /** Header, dictionary and edit frames (see {@link #writeSegment}); the edits' offsets. */
  static List<Long> writeFrames(WritableFile f, List<WalEntry> entries) throws IOException {
    f.write(WalFormat.header("s1", 42));
    Map<String, Integer> regions = new HashMap<>();
    Map<UUID, Integer> clusters = new HashMap<>();
    for (WalEntry e : entries) {
      if (!regions.containsKey(e.region())) {
        regions.put(e.region(), regions.size() * 100); // ids need not be dense
        f.write(WalFormat.regionFrame(regions.get(e.region()), e.region()));
      }
      for (UUID c : e.clusterIds()) {
        if (!clusters.containsKey(c)) {
          clusters.put(c, clusters.size() * 1000);
          f.write(WalFormat.clusterFrame(clusters.get(c), c));
        }
      }
    }
    List<Long> offsets = new ArrayList<>();
    for (WalEntry e : entries) {
      offsets.add(f.position());
      f.write(WalFormat.editFrame(e, regions.get(e.region()), clusterIds(e, clusters)));
    }
    return offsets;
  }

  private static int[] clusterIds(WalEntry e, Map<UUID, Integer> clusters) {
    return e.clusterIds().stream().mapToInt(clusters::get).toArray();
  }

  private static List<WalEntry> replayAll(LocalStorage s, boolean skipErrors) throws IOException {
    List<WalEntry> out = new ArrayList<>();
    WalReplay.replay(s, "s1", skipErrors, out::add);
    return out;
  }

  private static void assertSameEntries(List<WalEntry> actual, List<WalEntry> expected) {
    assertThat(actual).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      WalEntry a = actual.get(i);
      WalEntry e = expected.get(i);
      assertThat(a.region()).isEqualTo(e.region());
      assertThat(a.writeTime()).isEqualTo(e.writeTime());
      assertThat(a.clusterIds()).isEqualTo(e.clusterIds());
      assertThat(a.nonceGroup()).isEqualTo(e.nonceGroup());
      assertThat(a.nonce()).isEqualTo(e.nonce());
      assertThat(a.cells()).isEqualTo(e.cells());
      for (int c = 0; c < e.cells().size(); c++) {
        assertThat(a.cells().get(c).getSequenceId()).isEqualTo(e.cells().get(c).getSequenceId());
        assertThat(a.cells().get(c).getTtl()).isEqualTo(e.cells().get(c).getTtl());
      }
    }
  }

  @Property(tries = 100)
  void entriesRoundTrip(@ForAll long seed, @ForAll @IntRange(min = 0, max = 30) int count)
      throws IOException {
    // jqwik properties do not get JUnit's @TempDir
    Path dir = Files.createTempDirectory("basalt-wal-rt");
    LocalStorage s = new LocalStorage(dir);
    Random rnd = new Random(seed);
    List<WalEntry> entries = new ArrayList<>();
    long seq = 1;
    for (int i = 0; i < count; i++) {
      entries.add(randomEntry(rnd, seq));
      seq += 5;
    }
    try {
      writeSegment(s, SEG, entries);
      assertSameEntries(replayAll(s, false), entries);
    } finally {
      s.delete("");
    }
  }

  /** A put of row r, column f:a, timestamp 5. */
  private static KeyValue putOfRowR(byte[] value) {
    return KeyValue.of(
        Bytes.toBytes("r"), Bytes.toBytes("f"), Bytes.toBytes("a"), 5, CellType.PUT, value);
  }

  @Test
  void anEditFrameIsExactlyItsLengthFieldAndDecodesWithMultiByteSequenceDeltas() {
    // Sequence deltas of 1, 2 and 3 varint bytes, cells from arrays at an offset, a cluster id.
    byte[] shared = new byte[300];
    KeyValue a = putOfRowR(new byte[] {1, 2});
    System.arraycopy(a.getBuffer(), 0, shared, 17, a.getLength());
    List<KeyValue> cells =
        List.of(
            new KeyValue(shared, 17, a.getLength(), 1_000_000L),
            a.withSequenceId(1_000_000L + 127),
            a.withSequenceId(1_000_000L + 128),
            a.withSequenceId(1_000_000L + 70_000));
    UUID cluster = new UUID(3, 4);
    WalEntry e = new WalEntry("0123abcd", 99, List.of(cluster), cells);
    byte[] f = WalFormat.editFrame(e, 200, new int[] {70_000});
    assertThat(Bytes.readInt(f, 0)).isEqualTo(f.length - WalFormat.FRAME_HEADER);
    byte[] payload = java.util.Arrays.copyOfRange(f, WalFormat.FRAME_HEADER, f.length);
    assertThat(Bytes.readInt(f, 4)).isEqualTo(WalFormat.crc(payload, 0, payload.length));
    WalEntry d =
        WalFormat.decodeEdit(
            payload, id -> id == 200 ? "0123abcd" : null, id -> id == 70_000 ? cluster : null);
    assertSameEntries(List.of(d), List.of(e));
    assertThatThrownBy(() -> WalFormat.decodeEdit(payload, id -> null, id -> cluster))
        .hasMessageContaining("region id 200 is not defined");
    assertThatThrownBy(() -> WalFormat.decodeEdit(payload, id -> "0123abcd", id -> null))
        .hasMessageContaining("cluster id 70000 is not defined");
  }

  @Test
  void anEditWithANonceIsTypeSixWithGroupAndNonceBeforeTheCells() {
    KeyValue a = putOfRowR(new byte[8]).withSequenceId(9);
    WalEntry e = new WalEntry("0123abcd", 99, List.of(), List.of(a), -3L, Long.MIN_VALUE);
    byte[] f = WalFormat.editFrame(e, 1, new int[0]);
    byte[] plain =
        WalFormat.editFrame(new WalEntry("0123abcd", 99, List.of(), List.of(a)), 1, new int[0]);
    assertThat(f.length).isEqualTo(plain.length + 16);
    int p = WalFormat.FRAME_HEADER;
    assertThat(f[p]).isEqualTo(WalFormat.TYPE_EDIT_NONCE);
    assertThat(plain[p]).isEqualTo(WalFormat.TYPE_EDIT);
    // type, region id 1, first sequence id 9, write time 99, no cluster ids: 5 bytes
    assertThat(Bytes.readLong(f, p + 5)).isEqualTo(-3L);
    assertThat(Bytes.readLong(f, p + 13)).isEqualTo(Long.MIN_VALUE);
    byte[] payload = java.util.Arrays.copyOfRange(f, p, f.length);
    WalEntry d = WalFormat.decodeEdit(payload, id -> "0123abcd", id -> null);
    assertSameEntries(List.of(d), List.of(e));
    byte[] cut = java.util.Arrays.copyOf(payload, 5 + 12);
    assertThatThrownBy(() -> WalFormat.decodeEdit(cut, id -> "0123abcd", id -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ends early");
  }

  @Test
  void anEditWithPerCellTtlsIsTypeSevenOrEightAndFlagsEachCell() {
    KeyValue plain = putOfRowR(new byte[] {1}).withSequenceId(9);
    KeyValue ttl = putOfRowR(new byte[] {2}).withSequenceId(10).withTtl(86_400_000L);
    byte[] without =
        WalFormat.editFrame(new WalEntry("0123abcd", 99, List.of(), List.of(plain)), 1, new int[0]);
    byte[] with =
        WalFormat.editFrame(
            new WalEntry("0123abcd", 99, List.of(), List.of(plain, ttl)), 1, new int[0]);
    byte[] withNonce =
        WalFormat.editFrame(
            new WalEntry("0123abcd", 99, List.of(), List.of(ttl), 5, 6), 1, new int[0]);
    int p = WalFormat.FRAME_HEADER;
    assertThat(without[p]).isEqualTo(WalFormat.TYPE_EDIT); // no TTL: byte for byte as before
    assertThat(with[p]).isEqualTo(WalFormat.TYPE_EDIT_TTL);
    assertThat(withNonce[p]).isEqualTo(WalFormat.TYPE_EDIT_TTL_NONCE);
    // type, region 1, first seq 9, time 99, no clusters, 2 cells; then (0 << 1 | 0) and the first
    // cell, then (1 << 1 | 1), the TTL and the second cell.
    int cells = p + 6;
    assertThat(with[cells]).isEqualTo((byte) 0);
    int second = cells + 1 + plain.getLength();
    assertThat(with[second]).isEqualTo((byte) 3);
    assertThat(Bytes.readLong(with, second + 1)).isEqualTo(86_400_000L);
    for (byte[] f : List.of(with, withNonce)) {
      byte[] payload = java.util.Arrays.copyOfRange(f, p, f.length);
      WalEntry d = WalFormat.decodeEdit(payload, id -> "0123abcd", id -> null);
      assertThat(d.cells().get(d.cells().size() - 1).getTtl()).isEqualTo(86_400_000L);
    }
    assertThat(
            WalFormat.decodeEdit(
                    java.util.Arrays.copyOfRange(with, p, with.length),
                    id -> "0123abcd",
                    id -> null)
                .cells()
                .get(0)
                .getTtl())
        .isEqualTo(KeyValue.NO_TTL);
  }

  @Test
  void aTornLastEntryIsDroppedAtEveryByteOffset() throws IOException {
    Random rnd = new Random(7);
    List<WalEntry> entries =
        List.of(randomEntry(rnd, 1), randomEntry(rnd, 10), randomEntry(rnd, 20));
    Path base = Files.createTempDirectory(tmp, "base");
    LocalStorage s = new LocalStorage(base);
    List<Long> offsets = writeSegment(s, SEG, entries);
    byte[] whole = Files.readAllBytes(base.resolve(SEG));
    long lastStart = offsets.get(2);
    for (long cut = lastStart; cut <= whole.length; cut++) {
      Path dir = Files.createTempDirectory(tmp, "cut");
      Files.createDirectories(dir.resolve("WALs/s1"));
      Files.write(dir.resolve(SEG), java.util.Arrays.copyOf(whole, (int) cut));
      LocalStorage cs = new LocalStorage(dir);
      List<WalEntry> got = replayAll(cs, false);
      if (cut == whole.length) {
        assertSameEntries(got, entries);
      } else {
        assertSameEntries(got, entries.subList(0, 2));
        assertThat(Files.size(dir.resolve(SEG)))
            .as("torn tail at %d skipped, the file left as it is (HDFS cannot cut it)", cut)
            .isEqualTo(cut);
        assertSameEntries(replayAll(cs, false), entries.subList(0, 2));
      }
    }
  }

  @Test
  void aSegmentCutInsideItsHeaderHoldsNothingAndIsRemoved() throws IOException {
    LocalStorage s = new LocalStorage(tmp);
    byte[] header = WalFormat.header("s1", 42);
    for (int cut = 0; cut < header.length; cut++) {
      Files.createDirectories(tmp.resolve("WALs/s1"));
      Files.write(tmp.resolve(SEG), java.util.Arrays.copyOf(header, cut));
      assertThat(replayAll(s, false)).isEmpty();
      assertThat(Files.exists(tmp.resolve(SEG))).isFalse();
    }
  }

  @Test
  void aFlippedBitInTheMiddleIsReportedWithFileAndOffset() throws IOException {
    Random rnd = new Random(11);
    List<WalEntry> entries = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      entries.add(randomEntry(rnd, 1 + 10L * i));
    }
    Path base = Files.createTempDirectory(tmp, "base");
    List<Long> offsets = writeSegment(new LocalStorage(base), SEG, entries);
    byte[] whole = Files.readAllBytes(base.resolve(SEG));
    long start = offsets.get(2);
    long end = offsets.get(3);
    // Every bit of a middle frame: its length, its checksum and its payload.
    for (long pos = start; pos < end; pos += Math.max(1, (end - start) / 97)) {
      for (int bit = 0; bit < 8; bit += 3) {
        byte[] damaged = whole.clone();
        damaged[(int) pos] ^= (byte) (1 << bit);
        Path dir = Files.createTempDirectory(tmp, "flip");
        Files.createDirectories(dir.resolve("WALs/s1"));
        Files.write(dir.resolve(SEG), damaged);
        LocalStorage ds = new LocalStorage(dir);
        assertThatThrownBy(() -> replayAll(ds, false))
            .as("flip at byte %d bit %d", pos, bit)
            .isInstanceOf(WalCorruptionException.class)
            .hasMessageContaining(ds.describe(SEG))
            .hasMessageContaining("at offset " + start)
            .satisfies(e -> assertThat(((WalCorruptionException) e).offset()).isEqualTo(start));
        assertThat(Files.size(dir.resolve(SEG))).as("nothing truncated").isEqualTo(whole.length);
      }
    }
  }

  @Test
  void skippingErrorsLosesOnlyTheBadEntry() throws IOException {
    Random rnd = new Random(3);
    List<WalEntry> entries = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      entries.add(randomEntry(rnd, 1 + 10L * i));
    }
    List<Long> offsets = writeSegment(new LocalStorage(tmp), SEG, entries);
    byte[] whole = Files.readAllBytes(tmp.resolve(SEG));
    whole[(int) (offsets.get(1) + 12)] ^= 1; // inside the payload of entry 1
    Files.write(tmp.resolve(SEG), whole);
    List<WalEntry> got = replayAll(new LocalStorage(tmp), true);
    assertSameEntries(got, List.of(entries.get(0), entries.get(2), entries.get(3)));
  }

  @Test
  void aTornTailOfAnOlderSegmentWithoutTrailerIsDropped() throws IOException {
    // A machine crash while a rolled segment was still being forced in the background.
    Random rnd = new Random(5);
    LocalStorage s = new LocalStorage(tmp);
    WalEntry a = randomEntry(rnd, 1);
    WalEntry b = randomEntry(rnd, 5);
    WalEntry c = randomEntry(rnd, 9);
    List<Long> offsets = writeSegment(s, SEG, List.of(a, b));
    writeSegment(s, "WALs/s1/" + Wal.segmentName(1), List.of(c));
    byte[] first = Files.readAllBytes(tmp.resolve(SEG));
    Files.write(tmp.resolve(SEG), java.util.Arrays.copyOf(first, first.length - 3));
    assertSameEntries(replayAll(s, false), List.of(a, c));
    assertThat(Files.size(tmp.resolve(SEG)))
        .as("skipped, not cut (the torn frame starts at %d)", offsets.get(1))
        .isEqualTo(first.length - 3);
    assertSameEntries(replayAll(s, false), List.of(a, c));
  }

  @Test
  void aTornFrameBeforeATrailerIsCorruptionInAnySegment() throws IOException {
    Random rnd = new Random(6);
    LocalStorage s = new LocalStorage(tmp);
    List<Long> offsets = new ArrayList<>();
    try (WritableFile f = s.create(SEG)) {
      offsets.addAll(writeFrames(f, List.of(randomEntry(rnd, 1), randomEntry(rnd, 5))));
      f.write(WalFormat.trailerFrame(2)); // closed cleanly
    }
    writeSegment(s, "WALs/s1/" + Wal.segmentName(1), List.of(randomEntry(rnd, 9)));
    byte[] bytes = Files.readAllBytes(tmp.resolve(SEG));
    bytes[(int) (long) offsets.get(1) + WalFormat.FRAME_HEADER + 3] ^= 1;
    Files.write(tmp.resolve(SEG), bytes);
    assertThatThrownBy(() -> replayAll(s, false))
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageContaining("at offset " + offsets.get(1));
  }

  @Test
  void notAWalSegmentIsRejected() throws IOException {
    Files.createDirectories(tmp.resolve("WALs/s1"));
    Files.write(tmp.resolve(SEG), "this is not a WAL segment at all".getBytes());
    Files.write(tmp.resolve("WALs/s1/" + Wal.segmentName(1)), WalFormat.header("s1", 1));
    assertThatThrownBy(() -> replayAll(new LocalStorage(tmp), false))
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageContaining("bad magic");
  }
}
