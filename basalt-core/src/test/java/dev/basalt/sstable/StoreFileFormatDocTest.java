package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/formats/storefile.md's worked example must be what the writer writes, and its version 1
 * example (a file written before per-cell TTLs) must still read back.
 */
class StoreFileFormatDocTest {
  private static final String MARKER = "<!-- storefile-example-hex";
  private static final String V1_MARKER = "<!-- storefile-v1-example-hex";

  private static Path doc() {
    Path dir = Path.of("").toAbsolutePath();
    Path root = Files.isDirectory(dir.resolve("basalt-core")) ? dir : dir.getParent();
    return root.resolve("docs").resolve("formats").resolve("storefile.md");
  }

  private static byte[] exampleBytes(String md) {
    return exampleBytes(md, MARKER);
  }

  private static byte[] exampleBytes(String md, String which) {
    int marker = md.indexOf(which);
    assertThat(marker).as("marker %s in storefile.md", which).isNotNegative();
    int open = md.indexOf("```", marker);
    int start = md.indexOf('\n', open) + 1;
    int end = md.indexOf("```", start);
    return HexFormat.of().parseHex(md.substring(start, end).replaceAll("\\s+", ""));
  }

  private static KeyValue exampleCell() {
    return KeyValue.of(
            Bytes.toBytes("r1"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            1_700_000_000_000L,
            CellType.PUT,
            Bytes.toBytes("v1"))
        .withSequenceId(7);
  }

  @Test
  void workedExampleIsWhatTheWriterWrites() throws IOException {
    String md = Files.readString(doc(), StandardCharsets.UTF_8);
    assertThat(md).contains("**Format version 2.**");
    KeyValue kv = exampleCell().withTtl(86_400_000L);
    MemoryStorage s = new MemoryStorage();
    try (StoreFileWriter w =
        StoreFileWriter.create(
            s,
            "f",
            new StoreFileOptions(65536, Compression.NONE, BloomType.ROW),
            new ManualClock(1_700_000_000_000L))) {
      w.append(kv);
      w.finish(9, false);
    }
    byte[] documented = exampleBytes(md);
    assertThat(HexFormat.ofDelimiter(" ").formatHex(s.bytes("f")).toUpperCase())
        .isEqualTo(HexFormat.ofDelimiter(" ").formatHex(documented).toUpperCase());
    assertThat(documented).hasSize(341);

    // And the documented bytes read back as that cell, with its TTL.
    s.put("doc", documented);
    try (StoreFileReader r = StoreFileReader.open(s, "doc", null, false, false)) {
      TestCells.assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), List.of(kv));
      assertThat(r.info().maxSequenceId()).isEqualTo(9);
      assertThat(r.info().creationTime()).isEqualTo(1_700_000_000_000L);
      assertThat(r.info().formatVersion()).isEqualTo(2);
    }
  }

  @Test
  void versionOneExampleStillReads() throws IOException {
    String md = Files.readString(doc(), StandardCharsets.UTF_8);
    byte[] v1 = exampleBytes(md, V1_MARKER);
    assertThat(v1).hasSize(333);
    MemoryStorage s = new MemoryStorage();
    s.put("v1", v1);
    try (StoreFileReader r = StoreFileReader.open(s, "v1", null, false, false)) {
      TestCells.assertSameCells(
          TestCells.scanAll(r.scanner(Long.MAX_VALUE)), List.of(exampleCell()));
      assertThat(r.info().formatVersion()).isEqualTo(1);
      assertThat(r.info().maxSequenceId()).isEqualTo(9);
    }
  }
}
