package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.Storage;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's contract: order, temporary name, rename on finish, abort. */
class StoreFileWriterTest {
  private static final byte[] F = Bytes.toBytes("f");
  private final MemoryStorage storage = new MemoryStorage();

  private static KeyValue cell(String row, String q, long ts, long seq) {
    return KeyValue.of(
            Bytes.toBytes(row), F, Bytes.toBytes(q), ts, CellType.PUT, Bytes.toBytes("v"))
        .withSequenceId(seq);
  }

  @Test
  void theFilesACompactionReplacedAreRecordedAndReadBack() throws IOException {
    StoreFileWriter w =
        StoreFileWriter.create(
            storage, "out", new StoreFileOptions(4096, Compression.LZ4, BloomType.ROW));
    w.append(cell("r", "q", 5, 3));
    StoreFileInfo written = w.finish(9, true, List.of("a1b2", "c3d4é"));
    assertThat(written.compactedFrom()).containsExactly("a1b2", "c3d4é");
    try (StoreFileReader r = StoreFileReader.open(storage, "out", null, false, false)) {
      assertThat(r.info().compactedFrom()).containsExactly("a1b2", "c3d4é");
      assertThat(r.info().majorCompacted()).isTrue();
    }
    StoreFileWriter flush =
        StoreFileWriter.create(
            storage, "flushed", new StoreFileOptions(4096, Compression.NONE, BloomType.NONE));
    flush.append(cell("r", "q", 5, 3));
    assertThat(flush.finish(3, false).compactedFrom()).isEmpty();
  }

