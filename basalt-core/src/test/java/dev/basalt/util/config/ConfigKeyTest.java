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

  @Test
  void aRangeRefusesValuesOutsideItNamingTheKeyAndTheBounds() {
    ConfigKey<Long> size = ConfigKey.ofLong("a.size", 7L, "bytes", "Some size.").atLeast(1L);
    assertThat(size.parse("1")).isEqualTo(1L);
    assertThat(size.parse("2k")).isEqualTo(2048L);
    assertThatThrownBy(() -> size.parse("0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("setting a.size: 0 is out of range; it must be at least 1 (bytes)");
    ConfigKey<Double> share =
        ConfigKey.ofDouble("a.share", 0.4, "fraction of heap", "Some share.").between(0.0, 0.9);
    assertThat(share.parse("0")).isEqualTo(0.0);
    assertThat(share.parse("0.9")).isEqualTo(0.9);
    assertThatThrownBy(() -> share.parse("1.5"))
        .hasMessage(
            "setting a.share: 1.5 is out of range; it must be from 0.0 to 0.9 (fraction of heap)");
    assertThatThrownBy(() -> share.parse("-0.1")).hasMessageContaining("out of range");
    ConfigKey<Integer> port = ConfigKey.ofInt("a.port", 1, "", "A port.").between(0, 65535);
    assertThatThrownBy(() -> port.parse("65536"))
        .hasMessage("setting a.port: 65536 is out of range; it must be from 0 to 65535");
    assertThat(port.range()).isEqualTo("from 0 to 65535");
    assertThat(size.range()).isEqualTo("at least 1");
    assertThat(ConfigKey.ofInt("a.n", 1, "", "N.").range()).isEmpty();
  }

  @Test
  void aRangeMustHoldItsDefaultAndOnlyNumbersHaveOne() {
    assertThatThrownBy(() -> ConfigKey.ofLong("a.size", 0L, "bytes", "Some size.").atLeast(1L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("setting a.size: default 0 is not allowed; it must be at least 1");
    assertThatThrownBy(() -> ConfigKey.ofString("a.s", "x", "S.").atLeast("a"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> ConfigKey.ofBoolean("a.b", true, "B.").atLeast(false))
        .isInstanceOf(IllegalStateException.class);
  }
}
