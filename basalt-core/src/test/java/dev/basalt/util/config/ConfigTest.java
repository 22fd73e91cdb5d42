package dev.basalt.util.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.region.RegionSettings;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfigTest {
  private static final String LOCK_WAIT = "hbase.rowlock.wait.duration";
  private static final String MAX_CELL = "hbase.server.keyvalue.maxsize";

  @Test
  void defaultsComeFromTheDeclarations() {
    Config c = Config.defaults();
    assertThat(c.get(RegionSettings.ROW_LOCK_WAIT)).isEqualTo(30_000L);
    assertThat(c.get(RegionSettings.MAX_CELL_SIZE)).isEqualTo(10L * 1024 * 1024);
    assertThat(c.unknownKeys()).isEmpty();
  }

  @Test
  void configuredValuesOverrideDefaults() {
    Config c = Config.builder().set(LOCK_WAIT, "1234").set(MAX_CELL, " 99 ").build();
    assertThat(c.get(RegionSettings.ROW_LOCK_WAIT)).isEqualTo(1234L);
    assertThat(c.get(RegionSettings.MAX_CELL_SIZE)).isEqualTo(99L);
    Config typed = Config.builder().set(RegionSettings.ROW_LOCK_WAIT, 5L).build();
    assertThat(typed.get(RegionSettings.ROW_LOCK_WAIT)).isEqualTo(5L);
  }

  @Test
  void durationSuffixes() {
    String[][] cases = {
      {"250", "250"},
      {"250ms", "250"},
      {"250 MS", "250"},
      {"30s", "30000"},
      {"5m", "300000"},
      {"2h", "7200000"},
      {"1d", "86400000"},
      {" 7 s ", "7000"},
    };
    for (String[] c : cases) {
      Config config = Config.builder().set(LOCK_WAIT, c[0]).build();
      assertThat(config.get(RegionSettings.ROW_LOCK_WAIT)).as(c[0]).isEqualTo(Long.parseLong(c[1]));
    }
  }

  @Test
  void byteSizeSuffixes() {
    String[][] cases = {
      {"4096", "4096"},
      {"10k", "10240"},
      {"10K", "10240"},
      {"3m", String.valueOf(3L << 20)},
      {"3 M", String.valueOf(3L << 20)},
      {"2g", String.valueOf(2L << 30)},
    };
    for (String[] c : cases) {
      Config config = Config.builder().set(MAX_CELL, c[0]).build();
      assertThat(config.get(RegionSettings.MAX_CELL_SIZE)).as(c[0]).isEqualTo(Long.parseLong(c[1]));
    }
  }

  @Test
  void parseErrorsNameTheKeyAndTheValue() {
    for (String bad : new String[] {"soon", "1.5s", "10k", "", "5 weeks"}) {
      assertThatThrownBy(() -> Config.builder().set(LOCK_WAIT, bad).build())
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(LOCK_WAIT)
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("(ms)");
    }
    for (String bad : new String[] {"big", "10kb", "1t", "99999999999g"}) {
      assertThatThrownBy(() -> Config.builder().set(MAX_CELL, bad).build())
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(MAX_CELL)
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("bytes");
    }
  }

  @Test
  void unknownKeysAreKeptAndReported() {
    Config c =
        Config.builder()
            .set("hbase.zookeeper.quorum", "zk1,zk2")
            .set(LOCK_WAIT, "10")
            .set("basalt.typo.setting", "1")
            .build();
    assertThat(c.unknownKeys()).containsExactly("basalt.typo.setting", "hbase.zookeeper.quorum");
    assertThat(c.get(RegionSettings.ROW_LOCK_WAIT)).isEqualTo(10L);
    // An unknown key with a value no declared key could parse is not an error.
    assertThat(Config.builder().set("x.y", "not a number").build().unknownKeys())
        .containsExactly("x.y");
  }

  @Test
  void readingAnUndeclaredKeyFails() {
    // Declared nowhere: code that reads it must fail, so every setting gets declared and
    // documented.
    ConfigKey<Long> adHoc = ConfigKey.ofLong("basalt.test.undeclared", 1L, "", "not declared");
    assertThatThrownBy(() -> Config.defaults().get(adHoc))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("basalt.test.undeclared")
        .hasMessageContaining("not declared");
    Config withValue = Config.builder().set("basalt.test.undeclared", "5").build();
    assertThatThrownBy(() -> withValue.get(adHoc)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aDifferentKeyObjectWithADeclaredNameIsStillUndeclared() {
    // Same name as a declared key, but not the declaration itself (e.g. another default).
    ConfigKey<Long> shadow = ConfigKey.ofLong(LOCK_WAIT, 1L, "ms", "a second declaration");
    assertThatThrownBy(() -> Config.defaults().get(shadow))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(LOCK_WAIT);
  }

  @Test
  void fromPropertiesAndToBuilder() {
    Properties p = new Properties();
    p.setProperty(LOCK_WAIT, "2s");
    p.setProperty("other", "x");
    Config c = Config.fromProperties(p);
    assertThat(c.get(RegionSettings.ROW_LOCK_WAIT)).isEqualTo(2000L);
    assertThat(c.unknownKeys()).containsExactly("other");

    Config changed = c.toBuilder().set(MAX_CELL, "1k").build();
    assertThat(changed.get(RegionSettings.ROW_LOCK_WAIT)).isEqualTo(2000L);
    assertThat(changed.get(RegionSettings.MAX_CELL_SIZE)).isEqualTo(1024L);
    assertThat(changed.unknownKeys()).containsExactly("other");
    // The original is immutable.
    assertThat(c.get(RegionSettings.MAX_CELL_SIZE)).isEqualTo(10L * 1024 * 1024);
    assertThat(changed.toString()).contains(MAX_CELL + "=1k");
  }
}
