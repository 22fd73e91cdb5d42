package dev.basalt.schema;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A namespace: its name and configuration (free-form string properties, as in HBase). {@code
 * default} holds tables created without a namespace; {@code hbase} is reserved for system tables.
 * Both always exist. Immutable; build with {@link #create(String)}.
 */
public final class NamespaceDescriptor {
  public static final NamespaceDescriptor DEFAULT_NAMESPACE =
      create(TableName.DEFAULT_NAMESPACE).build();
  public static final NamespaceDescriptor SYSTEM_NAMESPACE =
      create(TableName.SYSTEM_NAMESPACE).build();

  private final String name;
  private final Map<String, String> configuration;

  private NamespaceDescriptor(String name, Map<String, String> configuration) {
    this.name = name;
    this.configuration = Collections.unmodifiableMap(new TreeMap<>(configuration));
  }

  /**
   * @throws IllegalArgumentException when the name is not a legal namespace name
   */
  public static Builder create(String name) {
    return new Builder(TableName.checkNamespace(name));
  }

  /** A builder starting from {@code from}'s name and configuration. */
  public static Builder create(NamespaceDescriptor from) {
    Builder b = new Builder(from.name);
    b.configuration.putAll(from.configuration);
    return b;
  }

  public String getName() {
    return name;
  }

  /** The configuration, sorted by key (unmodifiable). */
  public Map<String, String> getConfiguration() {
    return configuration;
  }

  /** One configuration value, or null. */
  public String getConfigurationValue(String key) {
    return configuration.get(key);
  }

  /** Whether this is {@code default} or {@code hbase}, which always exist. */
  public boolean isReserved() {
    return isReserved(name);
  }

  public static boolean isReserved(String namespace) {
    return TableName.DEFAULT_NAMESPACE.equals(namespace)
        || TableName.SYSTEM_NAMESPACE.equals(namespace);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NamespaceDescriptor
        && ((NamespaceDescriptor) o).name.equals(name)
        && ((NamespaceDescriptor) o).configuration.equals(configuration);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + configuration.hashCode();
  }

  @Override
  public String toString() {
    return "{NAME => '" + name + "'" + (configuration.isEmpty() ? "" : ", " + configuration) + "}";
  }

  /** Builds a {@link NamespaceDescriptor}. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private final Map<String, String> configuration = new TreeMap<>();

    private Builder(String name) {
      this.name = name;
    }

    /**
     * @throws IllegalArgumentException for a null or empty key, or a null value
     */
    public Builder addConfiguration(String key, String value) {
      if (key == null || key.isEmpty()) {
        throw new IllegalArgumentException("namespace configuration key cannot be empty");
      }
      if (value == null) {
        throw new IllegalArgumentException(
            "namespace configuration value of '" + key + "' cannot be null");
      }
      configuration.put(key, value);
      return this;
    }

    public Builder addConfiguration(Map<String, String> values) {
      values.forEach(this::addConfiguration);
      return this;
    }

    public Builder removeConfiguration(String key) {
      configuration.remove(key);
      return this;
    }

    public NamespaceDescriptor build() {
      return new NamespaceDescriptor(name, configuration);
    }
  }
}
