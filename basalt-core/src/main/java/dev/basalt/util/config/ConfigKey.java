package dev.basalt.util.config;

import java.util.Objects;
import java.util.function.Function;

/**
 * One declared setting: its key, type, default, unit and a one-line description. Keys are declared
 * as constants in a {@link ConfigKeySet}; code reads them only through {@link Config#get}. Keys use
 * HBase's names where the meaning is the same.
 *
 * @param <T> the value type
 */
public final class ConfigKey<T> {
  private final String key;
  private final Class<T> type;
  private final T defaultValue;
  private final String unit;
  private final String doc;
  private final Function<String, T> parser;
  // Least and greatest value a number may be configured to; null when unbounded.
  private final T min;
  private final T max;

  private ConfigKey(
      String key,
      Class<T> type,
      T defaultValue,
      String unit,
      String doc,
      Function<String, T> parser,
      T min,
      T max) {
    this.key = Objects.requireNonNull(key);
    this.type = type;
    this.defaultValue = defaultValue;
    this.unit = unit;
    this.doc = Objects.requireNonNull(doc);
    this.parser = parser;
    this.min = min;
    this.max = max;
    if (outOfRange(defaultValue)) {
      throw new IllegalArgumentException(
          "setting "
              + key
              + ": default "
              + defaultValue
              + " is not allowed; it must be "
              + range());
    }
  }

  public static ConfigKey<Boolean> ofBoolean(String key, boolean def, String doc) {
    return new ConfigKey<>(key, Boolean.class, def, "", doc, ConfigKey::parseBoolean, null, null);
  }

  public static ConfigKey<Integer> ofInt(String key, int def, String unit, String doc) {
    return new ConfigKey<>(
        key, Integer.class, def, unit, doc, s -> Math.toIntExact(parseLong(s)), null, null);
  }

  /** A long; byte sizes accept k/m/g suffixes and durations ms/s/m/h/d suffixes. */
  public static ConfigKey<Long> ofLong(String key, long def, String unit, String doc) {
    Function<String, Long> p =
        unit.equals("ms") ? ConfigKey::parseDurationMillis : ConfigKey::parseLong;
    return new ConfigKey<>(key, Long.class, def, unit, doc, p, null, null);
  }

  public static ConfigKey<Double> ofDouble(String key, double def, String unit, String doc) {
    return new ConfigKey<>(
        key, Double.class, def, unit, doc, s -> Double.parseDouble(s.trim()), null, null);
  }

  public static ConfigKey<String> ofString(String key, String def, String doc) {
    return new ConfigKey<>(key, String.class, def, "", doc, String::trim, null, null);
  }

  /**
   * This key refusing configured values below {@code min}: such a value fails {@link #parse} with a
   * message naming the key, where the consumer would misbehave (a negative interval, a thread pool
   * of -1) or fail later with a message that does not name the setting.
   */
  public ConfigKey<T> atLeast(T min) {
    return between(min, max);
  }

  /** This key refusing configured values outside {@code min}..{@code max} (null: unbounded). */
  public ConfigKey<T> between(T min, T max) {
    if (!Number.class.isAssignableFrom(type)) {
      throw new IllegalStateException("setting " + key + ": only numbers have a range");
    }
    return new ConfigKey<>(key, type, defaultValue, unit, doc, parser, min, max);
  }

  /** The values allowed, in words ("at least 1", "from 0.0 to 1.0"); empty when unbounded. */
  public String range() {
    if (min != null && max != null) {
      return "from " + min + " to " + max;
    }
    if (min != null) {
      return "at least " + min;
    }
    return max != null ? "at most " + max : "";
  }

  /** "key = value", for messages about settings that contradict each other. */
  public String named(T value) {
    return key + " = " + value;
  }

  @SuppressWarnings("unchecked")
  private boolean outOfRange(T value) {
    Comparable<T> v = (Comparable<T>) value;
    return (min != null && v.compareTo(min) < 0) || (max != null && v.compareTo(max) > 0);
  }

  public String key() {
    return key;
  }

  public Class<T> type() {
    return type;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public String unit() {
    return unit;
  }

  public String doc() {
    return doc;
  }

  /**
   * Parses a configured value.
   *
   * @throws IllegalArgumentException naming the key and the value
   */
  public T parse(String raw) {
    T value;
    try {
      value = parser.apply(raw);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "setting "
              + key
              + ": '"
              + raw
              + "' is not a valid "
              + type.getSimpleName().toLowerCase(java.util.Locale.ROOT)
              + unitInParentheses(),
          e);
    }
    if (value != null && outOfRange(value)) {
      throw new IllegalArgumentException(
          "setting "
              + key
              + ": "
              + raw.trim()
              + " is out of range; it must be "
              + range()
              + unitInParentheses());
    }
    return value;
  }

  private String unitInParentheses() {
    return unit.isEmpty() ? "" : " (" + unit + ")";
  }

  @Override
  public String toString() {
    return key;
  }

  private static Boolean parseBoolean(String s) {
    String t = s.trim().toLowerCase(java.util.Locale.ROOT);
    if (t.equals("true")) {
      return true;
    }
    if (t.equals("false")) {
      return false;
    }
    throw new IllegalArgumentException("expected true or false");
  }

  static long parseLong(String s) {
    String t = s.trim().toLowerCase(java.util.Locale.ROOT);
    long mult = 1;
    if (t.endsWith("k")) {
      mult = 1L << 10;
    } else if (t.endsWith("m")) {
      mult = 1L << 20;
    } else if (t.endsWith("g")) {
      mult = 1L << 30;
    }
    if (mult != 1) {
      t = t.substring(0, t.length() - 1).trim();
    }
    return Math.multiplyExact(Long.parseLong(t), mult);
  }

  static long parseDurationMillis(String s) {
    String t = s.trim().toLowerCase(java.util.Locale.ROOT);
    String[][] units = {{"ms", "1"}, {"s", "1000"}, {"m", "60000"}, {"h", "3600000"}};
    for (String[] u : units) {
      if (t.endsWith(u[0])) {
        return Math.multiplyExact(
            Long.parseLong(t.substring(0, t.length() - u[0].length()).trim()),
            Long.parseLong(u[1]));
      }
    }
    if (t.endsWith("d")) {
      return Math.multiplyExact(Long.parseLong(t.substring(0, t.length() - 1).trim()), 86400000L);
    }
    return Long.parseLong(t);
  }
}
