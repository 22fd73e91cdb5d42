package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/formats/catalog.md's worked region set example must be what the code writes. */
class CatalogFormatDocTest {
  private static final String MARKER = "<!-- regionset-example-hex";

  static RegionSet example() {
    TableName t = TableName.valueOf("t");
    return RegionSet.of(
        t,
        RegionSet.State.ENABLED,
        List.of(
            new RegionSet.Member(RegionInfo.of(t, Bytes.EMPTY, Bytes.toBytes("m"), 1), 0),
            new RegionSet.Member(RegionInfo.of(t, Bytes.toBytes("m"), Bytes.EMPTY, 1), 5)));
  }

  private static Path doc() {
    Path dir = Path.of("").toAbsolutePath();
    Path root = Files.isDirectory(dir.resolve("basalt-core")) ? dir : dir.getParent();
    return root.resolve("docs").resolve("formats").resolve("catalog.md");
  }

  @Test
  void workedExampleMatchesTheLayout() throws IOException {
    String md = Files.readString(doc(), StandardCharsets.UTF_8);
    int marker = md.indexOf(MARKER);
    assertThat(marker).as("marker %s in catalog.md", MARKER).isNotNegative();
    int open = md.indexOf("```", marker);
    int start = md.indexOf('\n', open) + 1;
    int end = md.indexOf("```", start);
    byte[] documented = HexFormat.of().parseHex(md.substring(start, end).replaceAll("\\s+", ""));
    assertThat(HexFormat.of().formatHex(documented))
        .isEqualTo(HexFormat.of().formatHex(CatalogFiles.encodeRegionSet(example())));
    assertThat(CatalogFiles.decodeRegionSet(documented, "the example")).isEqualTo(example());
  }
}
