package dev.basalt.region;

import dev.basalt.sstable.BlockCache;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;

/**
 * What a region gets from its host (the database or the server): the clock, the configuration, the
 * edit log, the shared block cache and the queues for background work. Immutable.
 */
public final class RegionServices {
  private final Clock clock;
  private final Config config;
  private final EditLog editLog;
  private final BlockCache blockCache;
  private final MaintenanceRequests maintenance;
  private final RowCache rowCache;

  private RegionServices(
      Clock clock,
      Config config,
      EditLog editLog,
      BlockCache blockCache,
      MaintenanceRequests maintenance,
      RowCache rowCache) {
    this.clock = clock;
    this.config = config;
    this.editLog = editLog;
    this.blockCache = blockCache;
    this.maintenance = maintenance;
    this.rowCache = rowCache;
  }

  /** The system clock, default settings, no edit log, no storage. */
  public static RegionServices defaults() {
    return of(Clock.system(), Config.defaults(), EditLog.NONE);
  }

  /** Services for an in-memory region. */
  public static RegionServices of(Clock clock, Config config, EditLog editLog) {
    return new RegionServices(clock, config, editLog, null, MaintenanceRequests.NONE, null);
  }

  public static RegionServices of(
      Clock clock,
      Config config,
      EditLog editLog,
      BlockCache blockCache,
      MaintenanceRequests maintenance) {
    return new RegionServices(clock, config, editLog, blockCache, maintenance, null);
  }

  /** These services with a row cache (null for none). */
  public RegionServices withRowCache(RowCache cache) {
    return new RegionServices(clock, config, editLog, blockCache, maintenance, cache);
  }

  /** The row cache of the host, or null. */
  public RowCache rowCache() {
    return rowCache;
  }

  public Clock clock() {
    return clock;
  }

  public Config config() {
    return config;
  }

  public EditLog editLog() {
    return editLog;
  }

  /** The block cache, or null for in-memory regions. */
  public BlockCache blockCache() {
    return blockCache;
  }

  public MaintenanceRequests maintenance() {
    return maintenance;
  }
}
