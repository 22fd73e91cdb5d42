package dev.basalt.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.Storage;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.sstable.BlockCache;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file a compaction replaced leaves the block cache when its last reader lets go of it, as HBase
 * evicts the blocks of compacted-away files; a file the store merely closes keeps its blocks.
 */
class StoreFileEvictionTest {
  private static final String DIR = "data/default/t/r/f";
  private static final String ARCHIVE = "archive/data/default/t/r/f";
  private static final int ROWS = 3000; // ~400 KB of cells: several 64 KiB blocks

  @TempDir Path tmp;

  private final BlockCache cache = new BlockCache(64 << 20);

  private StoreFiles files(Storage storage) {
    return new StoreFiles(
        storage, DIR, ARCHIVE, cache, ColumnFamilyDescriptorBuilder.of("f"), Clock.system());
  }

  private static List<Cell> cells(String prefix) {
    List<Cell> out = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      out.add(
          KeyValue.of(
              Bytes.toBytes(String.format("%s%06d", prefix, i)),
              Bytes.toBytes("f"),
              Bytes.toBytes("q"),
              1,
              CellType.PUT,
              new byte[100]));
    }
    return out;
  }

  /** Reads the whole file through a new scanner, which caches its blocks; returns the cells. */
  private static int readAll(StoreFile file) throws IOException {
    assertThat(file.acquire()).isTrue();
    try (KeyValueScanner s = file.scanner(Long.MAX_VALUE)) {
      s.seek(KeyValue.firstOnRow(Bytes.EMPTY));
      int n = 0;
      while (s.next() != null) {
        n++;
      }
      return n;
    }
  }

  @Test
  void aReplacedFileDropsItsBlocksWhenItsLastScannerEnds() throws IOException {
    Storage storage = new LocalStorage(tmp);
    StoreFiles store = files(storage);
    StoreFile replaced = store.write(cells("a"), 1, false, List.of(), null);
    StoreFile kept = store.write(cells("b"), 2, false, List.of(), null);
    assertThat(readAll(kept)).isEqualTo(ROWS);
    cache.cleanUp();
    long keptBlocks = cache.blockCount();
    assertThat(keptBlocks).isGreaterThan(2);
    assertThat(readAll(replaced)).isEqualTo(ROWS);
    cache.cleanUp();
    assertThat(cache.blockCount()).isEqualTo(2 * keptBlocks);

    // A scan is still reading the replaced file when the compaction retires it.
    assertThat(replaced.acquire()).isTrue();
    KeyValueScanner inFlight = replaced.scanner(Long.MAX_VALUE);
    inFlight.seek(KeyValue.firstOnRow(Bytes.EMPTY));
    replaced.retire();
    cache.cleanUp();
    assertThat(cache.blockCount()).as("blocks the scan may still read").isEqualTo(2 * keptBlocks);
    int n = 0;
    while (inFlight.next() != null) {
      n++;
    }
    assertThat(n).isEqualTo(ROWS);
    inFlight.close();

    cache.cleanUp();
    assertThat(cache.blockCount()).isEqualTo(keptBlocks);
    assertThat(storage.exists(ARCHIVE + "/" + replaced.name())).isTrue();

    // Closing the store (no compaction) keeps what it cached: the region may open again.
    kept.close();
    cache.cleanUp();
    assertThat(cache.blockCount()).isEqualTo(keptBlocks);
  }
}