  @Test
  void rejectsCellsThatDoNotSortStrictlyAfterThePreviousOne() throws IOException {
    try (StoreFileWriter w = StoreFileWriter.create(storage, "x", StoreFileOptions.defaults())) {
      w.append(cell("b", "q", 5, 10));
      assertThatThrownBy(() -> w.append(cell("a", "q", 5, 11)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("order");
      assertThatThrownBy(() -> w.append(cell("b", "q", 5, 10)))
          .isInstanceOf(IllegalArgumentException.class);
      // Newer timestamps and higher sequence ids of the same key sort first.
      assertThatThrownBy(() -> w.append(cell("b", "q", 6, 1)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> w.append(cell("b", "q", 5, 11)))
          .isInstanceOf(IllegalArgumentException.class);
      w.append(cell("b", "q", 5, 9)); // same key, lower sequence id: after
      w.append(cell("b", "q", 4, 20));
      w.append(cell("c", "", 1, 1));
      w.finish(20, false);
    }
    try (StoreFileReader r = StoreFileReader.open(storage, "x", null, false, false)) {
      TestCells.assertSameCells(
          TestCells.scanAll(r.scanner(Long.MAX_VALUE)),
          List.of(
              cell("b", "q", 5, 10),
              cell("b", "q", 5, 9),
              cell("b", "q", 4, 20),
              cell("c", "", 1, 1)));
    }
  }

  @Test
  void writesUnderATemporaryNameAndRenamesOnFinish() throws IOException {
    StoreFileWriter w = StoreFileWriter.create(storage, "d/f1", StoreFileOptions.defaults());
    w.append(cell("a", "q", 1, 1));
    assertThat(storage.paths()).containsExactly("d/f1.tmp");
    assertThat(StoreFileWriter.temporaryPath("d/f1")).isEqualTo("d/f1.tmp");
    assertThat(StoreFileWriter.isTemporary("f1.tmp")).isTrue();
    assertThat(StoreFileWriter.isTemporary("f1")).isFalse();
    StoreFileInfo info = w.finish(7, false);
    assertThat(storage.paths()).containsExactly("d/f1");
    assertThat(w.bytesWritten()).isEqualTo(info.fileSize()).isEqualTo(storage.bytes("d/f1").length);
    w.close(); // a finished writer closes quietly and keeps its file
    assertThat(storage.paths()).containsExactly("d/f1");
    assertThatThrownBy(() -> w.append(cell("b", "q", 1, 1)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(w::abort).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void abortAndCloseWithoutFinishLeaveNothing() throws IOException {
    StoreFileWriter w = StoreFileWriter.create(storage, "d/f1", StoreFileOptions.defaults());
    for (KeyValue kv : TestCells.random(new Random(1), 500, 50, 100)) {
      w.append(kv);
    }
    assertThat(w.bytesWritten()).isPositive();
    w.abort();
    w.abort();
    assertThat(storage.paths()).isEmpty();
    try (StoreFileWriter w2 =
        StoreFileWriter.create(storage, "d/f2", StoreFileOptions.defaults())) {
      w2.append(cell("a", "q", 1, 1));
    }
    assertThat(storage.paths()).isEmpty();
  }

  @Test
  void aTemporaryFileLeftByADeadWriterIsReplaced() throws IOException {
    storage.put("d/f1.tmp", new byte[] {1, 2, 3});
    try (StoreFileWriter w = StoreFileWriter.create(storage, "d/f1", StoreFileOptions.defaults())) {
      w.append(cell("a", "q", 1, 1));
      w.finish(1, false);
    }
    assertThat(storage.paths()).containsExactly("d/f1");
  }

  @Test
  void maxSequenceIdMustCoverEveryCell() throws IOException {
    try (StoreFileWriter w = StoreFileWriter.create(storage, "x", StoreFileOptions.defaults())) {
      w.append(cell("a", "q", 1, 50));
      assertThatThrownBy(() -> w.finish(49, false)).isInstanceOf(IllegalArgumentException.class);
      assertThat(w.finish(50, false).maxSequenceId()).isEqualTo(50);
    }
  }

  @Test
  void creationTimeComesFromTheClock() throws IOException {
    ManualClock clock = new ManualClock(1_700_000_000_000L);
    try (StoreFileWriter w =
        StoreFileWriter.create(storage, "x", StoreFileOptions.defaults(), clock)) {
      w.append(cell("a", "q", 1, 1));
      assertThat(w.finish(1, false).creationTime()).isEqualTo(1_700_000_000_000L);
    }
    try (StoreFileReader r = StoreFileReader.open(storage, "x", null, false, false)) {
      assertThat(r.info().creationTime()).isEqualTo(1_700_000_000_000L);
    }
  }

  @Test
  void optionsRejectNonsense() {
    assertThatThrownBy(() -> new StoreFileOptions(0, Compression.NONE, BloomType.ROW))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StoreFileOptions(10, Compression.NONE, BloomType.ROW, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(StoreFileOptions.defaults().withIndexBlockSize(99).indexBlockSize()).isEqualTo(99);
  }

  @Test
  void onALocalDirectoryTheFinishedFileReplacesTheTemporaryOne(@TempDir Path dir)
      throws IOException {
    Storage local = new LocalStorage(dir);
    List<KeyValue> cells = TestCells.random(new Random(4), 300, 40, 1000);
    TestCells.write(
        local,
        "data/t/r/f/file1",
        cells,
        new StoreFileOptions(4096, Compression.ZSTD, BloomType.ROWCOL));
    assertThat(local.list("data/t/r/f")).containsExactly("file1");
    try (StoreFileReader r =
        StoreFileReader.open(local, "data/t/r/f/file1", new BlockCache(1 << 20), true, false)) {
      TestCells.assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
      assertThat(r.path()).isEqualTo("data/t/r/f/file1");
    }
    StoreFileWriter w =
        StoreFileWriter.create(local, "data/t/r/f/file2", StoreFileOptions.defaults());
    w.append(cells.get(0));
    assertThat(local.list("data/t/r/f")).containsExactly("file1", "file2.tmp");
    w.abort();
    assertThat(local.list("data/t/r/f")).containsExactly("file1");
  }

  @Test
  void aMissingFileIsNotCorruption() {
    assertThatThrownBy(() -> StoreFileReader.open(storage, "nope", null, false, false))
        .isInstanceOf(java.io.FileNotFoundException.class);
  }
}
