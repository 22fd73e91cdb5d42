package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.WritableFile;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Archived files go once the cleaner has seen them for the TTL; nothing else is touched. */
class ArchiveCleanerTest {
  @TempDir Path dir;

  private static void create(LocalStorage s, String path) throws IOException {
    try (WritableFile f = s.create(path)) {
      f.write(new byte[] {1});
    }
  }

  @Test
  void filesGoAfterTheTtlFromWhenTheCleanerFirstSawThem() throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    ManualClock clock = new ManualClock(1_000_000);
    ArchiveCleaner cleaner = new ArchiveCleaner(storage, clock, 60_000);
    create(storage, "archive/data/default/t/r1/f/old");
    create(storage, "data/default/t/r2/f/live");
    assertThat(cleaner.run()).isZero();
    clock.advance(30_000);
    create(storage, "archive/data/default/t/r1/f/new");
    assertThat(cleaner.run()).isZero();
    clock.advance(30_000);
    assertThat(cleaner.run()).as("only the one seen 60 s ago").isEqualTo(1);
    assertThat(Files.exists(dir.resolve("archive/data/default/t/r1/f/old"))).isFalse();
    assertThat(Files.exists(dir.resolve("archive/data/default/t/r1/f/new"))).isTrue();
    clock.advance(30_000);
    assertThat(cleaner.run()).isEqualTo(1);
    assertThat(Files.exists(dir.resolve("data/default/t/r2/f/live"))).isTrue();
    assertThat(Files.isDirectory(dir.resolve("archive/data/default/t/r1/f")))
        .as("directories stay for files being archived")
        .isTrue();
  }

  @Test
  void aTtlOfZeroKeepsEverything() throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    ManualClock clock = new ManualClock(0);
    create(storage, "archive/x");
    ArchiveCleaner cleaner = new ArchiveCleaner(storage, clock, 0);
    clock.advance(1L << 40);
    assertThat(cleaner.run()).isZero();
    assertThat(Files.exists(dir.resolve("archive/x"))).isTrue();
  }
}
