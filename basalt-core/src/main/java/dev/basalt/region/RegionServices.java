package dev.basalt.region;

import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;

/**
 * What a region gets from its host (the database or the server): the clock, the configuration and
 * the edit log. Immutable.
 */
public final class RegionServices {
  private final Clock clock;
  private final Config config;
  private final EditLog editLog;

  private RegionServices(Clock clock, Config config, EditLog editLog) {
    this.clock = clock;
    this.config = config;
    this.editLog = editLog;
  }

  /** The system clock, default settings, no edit log. */
  public static RegionServices defaults() {
    return new RegionServices(Clock.system(), Config.defaults(), EditLog.NONE);
  }

  public static RegionServices of(Clock clock, Config config, EditLog editLog) {
    return new RegionServices(clock, config, editLog);
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
}
