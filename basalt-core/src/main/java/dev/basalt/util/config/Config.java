package dev.basalt.util.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * An immutable set of configured values, read only through declared {@link ConfigKey}s. Values for
 * declared keys are parsed when the configuration is built, so a bad value fails at start-up with a
 * message naming the key. Undeclared keys are kept (HBase configuration files carry many) and
 * reported by {@link #unknownKeys()} so that callers can warn about them.
 */
public final class Config {
  private static final Config EMPTY = new Config(Map.of());

  private final Map<String, String> raw;
  private final Map<String, Object> parsed;

  private Config(Map<String, String> raw) {
    this.raw = Collections.unmodifiableMap(new LinkedHashMap<>(raw));
    Map<String, Object> p = new LinkedHashMap<>();
    ConfigRegistry reg = ConfigRegistry.get();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      ConfigKey<?> k = reg.find(e.getKey());
      if (k != null) {
        p.put(e.getKey(), k.parse(e.getValue()));
      }
    }
    this.parsed = p;
  }

  /** All defaults. */
  public static Config defaults() {
    return EMPTY;
  }

  public static Config fromProperties(Properties props) {
    Builder b = builder();
    for (String name : props.stringPropertyNames()) {
      b.set(name, props.getProperty(name));
    }
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.values.putAll(raw);
    return b;
  }

  /**
   * The configured value, or the key's default.
   *
   * @throws IllegalStateException when the key is not declared in any {@link ConfigKeySet}: every
   *     setting must be declared once, with its documentation
   */
  public <T> T get(ConfigKey<T> key) {
    if (!ConfigRegistry.get().isDeclared(key)) {
      throw new IllegalStateException(
          "setting " + key.key() + " is read but not declared in any ConfigKeySet");
    }
    Object v = parsed.get(key.key());
    return v == null ? key.defaultValue() : key.type().cast(v);
  }

  /**
   * Keys that were set but that no {@link ConfigKeySet} declares, nor passes through to a library.
   */
  public Set<String> unknownKeys() {
    Set<String> out = new TreeSet<>(raw.keySet());
    out.removeAll(parsed.keySet());
    out.removeIf(ConfigRegistry.get()::passesThrough);
    return out;
  }

  /**
   * The values set for keys that a library reads itself ({@link ConfigKeySet#passThroughPrefixes},
   * e.g. the Hadoop client's {@code dfs.*}), as they were written.
   */
  public Map<String, String> passedThrough() {
    Map<String, String> out = new LinkedHashMap<>();
    ConfigRegistry reg = ConfigRegistry.get();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      if (reg.find(e.getKey()) == null && reg.passesThrough(e.getKey())) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return raw.toString();
  }

  /** Collects values; {@link #build()} parses and validates them. */
  public static final class Builder {
    private final Map<String, String> values = new LinkedHashMap<>();

    public Builder set(String key, String value) {
      values.put(key, value);
      return this;
    }

    public <T> Builder set(ConfigKey<T> key, T value) {
      values.put(key.key(), String.valueOf(value));
      return this;
    }

    /**
     * @throws IllegalArgumentException when a declared key has an unparseable value
     */
    public Config build() {
      return new Config(values);
    }
  }
}
