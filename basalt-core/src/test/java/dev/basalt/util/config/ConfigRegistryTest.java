package dev.basalt.util.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.region.RegionSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigRegistryTest {

  @Test
  void findsRegionSettingsThroughServiceLoader() {
    ConfigRegistry reg = ConfigRegistry.get();
    assertThat(reg.sets()).anySatisfy(s -> assertThat(s).isInstanceOf(RegionSettings.class));
    assertThat(reg.find("hbase.rowlock.wait.duration")).isSameAs(RegionSettings.ROW_LOCK_WAIT);
    assertThat(reg.find("hbase.server.keyvalue.maxsize")).isSameAs(RegionSettings.MAX_CELL_SIZE);
    assertThat(reg.isDeclared(RegionSettings.ROW_LOCK_WAIT)).isTrue();
    assertThat(reg.isDeclared(RegionSettings.MAX_CELL_SIZE)).isTrue();
    assertThat(reg.find("no.such.key")).isNull();
  }

  @Test
  void isASingleton() {
    assertThat(ConfigRegistry.get()).isSameAs(ConfigRegistry.get());
  }

  @Test
  void setsAreSortedBySection() {
    List<String> sections = new ArrayList<>();
    ConfigRegistry.get().sets().forEach(s -> sections.add(s.section()));
    assertThat(sections).isSorted();
  }

  @Test
  void everyDeclaredKeyIsFindableAndDocumented() {
    for (ConfigKeySet set : ConfigRegistry.get().sets()) {
      assertThat(set.section()).isNotBlank();
      for (ConfigKey<?> k : set.keys()) {
        assertThat(ConfigRegistry.get().find(k.key())).as(k.key()).isSameAs(k);
        assertThat(k.doc()).as(k.key()).isNotBlank().doesNotContain("|").doesNotContain("\n");
        assertThat(k.defaultValue()).as(k.key()).isNotNull();
        // The default must survive its own parser (what the docs print is a valid setting).
        assertThat((Object) k.parse(String.valueOf(k.defaultValue())))
            .as(k.key())
            .isEqualTo(k.defaultValue());
      }
    }
  }

  @Test
  void markdownListsEveryKey() {
    String md = ConfigRegistry.get().toMarkdown();
    assertThat(md).startsWith("# Configuration\n");
    assertThat(md).contains("## Region");
    assertThat(md)
        .contains(
            "| `hbase.rowlock.wait.duration` | long | 30000 | ms | "
                + RegionSettings.ROW_LOCK_WAIT.doc()
                + " Allowed: at least 0. |");
    for (ConfigKeySet set : ConfigRegistry.get().sets()) {
      for (ConfigKey<?> k : set.keys()) {
        assertThat(md).contains("| `" + k.key() + "` |");
      }
    }
  }
}
