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
}
