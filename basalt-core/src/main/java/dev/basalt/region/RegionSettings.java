package dev.basalt.region;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/** Settings of the region layer. */
public final class RegionSettings implements ConfigKeySet {
  public static final ConfigKey<Long> ROW_LOCK_WAIT =
      ConfigKey.ofLong(
              "hbase.rowlock.wait.duration",
              30_000L,
              "ms",
              "How long a write waits for a row lock held by another writer before failing.")
          .atLeast(0L);

  public static final ConfigKey<Long> MAX_CELL_SIZE =
      ConfigKey.ofLong(
          "hbase.server.keyvalue.maxsize",
          10L * 1024 * 1024,
          "bytes",
          "Largest cell (key and value) a write may carry; 0 or less means no limit.");

  public static final ConfigKey<Long> FLUSH_SIZE =
      ConfigKey.ofLong(
              "hbase.hregion.memstore.flush.size",
              128L * 1024 * 1024,
              "bytes",
              "A region's memstores are flushed once together they hold this much (the table's"
                  + " MEMSTORE_FLUSHSIZE overrides it).")
          .atLeast(1L);

  /** Rows scanners must have returned since the last flush before stacked versions flush early. */
  static final long DEEP_FLUSH_SCANNED_ROWS = 1000;

  public static final ConfigKey<Long> DEEP_VERSIONS_FLUSH =
      ConfigKey.ofLong(
              "basalt.flush.deep.versions",
              2000L,
              "cells",
              "A region that scanners read is flushed early once this many cells went into its"
                  + " memstores in front of at least 4 older versions of their column (columns updated"
                  + " over and over, e.g. hot keys): a scan steps over the versions in a memstore and"
                  + " over rows whose cells were written at different times and lie scattered in its"
                  + " memory, one cache miss each, but reads a flushed file in order, and compactions"
                  + " drop the dead versions. Only when the memstores hold at least a sixteenth of the"
                  + " flush size and scanners returned at least "
                  + DEEP_FLUSH_SCANNED_ROWS
                  + " rows since the last flush (gets, answered from the row cache or one row's cells,"
                  + " are served well from memory, and a flush costs them the merge with the new"
                  + " file); 0 turns it off.")
          .atLeast(0L);

  public static final ConfigKey<Double> SCANNED_MEMSTORE_FLUSH =
      ConfigKey.ofDouble(
              "basalt.flush.scanned.memstore",
              1.0,
              "times",
              "A region is flushed early once its scanners have returned, since its last flush, this"
                  + " many times as many cells as the region holds in its memstores and files, i.e."
                  + " once scans have read it that many times over (e.g. scans of rows just written): a"
                  + " memstore keeps its cells in the order they were written, so a scan pays a cache"
                  + " miss for every row it steps to in it, but reads a"
                  + " flushed file in order. The same floor as "
                  + "basalt.flush.deep.versions applies (a sixteenth of the flush size and "
                  + DEEP_FLUSH_SCANNED_ROWS
                  + " scanned rows since the last flush); 0 turns it off.")
          .atLeast(0.0);

  @Override
  public String section() {
    return "Region";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        ROW_LOCK_WAIT, MAX_CELL_SIZE, FLUSH_SIZE, DEEP_VERSIONS_FLUSH, SCANNED_MEMSTORE_FLUSH);
  }
}
