package dev.basalt.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Reference files: names, the documented example, damage reported with the file's name. */
class StoreFileReferenceTest {
  private static final String PARENT = "0123456789abcdef0123456789abcdef";
  private static final String FILE = "fedcba9876543210fedcba9876543210";
  private static final String MARKER = "<!-- reference-example-hex";

  private static StoreFileReference example() {
    return new StoreFileReference(PARENT, FILE, Bytes.EMPTY, Bytes.toBytes("m"));
  }

  private static Path doc() {
    Path dir = Path.of("").toAbsolutePath();
    Path root = Files.isDirectory(dir.resolve("basalt-core")) ? dir : dir.getParent();
    return root.resolve("docs").resolve("formats").resolve("reference.md");
  }

  @Test
  void workedExampleMatchesTheLayout() throws IOException {
    String md = Files.readString(doc(), StandardCharsets.UTF_8);
    int marker = md.indexOf(MARKER);
    assertThat(marker).as("marker in reference.md").isNotNegative();
    int open = md.indexOf("```", marker);
    int start = md.indexOf('\n', open) + 1;
    int end = md.indexOf("```", start);
    byte[] documented = HexFormat.of().parseHex(md.substring(start, end).replaceAll("\\s+", ""));
    assertThat(HexFormat.of().formatHex(documented))
        .isEqualTo(HexFormat.of().formatHex(example().encode()));
    StoreFileReference back = StoreFileReference.decode(documented, "the example");
    assertThat(back.parentRegion()).isEqualTo(PARENT);
    assertThat(back.parentFile()).isEqualTo(FILE);
    assertThat(back.startRow()).isEmpty();
    assertThat(back.stopRow()).isEqualTo(Bytes.toBytes("m"));
  }

  @Test
  void namesSayWhatTheyReferTo() {
    String name = example().fileName();
    assertThat(name).isEqualTo(FILE + "." + PARENT);
    assertThat(StoreFileReference.isReference(name)).isTrue();
    assertThat(StoreFileReference.parentRegionOf(name)).isEqualTo(PARENT);
    assertThat(StoreFileReference.isReference(FILE)).isFalse();
    assertThat(StoreFileReference.isReference(name + ".tmp")).isFalse();
    assertThat(example().parentPath("data/default/t/" + "a".repeat(32) + "/f"))
        .isEqualTo("data/default/t/" + PARENT + "/f/" + FILE);
  }

  @Test
  void damageIsReportedWithTheFileName() {
    byte[] b = example().encode();
    byte[] flipped = b.clone();
    flipped[10] ^= 1;
    assertThatThrownBy(() -> StoreFileReference.decode(flipped, "F"))
        .hasMessageContaining("reference file F is corrupt");
    assertThatThrownBy(() -> StoreFileReference.decode(new byte[5], "F"))
        .hasMessageContaining("truncated");
  }
}
