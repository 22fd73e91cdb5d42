package dev.basalt.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.WritableFile;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Segments written in format version 1 (before the dictionary frames) still replay, also followed
 * by version 2 segments of a newer log; other versions are refused with a clear message.
 */
class WalFormatV1Test {
  @TempDir Path tmp;

  /** The version 1 encoding of an edit frame, as the log wrote it before version 2. */
  static byte[] v1EditFrame(WalEntry e) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] region = e.region().getBytes(StandardCharsets.US_ASCII);
    long first = e.firstSequenceId();
    byte[] scratch = new byte[16];
    out.write(WalFormat.TYPE_EDIT_V1);
    out.write(region.length);
    out.write(region, 0, region.length);
    Bytes.putLong(scratch, 0, first);
    Bytes.putLong(scratch, 8, e.writeTime());
    out.write(scratch, 0, 16);
    out.write(e.clusterIds().size());
    for (UUID id : e.clusterIds()) {
      Bytes.putLong(scratch, 0, id.getMostSignificantBits());
      Bytes.putLong(scratch, 8, id.getLeastSignificantBits());
      out.write(scratch, 0, 16);
    }
    Bytes.putInt(scratch, 0, e.cells().size());
    out.write(scratch, 0, 4);
    for (KeyValue kv : e.cells()) {
      long v = kv.getSequenceId() - first;
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
      out.write(kv.getBuffer(), kv.getOffset(), kv.getLength());
    }
    byte[] payload = out.toByteArray();
    byte[] f = new byte[WalFormat.FRAME_HEADER + payload.length];
    Bytes.putInt(f, 0, payload.length);
    Bytes.putInt(f, 4, WalFormat.crc(payload, 0, payload.length));
    System.arraycopy(payload, 0, f, WalFormat.FRAME_HEADER, payload.length);
    return f;
  }

  private static List<WalEntry> replayAll(LocalStorage s) throws IOException {
    List<WalEntry> out = new ArrayList<>();
    WalReplay.replay(s, "s1", false, out::add);
    return out;
  }

  private static void assertSame(List<WalEntry> actual, List<WalEntry> expected) {
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i).region()).isEqualTo(expected.get(i).region());
      assertThat(actual.get(i).writeTime()).isEqualTo(expected.get(i).writeTime());
      assertThat(actual.get(i).clusterIds()).isEqualTo(expected.get(i).clusterIds());
      assertThat(actual.get(i).cells()).isEqualTo(expected.get(i).cells());
      assertThat(actual.get(i).firstSequenceId()).isEqualTo(expected.get(i).firstSequenceId());
    }
  }

  @Test
  void aVersion1SegmentReplaysAndALogContinuesAfterItInVersion2() throws IOException {
    Random rnd = new Random(17);
    LocalStorage s = new LocalStorage(tmp);
    List<WalEntry> old = new ArrayList<>();
    try (WritableFile f = s.create("WALs/s1/" + Wal.segmentName(0))) {
      f.write(WalFormat.header("s1", 42, WalFormatV1.VERSION));
      for (int i = 0; i < 5; i++) {
        WalEntry e = WalFormatTest.randomEntry(rnd, 1 + 10L * i);
        old.add(e);
        f.write(v1EditFrame(e));
      }
      f.write(WalFormat.trailerFrame(old.size()));
    }
    assertSame(replayAll(s), old);
    // A new log continues in a version 2 segment; both replay, in order.
    List<WalEntry> all = new ArrayList<>(old);
    try (Wal wal = new Wal(s, "s1", Config.defaults(), Clock.system(), List.of())) {
      for (int i = 0; i < 3; i++) {
        WalEntry e = WalFormatTest.randomEntry(rnd, 100 + 10L * i);
        all.add(e);
        wal.sync(wal.append(e), dev.basalt.ops.Durability.SYNC_WAL);
      }
    }
    assertSame(replayAll(s), all);
  }

  @Test
  void aDictionaryEntryInAVersion1SegmentIsCorruption() throws IOException {
    LocalStorage s = new LocalStorage(tmp);
    try (WritableFile f = s.create("WALs/s1/" + Wal.segmentName(0))) {
      f.write(WalFormat.header("s1", 42, WalFormatV1.VERSION));
      f.write(WalFormat.regionFrame(0, "r"));
      f.write(v1EditFrame(WalFormatTest.randomEntry(new Random(1), 1)));
    }
    assertThatThrownBy(() -> replayAll(s))
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageContaining("unknown entry type 3 in a version 1 segment");
  }

  @Test
  void anUnknownVersionIsRefusedNamingTheVersionsThisBuildReads() throws IOException {
    Files.createDirectories(tmp.resolve("WALs/s1"));
    Files.write(
        tmp.resolve("WALs/s1/" + Wal.segmentName(0)), WalFormat.header("s1", 42, (short) 3));
    assertThatThrownBy(() -> replayAll(new LocalStorage(tmp)))
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageContaining("unsupported WAL format version 3")
        .hasMessageContaining("versions 1 and 2");
  }
}
