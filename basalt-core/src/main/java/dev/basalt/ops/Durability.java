package dev.basalt.ops;

/**
 * How durable a mutation must be before it is acknowledged (HBase's names and meanings). {@link
 * #USE_DEFAULT} means the table's setting, which defaults to {@link #SYNC_WAL}.
 */
public enum Durability {
  /** The table's durability. */
  USE_DEFAULT,
  /** Not written to the WAL: lost on a crash before the next flush. */
  SKIP_WAL,
  /** Written to the WAL, acknowledged before the WAL is flushed. */
  ASYNC_WAL,
  /** Acknowledged after the WAL entry is flushed to the operating system (hflush on HDFS). */
  SYNC_WAL,
  /** Acknowledged after the WAL entry is forced to the device (hsync on HDFS). */
  FSYNC_WAL
}
