package dev.basalt.util.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/** Every declared setting, collected once from the {@link ConfigKeySet} services. */
public final class ConfigRegistry {
  private static volatile ConfigRegistry instance;

  private final Map<String, ConfigKey<?>> byKey;
  private final List<ConfigKeySet> sets;
  private final List<String> passThroughPrefixes;

  private ConfigRegistry(List<ConfigKeySet> sets) {
    Map<String, ConfigKey<?>> m = new LinkedHashMap<>();
    for (ConfigKeySet set : sets) {
      for (ConfigKey<?> k : set.keys()) {
        ConfigKey<?> prev = m.putIfAbsent(k.key(), k);
        if (prev != null && prev != k) {
          throw new IllegalStateException("setting " + k.key() + " is declared twice");
        }
      }
    }
    this.byKey = Collections.unmodifiableMap(m);
    this.sets = List.copyOf(sets);
    List<String> prefixes = new ArrayList<>();
    for (ConfigKeySet set : sets) {
      prefixes.addAll(set.passThroughPrefixes());
    }
    this.passThroughPrefixes = List.copyOf(prefixes);
  }

  public static ConfigRegistry get() {
    ConfigRegistry r = instance;
    if (r == null) {
      synchronized (ConfigRegistry.class) {
        r = instance;
        if (r == null) {
          List<ConfigKeySet> sets = new ArrayList<>();
          ServiceLoader.load(ConfigKeySet.class, ConfigRegistry.class.getClassLoader())
              .forEach(sets::add);
          sets.sort((a, b) -> a.section().compareTo(b.section()));
          r = new ConfigRegistry(sets);
          instance = r;
        }
      }
    }
    return r;
  }

  /** True when {@code key} is declared by some {@link ConfigKeySet}. */
  public boolean isDeclared(ConfigKey<?> key) {
    return byKey.get(key.key()) == key;
  }

  /**
   * True when {@code key} is one a library reads itself ({@link ConfigKeySet#passThroughPrefixes}).
   */
  public boolean passesThrough(String key) {
    for (String p : passThroughPrefixes) {
      if (key.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  public ConfigKey<?> find(String key) {
    return byKey.get(key);
  }

  public List<ConfigKeySet> sets() {
    return sets;
  }

  /** The Markdown table docs/CONFIGURATION.md is generated from. */
  public String toMarkdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("# Configuration\n\n")
        .append("Generated from the settings registry (`ConfigRegistry`); do not edit by hand.\n")
        .append(
            "basalt-server's `ConfigurationDocTest` fails when this file is stale; rewrite it\n")
        .append("with `mvn -pl basalt-server -am test -Dtest=ConfigurationDocTest\n")
        .append("-Dsurefire.failIfNoSpecifiedTests=false -Dbasalt.regenerateDocs=true`.\n");
    for (ConfigKeySet set : sets) {
      sb.append("\n## ").append(set.section()).append("\n\n");
      sb.append("| key | type | default | unit | meaning |\n| --- | --- | --- | --- | --- |\n");
      for (ConfigKey<?> k : set.keys()) {
        sb.append("| `")
            .append(k.key())
            .append("` | ")
            .append(k.type().getSimpleName().toLowerCase(java.util.Locale.ROOT))
            .append(" | ")
            .append(k.defaultValue())
            .append(" | ")
            .append(k.unit())
            .append(" | ")
            .append(k.doc())
            .append(k.range().isEmpty() ? "" : " Allowed: " + k.range() + ".")
            .append(" |\n");
      }
    }
    return sb.toString();
  }
}
