package dev.basalt.db;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/**
 * Settings of the archive cleaner (HBase's log and HFile cleaner keys and defaults). It runs on the
 * maintenance chore ({@code basalt.maintenance.interval}).
 */
public final class CleanerSettings implements ConfigKeySet {
  public static final ConfigKey<Long> WAL_TTL =
      ConfigKey.ofLong(
              "hbase.master.logcleaner.ttl",
              600_000L,
              "ms",
              "A WAL segment moved to oldWALs/ (all its edits persisted) is deleted after this long.")
          .atLeast(0L);

  public static final ConfigKey<Long> FILE_TTL =
      ConfigKey.ofLong(
              "hbase.master.hfilecleaner.ttl",
              300_000L,
              "ms",
              "A store file moved to archive/ (compacted away, or its region deleted) is deleted after"
                  + " this long.")
          .atLeast(0L);

  public static final ConfigKey<Long> REPLICATION_RETAINED_WARN =
      ConfigKey.ofLong(
              "basalt.replication.retained.warn.size",
              8L << 30,
              "bytes",
              "When WAL segments kept in oldWALs/ only because a replication queue has not read them"
                  + " (a peer that is down, slow or disabled) pass this size, every cleaner run"
                  + " warns, naming the peers that hold them.")
          .atLeast(0L);

  @Override
  public String section() {
    return "Archive cleaner";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(WAL_TTL, FILE_TTL, REPLICATION_RETAINED_WARN);
  }
}
