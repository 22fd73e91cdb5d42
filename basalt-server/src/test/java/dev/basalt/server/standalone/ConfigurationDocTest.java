package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.util.config.ConfigRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/CONFIGURATION.md equal to the registry of everything a standalone server reads (the
 * engine's settings and the server's; this module sees both). Run with {@code
 * -Dbasalt.regenerateDocs=true} to rewrite the file instead of checking it.
 */
class ConfigurationDocTest {

  /**
   * docs/CONFIGURATION.md of this repository; tests run with basalt-server as working directory.
   */
  static Path configurationDoc() {
    Path dir = Path.of("").toAbsolutePath();
    // Tolerate being run from the repository root too (some IDEs do).
    Path root = Files.isDirectory(dir.resolve("basalt-server")) ? dir : dir.getParent();
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
        .as(
            "%s is missing; run ConfigurationDocTest (basalt-server) with -Dbasalt.regenerateDocs=true",
            doc)
        .exists();
    assertThat(Files.readString(doc, StandardCharsets.UTF_8))
        .as(
            "%s is stale; run ConfigurationDocTest (basalt-server) with -Dbasalt.regenerateDocs=true",
            doc)
        .isEqualTo(expected);
  }
}
