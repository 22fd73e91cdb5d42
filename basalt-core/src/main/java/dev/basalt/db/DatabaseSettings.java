package dev.basalt.db;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/** Settings of the database: memory, the block cache and background maintenance. */
public final class DatabaseSettings implements ConfigKeySet {
  public static final ConfigKey<Double> GLOBAL_MEMSTORE_FRACTION =
      ConfigKey.ofDouble(
              "hbase.regionserver.global.memstore.size",
              0.4,
              "fraction of heap",
              "All memstores together may hold this share of the heap; writes wait above it while the"
                  + " largest regions are flushed.")
          .between(0.0, 0.9);

  public static final ConfigKey<Double> GLOBAL_MEMSTORE_LOWER =
      ConfigKey.ofDouble(
              "hbase.regionserver.global.memstore.size.lower.limit",
              0.95,
              "fraction of the limit",
              "Flushing for the global limit starts at this share of it.")
          .between(0.0, 1.0);

  public static final ConfigKey<Double> BLOCK_CACHE_FRACTION =
      ConfigKey.ofDouble(
              "hfile.block.cache.size",
              0.4,
              "fraction of heap",
              "Share of the heap given to the block cache of store file data blocks.")
          .between(0.0, 0.9);

  public static final ConfigKey<Double> ROW_CACHE_FRACTION =
      ConfigKey.ofDouble(
              "basalt.rowcache.size",
              0.02,
              "fraction of heap",
              "Share of the heap given to the row cache: the latest version of recently read rows,"
                  + " which answers gets for a whole row (every family, one version, no filter or time"
                  + " range) without searching memstores and store files. Rows of tables with a TTL"
                  + " are not cached; a put brings a cached row up to date (in families with"
                  + " deterministic history), other writes drop it, and a major compaction of a"
                  + " family with classic history (which can make masked puts visible) drops its"
                  + " region's rows. Rows are kept in slabs of up to"
                  + " 2 MiB that, with the space of dropped rows not yet reclaimed, hold at most one"
                  + " and a half times this share, plus a few slabs. 0 turns it off.")
          .between(0.0, 0.9);

  public static final ConfigKey<Long> PERIODIC_FLUSH =
      ConfigKey.ofLong(
              "hbase.regionserver.optionalcacheflushinterval",
              3_600_000L,
              "ms",
              "A region whose memstore holds edits older than this is flushed; 0 turns it off.")
          .atLeast(0L);

  public static final ConfigKey<Long> MAINTENANCE_INTERVAL =
      ConfigKey.ofLong(
              "basalt.maintenance.interval",
              10_000L,
              "ms",
              "How often the database checks for periodic flushes and major compactions.")
          .atLeast(1L);

  public static final ConfigKey<Boolean> FLUSH_ON_CLOSE =
      ConfigKey.ofBoolean(
          "basalt.flush.on.close",
          true,
          "Flush every memstore when the database closes cleanly, so the next open replays"
              + " nothing.");

  public static final ConfigKey<Boolean> NEW_VERSION_BEHAVIOR_DEFAULT =
      ConfigKey.ofBoolean(
          "basalt.new.version.behavior.default",
          true,
          "NEW_VERSION_BEHAVIOR of a column family created without it: true gives Basalt's"
              + " deterministic history (a delete masks only what was written before it; reads never"
              + " depend on flushes or compactions), false HBase's classic delete semantics (a"
              + " delete masks every older timestamp, even puts written after it, until a major"
              + " compaction), for applications migrating code that relies on them. The value is"
              + " stored with each new family, so changing this setting later changes no existing"
              + " family.");

  public static final ConfigKey<Long> TRANSITION_WAIT =
      ConfigKey.ofLong(
              "basalt.region.transition.wait",
              60_000L,
              "ms",
              "How long an operation that meets a region being closed by a table change (disable,"
                  + " schema change) waits for the change before failing with the region's error.")
          .atLeast(0L);

  public static final ConfigKey<Long> MAX_FILESIZE =
      ConfigKey.ofLong(
              "hbase.hregion.max.filesize",
              10L * 1024 * 1024 * 1024,
              "bytes",
              "A region splits in two, at the middle row of its largest store file, once the files of"
                  + " its largest store hold more than this (a table's MAX_FILESIZE overrides it).")
          .atLeast(1L);

  public static final ConfigKey<Integer> FLUSH_THREADS =
      ConfigKey.ofInt(
              "hbase.hstore.flusher.count",
              0,
              "threads",
              "Threads that flush memstores; 0 sizes the pool by the core count (half of them, 1 to"
                  + " 8).")
          .atLeast(0);

  public static final ConfigKey<Integer> SMALL_COMPACTION_THREADS =
      ConfigKey.ofInt(
              "hbase.regionserver.thread.compaction.small",
              0,
              "threads",
              "Threads for compactions of regions with less data than the throttle point; 0 sizes the"
                  + " pool by the core count (a quarter of them, 1 to 4).")
          .atLeast(0);

  public static final ConfigKey<Integer> LARGE_COMPACTION_THREADS =
      ConfigKey.ofInt(
              "hbase.regionserver.thread.compaction.large",
              0,
              "threads",
              "Threads for compactions of regions with more data than the throttle point; 0 sizes the"
                  + " pool by the core count (an eighth of them, 1 to 2).")
          .atLeast(0);

  public static final ConfigKey<Long> COMPACTION_THROTTLE_POINT =
      ConfigKey.ofLong(
              "hbase.regionserver.thread.compaction.throttle",
              2_684_354_560L,
              "bytes",
              "Compactions of regions whose store files hold more than this go to the large"
                  + " compaction queue, so that they do not hold up the small ones.")
          .atLeast(0L);

  @Override
  public String section() {
    return "Database";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        GLOBAL_MEMSTORE_FRACTION,
        GLOBAL_MEMSTORE_LOWER,
        BLOCK_CACHE_FRACTION,
        ROW_CACHE_FRACTION,
        PERIODIC_FLUSH,
        MAINTENANCE_INTERVAL,
        FLUSH_ON_CLOSE,
        NEW_VERSION_BEHAVIOR_DEFAULT,
        TRANSITION_WAIT,
        MAX_FILESIZE,
        FLUSH_THREADS,
        SMALL_COMPACTION_THREADS,
        LARGE_COMPACTION_THREADS,
        COMPACTION_THROTTLE_POINT);
  }
}
