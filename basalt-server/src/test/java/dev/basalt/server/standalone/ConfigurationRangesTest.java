package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import dev.basalt.util.config.ConfigRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every number a standalone server reads either refuses a negative value when the configuration is
 * read (naming the key), or says in its documentation what a negative value means. A negative
 * interval, thread count or size reaching the code that uses it would fail later with a message
 * that does not name the setting, or not fail at all (a busy loop, a log segment per edit).
 */
class ConfigurationRangesTest {

  @Test
  void negativeNumbersAreRefusedByNameOrDocumented() {
    List<String> unguarded = new ArrayList<>();
    for (ConfigKeySet set : ConfigRegistry.get().sets()) {
      for (ConfigKey<?> key : set.keys()) {
        if (!Number.class.isAssignableFrom(key.type())) {
          continue;
        }
        try {
          key.parse("-1");
          if (!key.doc().contains("0 or less")) {
            unguarded.add(key.key());
          }
        } catch (IllegalArgumentException e) {
          assertThat(e.getMessage()).startsWith("setting " + key.key() + ": -1 is out of range");
        }
      }
    }
    assertThat(unguarded)
        .as("numeric settings that take -1 without saying what it means")
        .isEmpty();
  }

  @Test
  void aValueOutOfRangeStopsTheConfigurationBeingReadNamingTheKey() {
    assertThatThrownBy(
            () -> SiteConfig.load(null, Map.of("hbase.client.scanner.timeout.period", "500")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "setting hbase.client.scanner.timeout.period: 500 is out of range; it must be at least"
                + " 1000 (ms)");
    assertThatThrownBy(() -> SiteConfig.load(null, Map.of("hbase.regionserver.port", "70000")))
        .hasMessageContaining("hbase.regionserver.port: 70000 is out of range");
  }
}
