package dev.basalt.util.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/CONFIGURATION.md equal to the registry. Run with {@code -Dbasalt.regenerateDocs=true}
 * to rewrite the file instead of checking it.
 */
class ConfigDocsTest {

  /** docs/CONFIGURATION.md of this repository; tests run with basalt-core as working directory. */
  static Path configurationDoc() {
    Path dir = Path.of("").toAbsolutePath();
    // Tolerate being run from the repository root too (some IDEs do).
    Path root = Files.isDirectory(dir.resolve("basalt-core")) ? dir : dir.getParent();
    return root.resolve("docs").resolve("CONFIGURATION.md");
  }

  @Test
  void configurationDocMatchesTheRegistry() throws IOException {
    Path doc = configurationDoc();
    String expected = ConfigRegistry.get().toMarkdown();
    if (Boolean.getBoolean("basalt.regenerateDocs")) {
      Files.writeString(doc, expected, StandardCharsets.UTF_8);
      return;
    }
    assertThat(doc)
        .as("%s is missing; run ConfigDocsTest with -Dbasalt.regenerateDocs=true", doc)
        .exists();
    assertThat(Files.readString(doc, StandardCharsets.UTF_8))
        .as("%s is stale; run ConfigDocsTest with -Dbasalt.regenerateDocs=true", doc)
        .isEqualTo(expected);
  }
}
