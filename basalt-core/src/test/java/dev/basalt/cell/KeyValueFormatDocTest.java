package dev.basalt.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** docs/formats/keyvalue.md's worked example must be what the code writes. */
class KeyValueFormatDocTest {
  private static final String MARKER = "<!-- keyvalue-example-hex";

  private static Path doc() {
    Path dir = Path.of("").toAbsolutePath();
    Path root = Files.isDirectory(dir.resolve("basalt-core")) ? dir : dir.getParent();
    return root.resolve("docs").resolve("formats").resolve("keyvalue.md");
  }

  /** The hex bytes of the fenced block that follows the marker comment. */
  private static byte[] exampleBytes(String md) {
    int marker = md.indexOf(MARKER);
    assertThat(marker).as("marker %s in keyvalue.md", MARKER).isNotNegative();
    int open = md.indexOf("```", marker);
    int start = md.indexOf('\n', open) + 1;
    int end = md.indexOf("```", start);
    String hex = md.substring(start, end).replaceAll("\\s+", "");
    return HexFormat.of().parseHex(hex);
  }

  @Test
  void workedExampleMatchesTheLayout() throws IOException {
    String md = Files.readString(doc(), StandardCharsets.UTF_8);
    assertThat(md).contains("**Format version 1.**");
    KeyValue kv =
        KeyValue.of(
            Bytes.toBytes("row1"),
            Bytes.toBytes("cf"),
            Bytes.toBytes("q"),
            1_700_000_000_000L,
            CellType.PUT,
            Bytes.toBytes("v1"));
    byte[] documented = exampleBytes(md);
    assertThat(documented).hasSize(29);
    assertThat(Bytes.copy(kv.getBuffer(), kv.getOffset(), kv.getLength())).isEqualTo(documented);
    KeyValue parsed = KeyValue.parse(documented, 0, documented.length, 42);
    assertThat(parsed).isEqualTo(kv);
    assertThat(parsed.getSequenceId()).isEqualTo(42);
  }
}
