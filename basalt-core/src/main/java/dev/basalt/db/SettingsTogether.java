package dev.basalt.db;

import dev.basalt.compaction.CompactionSettings;
import dev.basalt.util.config.Config;

/**
 * Rules between settings that one key's range cannot express, checked before a database opens
 * anything, so that a bad combination fails at start with the keys named instead of when the first
 * region opens or the heap runs out.
 */
final class SettingsTogether {
  /** HBase refuses memstores and block cache together above this share of the heap. */
  static final double MAX_MEMSTORE_AND_CACHE = 0.8;

  private SettingsTogether() {}

  /**
   * @throws IllegalArgumentException naming the keys and their values
   */
  static void check(Config config) {
    CompactionSettings.policy(config);
    double memstore = config.get(DatabaseSettings.GLOBAL_MEMSTORE_FRACTION);
    double cache = config.get(DatabaseSettings.BLOCK_CACHE_FRACTION);
    // A small tolerance: 0.4 + 0.4 is 0.8000000000000002 in doubles.
    if (memstore + cache > MAX_MEMSTORE_AND_CACHE + 1e-9) {
      throw new IllegalArgumentException(
          DatabaseSettings.GLOBAL_MEMSTORE_FRACTION.named(memstore)
              + " and "
              + DatabaseSettings.BLOCK_CACHE_FRACTION.named(cache)
              + " together give more than "
              + MAX_MEMSTORE_AND_CACHE
              + " of the heap to memstores and block cache, leaving too little for everything"
              + " else (HBase refuses this too)");
    }
  }
}
