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

/** docs/formats/storefile.md's worked example must be what the writer writes. */
class StoreFileFormatDocTest {
  private static final String MARKER = "<!-- storefile-example-hex";

  private static Path doc() {
    Path dir = Path.of("").toAbsolutePath();
    Path root = Files.isDirectory(dir.resolve("basalt-core")) ? dir : dir.getParent();
    return root.resolve("docs").resolve("formats").resolve("storefile.md");
  }

  private static byte[] exampleBytes(String md) {
    int marker = md.indexOf(MARKER);
    assertThat(marker).as("marker %s in storefile.md", MARKER).isNotNegative();
    int open = md.indexOf("```", marker);
    int start = md.indexOf('\n', open) + 1;
    int end = md.indexOf("```", start);
    return HexFormat.of().parseHex(md.substring(start, end).replaceAll("\\s+", ""));
  }

  @Test
  void workedExampleIsWhatTheWriterWrites() throws IOException {
    String md = Files.readString(doc(), StandardCharsets.UTF_8);
    assertThat(md).contains("**Format version 1.**");
    KeyValue kv =
        KeyValue.of(
                Bytes.toBytes("r1"),
                Bytes.toBytes("f"),
                Bytes.toBytes("q"),
                1_700_000_000_000L,
                CellType.PUT,
                Bytes.toBytes("v1"))
            .withSequenceId(7);
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
    assertThat(documented).hasSize(333);
    assertThat(s.bytes("f")).isEqualTo(documented);

    // And the documented bytes read back as that cell.
    s.put("doc", documented);
    try (StoreFileReader r = StoreFileReader.open(s, "doc", null, false, false)) {
      TestCells.assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), List.of(kv));
      assertThat(r.info().maxSequenceId()).isEqualTo(9);
      assertThat(r.info().creationTime()).isEqualTo(1_700_000_000_000L);
    }
  }
}
