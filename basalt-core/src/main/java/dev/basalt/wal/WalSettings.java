package dev.basalt.wal;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/** Settings of the write-ahead log. */
public final class WalSettings implements ConfigKeySet {
  public static final ConfigKey<Long> ROLL_SIZE =
      ConfigKey.ofLong(
              "basalt.wal.roll.size",
              128L * 1024 * 1024,
              "bytes",
              "A WAL segment is closed and a new one started once it holds this many bytes.")
          .atLeast(1L);

  public static final ConfigKey<Long> ROLL_PERIOD =
      ConfigKey.ofLong(
              "hbase.regionserver.logroll.period",
              3_600_000L,
              "ms",
              "A WAL segment is closed and a new one started once it is this old (checked on write).")
          .atLeast(1L);

  public static final ConfigKey<Long> ASYNC_FLUSH_INTERVAL =
      ConfigKey.ofLong(
              "hbase.regionserver.optionallogflushinterval",
              1_000L,
              "ms",
              "ASYNC_WAL edits are flushed to the operating system at most this long after they are"
                  + " logged.")
          .atLeast(1L);

  public static final ConfigKey<Long> ASYNC_BACKLOG =
      ConfigKey.ofLong(
              "basalt.wal.async.backlog.size",
              16L * 1024 * 1024,
              "bytes",
              "ASYNC_WAL edits that may wait for the background flush; past this an ASYNC_WAL"
                  + " writer waits for a flush as a SYNC_WAL one does, so that writers faster than"
                  + " the disk cannot fill the heap with queued edits.")
          .atLeast(0L);

  public static final ConfigKey<Boolean> SKIP_REPLAY_ERRORS =
      ConfigKey.ofBoolean(
          "hbase.hregion.edits.replay.skip.errors",
          false,
          "On open, and when a dead region server's log is split, skip (and lose) corrupt WAL or"
              + " recovered-edits entries instead of failing. A torn entry at the very end of a"
              + " log's last segment is always dropped.");

  @Override
  public String section() {
    return "Write-ahead log";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(ROLL_SIZE, ROLL_PERIOD, ASYNC_FLUSH_INTERVAL, ASYNC_BACKLOG, SKIP_REPLAY_ERRORS);
  }
}
