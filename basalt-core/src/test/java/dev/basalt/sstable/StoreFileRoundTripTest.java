package dev.basalt.sstable;

import static dev.basalt.sstable.TestCells.assertSameCells;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files written with every compression, bloom type and several block and index sizes read back
 * exactly: the same cells with the same sequence ids, and file info that describes them.
 */
class StoreFileRoundTripTest {

  static Stream<Arguments> everyCombination() {
    List<Arguments> out = new ArrayList<>();
    int[] blockSizes = {1, 200, 4096, 64 * 1024};
    int i = 0;
    for (Compression c : Compression.values()) {
      for (BloomType b : BloomType.values()) {
        for (int bs : blockSizes) {
          // A tiny index block limit on some runs, so the index has several levels.
          int indexLimit = (i++ % 2 == 0) ? 64 : StoreFileOptions.DEFAULT_INDEX_BLOCK_SIZE;
          out.add(Arguments.of(c, b, bs, indexLimit));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} block {2} index {3}")
  @MethodSource("everyCombination")
  void readsBackWhatWasWritten(Compression c, BloomType b, int blockSize, int indexLimit)
      throws IOException {
    Random rnd = new Random(blockSize * 31L + c.ordinal() * 7 + b.ordinal());
    List<KeyValue> cells = TestCells.random(rnd, 600, 80, 70_000);
    MemoryStorage storage = new MemoryStorage();
    StoreFileOptions options = new StoreFileOptions(blockSize, c, b, indexLimit);
    StoreFileInfo written = TestCells.write(storage, "f1", cells, options);

    try (StoreFileReader r =
        StoreFileReader.open(storage, "f1", new BlockCache(1 << 20), true, false)) {
      StoreFileInfo info = r.info();
      assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
      checkInfo(info, cells, c, b, blockSize);
      checkInfo(written, cells, c, b, blockSize);
      assertThat(info.fileSize())
          .isEqualTo(storage.bytes("f1").length)
          .isEqualTo(written.fileSize());
      assertThat(info.dataBlockCount()).isEqualTo(written.dataBlockCount());
      assertThat(info.indexLevels()).isEqualTo(written.indexLevels());
      if (blockSize == 1) {
        assertThat(info.dataBlockCount()).isEqualTo(cells.size());
      }
      if (indexLimit == 64 && info.dataBlockCount() > 10) {
        assertThat(info.indexLevels()).isGreaterThanOrEqualTo(3);
      }
      if (indexLimit == StoreFileOptions.DEFAULT_INDEX_BLOCK_SIZE) {
        assertThat(info.indexLevels()).isEqualTo(1);
      }
      // Every cell is found by a seek to itself, and a bloom never denies a present key.
      for (int i = 0; i < cells.size(); i += 7) {
        KeyValue kv = cells.get(i);
        var s = r.scanner(Long.MAX_VALUE);
        assertThat(s.seek(kv)).isTrue();
        TestCells.assertSameCell(s.peek(), kv, "seek to cell " + i);
        byte[] row = dev.basalt.cell.CellUtil.cloneRow(kv);
        assertThat(r.mightContainRow(row, 0, row.length)).isTrue();
        assertThat(
                r.mightContainRowCol(
                    row,
                    dev.basalt.cell.CellUtil.cloneFamily(kv),
                    dev.basalt.cell.CellUtil.cloneQualifier(kv)))
            .isTrue();
      }
    }
  }

  private static void checkInfo(
      StoreFileInfo info, List<KeyValue> cells, Compression c, BloomType b, int blockSize) {
    long minTs = Long.MAX_VALUE;
    long maxTs = Long.MIN_VALUE;
    long deletes = 0;
    long familyDeletes = 0;
    for (KeyValue kv : cells) {
      minTs = Math.min(minTs, kv.getTimestamp());
      maxTs = Math.max(maxTs, kv.getTimestamp());
      if (kv.isDelete()) {
        deletes++;
      }
      if (kv.getType() == CellType.DELETE_FAMILY
          || kv.getType() == CellType.DELETE_FAMILY_VERSION) {
        familyDeletes++;
      }
    }
    assertThat(info.cellCount()).isEqualTo(cells.size());
    assertThat(info.minTimestamp()).isEqualTo(minTs);
    assertThat(info.maxTimestamp()).isEqualTo(maxTs);
    assertThat(info.deleteMarkerCount()).isEqualTo(deletes);
    assertThat(info.deleteFamilyMarkerCount()).isEqualTo(familyDeletes);
    assertThat(info.maxSequenceId()).isEqualTo(TestCells.maxSeq(cells) + 1);
    assertThat(info.compression()).isEqualTo(c);
    assertThat(info.bloomType()).isEqualTo(b);
    assertThat(info.blockSize()).isEqualTo(blockSize);
    assertThat(info.majorCompacted()).isFalse();
    assertThat(info.formatVersion()).isEqualTo(2);
    assertKey(info.firstKey(), cells.get(0));
    assertKey(info.lastKey(), cells.get(cells.size() - 1));
  }

  private static void assertKey(Cell key, KeyValue cell) {
    KeyValue k = KeyValue.copyOf(key);
    assertThat(k.getValueLength()).isZero();
    assertThat(
            java.util.Arrays.equals(
                k.getBuffer(),
                k.keyOffset(),
                k.keyOffset() + k.keyLength(),
                cell.getBuffer(),
                cell.keyOffset(),
                cell.keyOffset() + cell.keyLength()))
        .as("key of %s", cell)
        .isTrue();
    assertThat(k.getSequenceId()).isEqualTo(cell.getSequenceId());
  }

  @Test
  void emptyFileHasNoCellsAndEveryOperationSaysSo() throws IOException {
    MemoryStorage storage = new MemoryStorage();
    StoreFileInfo written =
        TestCells.write(
            storage, "empty", List.of(), new StoreFileOptions(100, Compression.LZ4, BloomType.ROW));
    assertThat(written.cellCount()).isZero();
    try (StoreFileReader r = StoreFileReader.open(storage, "empty", null, true, false)) {
      assertThat(r.info().firstKey()).isNull();
      assertThat(r.info().lastKey()).isNull();
      assertThat(r.info().dataBlockCount()).isZero();
      assertThat(r.mightContainRow(new byte[] {1}, 0, 1)).isFalse();
      var s = r.scanner(Long.MAX_VALUE);
      KeyValue k = KeyValue.firstOnRow(new byte[] {1});
      assertThat(s.seek(k)).isFalse();
      assertThat(s.peek()).isNull();
      assertThat(s.seekToLastRow()).isFalse();
      assertThat(s.seekToPreviousRow(k)).isFalse();
      assertThat(s.backwardSeek(k)).isFalse();
      assertThat(s.next()).isNull();
    }
  }

  @Test
  void majorCompactedFlagAndCallerMaxSequenceIdAreKept() throws IOException {
    MemoryStorage storage = new MemoryStorage();
    List<KeyValue> cells = TestCells.random(new Random(5), 50, 10, 10);
    try (StoreFileWriter w = StoreFileWriter.create(storage, "m", StoreFileOptions.defaults())) {
      for (KeyValue kv : cells) {
        w.append(kv);
      }
      StoreFileInfo info = w.finish(1_000_000, true);
      assertThat(info.majorCompacted()).isTrue();
      assertThat(info.maxSequenceId()).isEqualTo(1_000_000);
    }
    try (StoreFileReader r = StoreFileReader.open(storage, "m", null, false, false)) {
      assertThat(r.info().majorCompacted()).isTrue();
      assertThat(r.info().maxSequenceId()).isEqualTo(1_000_000);
      assertThat(r.scanner(5).getScannerOrder()).isEqualTo(1_000_000);
    }
  }

  @Test
  void cellsThatAreNotKeyValuesAreAccepted() throws IOException {
    MemoryStorage storage = new MemoryStorage();
    List<KeyValue> cells = TestCells.random(new Random(9), 40, 10, 10);
    try (StoreFileWriter w = StoreFileWriter.create(storage, "d", StoreFileOptions.defaults())) {
      for (KeyValue kv : cells) {
        w.append(new ForeignCell(kv));
      }
      w.finish(TestCells.maxSeq(cells), false);
    }
    try (StoreFileReader r = StoreFileReader.open(storage, "d", null, false, false)) {
      assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
    }
  }
}
