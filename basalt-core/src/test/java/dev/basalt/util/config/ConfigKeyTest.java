package dev.basalt.util.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConfigKeyTest {

  @Test
  void metadata() {
    ConfigKey<Long> k = ConfigKey.ofLong("a.b", 7L, "bytes", "Some size.");
    assertThat(k.key()).isEqualTo("a.b");
    assertThat(k.type()).isEqualTo(Long.class);
    assertThat(k.defaultValue()).isEqualTo(7L);
    assertThat(k.unit()).isEqualTo("bytes");
    assertThat(k.doc()).isEqualTo("Some size.");
    assertThat(k).hasToString("a.b");
    assertThatThrownBy(() -> ConfigKey.ofBoolean(null, true, "doc"))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> ConfigKey.ofBoolean("k", true, null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void byteSizes() {
    assertThat(ConfigKey.parseLong("0")).isZero();
    assertThat(ConfigKey.parseLong("-3")).isEqualTo(-3);
    assertThat(ConfigKey.parseLong("1k")).isEqualTo(1024);
    assertThat(ConfigKey.parseLong("1m")).isEqualTo(1024 * 1024);
    assertThat(ConfigKey.parseLong("1g")).isEqualTo(1024L * 1024 * 1024);
    assertThat(ConfigKey.parseLong(" 8 G ")).isEqualTo(8L << 30);
    assertThatThrownBy(() -> ConfigKey.parseLong("9223372036854775807k"))
        .isInstanceOf(ArithmeticException.class);
    assertThatThrownBy(() -> ConfigKey.parseLong("k")).isInstanceOf(NumberFormatException.class);
  }

  @Test
  void durations() {
    assertThat(ConfigKey.parseDurationMillis("15")).isEqualTo(15);
    assertThat(ConfigKey.parseDurationMillis("15ms")).isEqualTo(15);
    assertThat(ConfigKey.parseDurationMillis("15s")).isEqualTo(15_000);
    assertThat(ConfigKey.parseDurationMillis("15m")).isEqualTo(15 * 60_000);
    assertThat(ConfigKey.parseDurationMillis("15h")).isEqualTo(15 * 3_600_000L);
    assertThat(ConfigKey.parseDurationMillis("15d")).isEqualTo(15 * 86_400_000L);
    assertThat(ConfigKey.parseDurationMillis("15 D")).isEqualTo(15 * 86_400_000L);
    assertThatThrownBy(() -> ConfigKey.parseDurationMillis("15w"))
        .isInstanceOf(NumberFormatException.class);
    assertThatThrownBy(() -> ConfigKey.parseDurationMillis("999999999999999999d"))
        .isInstanceOf(ArithmeticException.class);
  }

  @Test
  void onlyMillisecondKeysTakeDurationSuffixes() {
    ConfigKey<Long> ms = ConfigKey.ofLong("t", 0, "ms", "d");
    ConfigKey<Long> bytes = ConfigKey.ofLong("b", 0, "bytes", "d");
    // "m" is minutes for a duration and MiB for a size.
    assertThat(ms.parse("2m")).isEqualTo(120_000L);
    assertThat(bytes.parse("2m")).isEqualTo(2L << 20);
    assertThatThrownBy(() -> bytes.parse("2s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("setting b: '2s' is not a valid long (bytes)");
    assertThatThrownBy(() -> ms.parse("2k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("setting t: '2k' is not a valid long (ms)");
  }

  @Test
  void ints() {
    ConfigKey<Integer> k = ConfigKey.ofInt("n", 3, "", "d");
    assertThat(k.parse("42")).isEqualTo(42);
    assertThat(k.parse("1k")).isEqualTo(1024);
    assertThatThrownBy(() -> k.parse("4g"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("setting n: '4g' is not a valid integer")
        .hasRootCauseInstanceOf(ArithmeticException.class);
    assertThatThrownBy(() -> k.parse("x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("setting n: 'x' is not a valid integer");
  }

  @Test
  void booleans() {
    ConfigKey<Boolean> k = ConfigKey.ofBoolean("flag", false, "d");
    assertThat(k.parse("true")).isTrue();
    assertThat(k.parse(" TRUE ")).isTrue();
    assertThat(k.parse("False")).isFalse();
    for (String bad : new String[] {"yes", "1", "", "t"}) {
      assertThatThrownBy(() -> k.parse(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("setting flag: '" + bad + "' is not a valid boolean");
    }
  }

  @Test
  void doublesAndStrings() {
    ConfigKey<Double> d = ConfigKey.ofDouble("ratio", 0.5, "", "d");
    assertThat(d.parse(" 0.25 ")).isEqualTo(0.25);
    assertThatThrownBy(() -> d.parse("half"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("setting ratio: 'half' is not a valid double");
    ConfigKey<String> s = ConfigKey.ofString("name", "x", "d");
    assertThat(s.parse("  padded ")).isEqualTo("padded");
    assertThat(s.defaultValue()).isEqualTo("x");
  }
}
