package dev.basalt.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * conf/basalt-site.xml, which ships commented out, does not lie: every property it shows is a
 * setting Basalt reads (no misspelt key) and shows that setting's default, so uncommenting one
 * changes nothing until its value is edited.
 */
class SiteTemplateTest {
  private static final Pattern PROPERTY =
      Pattern.compile(
          "<property>\\s*<name>([^<]*)</name>\\s*<value>([^<]*)</value>\\s*</property>");

  @Test
  void everyPropertyShownIsAKnownSettingAtItsDefault() throws Exception {
    Path file = top().resolve("conf/basalt-site.xml");
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Matcher m = PROPERTY.matcher(text);
    List<String> keys = new ArrayList<>();
    while (m.find()) {
      String key = m.group(1).trim();
      ConfigKey<?> setting = ConfigRegistry.get().find(key);
      assertThat(setting).as("%s names a setting of docs/CONFIGURATION.md", key).isNotNull();
      assertThat(setting.parse(m.group(2).trim()))
          .as("%s shows its default", key)
          .isEqualTo(setting.defaultValue());
      keys.add(key);
    }
    assertThat(keys)
        .as("the settings a user changes first")
        .contains(
            "hbase.rootdir",
            "hbase.zookeeper.property.clientPort",
            "hbase.master.port",
            "hbase.regionserver.port",
            "hbase.regionserver.ipc.address",
            "hfile.block.cache.size",
            "hbase.regionserver.global.memstore.size")
        .doesNotHaveDuplicates();
    // all commented out: the template alone sets nothing
    assertThat(text.replaceAll("(?s)<!--.*?-->", "")).doesNotContain("<property>");
  }

  private static Path top() {
    Path here = Path.of("").toAbsolutePath();
    return Files.isDirectory(here.resolve("conf")) ? here : here.getParent();
  }
}
