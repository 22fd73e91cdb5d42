package dev.basalt.util.config;

import java.util.List;

/**
 * A group of declared settings. Each module lists its sets in {@code
 * META-INF/services/dev.basalt.util.config.ConfigKeySet}; the union is the registry that {@link
 * Config} checks every read against and that docs/CONFIGURATION.md is generated from.
 */
public interface ConfigKeySet {
  /** A heading for the documentation table, e.g. "Region". */
  String section();

  List<ConfigKey<?>> keys();

  /**
   * Prefixes of keys that a library reads itself (the Hadoop client's {@code dfs.}): not declared
   * one by one, not reported as unknown, and handed over by {@link Config#passedThrough}.
   */
  default List<String> passThroughPrefixes() {
    return List.of();
  }
}
