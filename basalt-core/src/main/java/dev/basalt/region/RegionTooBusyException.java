package dev.basalt.region;

import dev.basalt.util.BasaltIOException;

/** The region cannot take writes now (too many store files awaiting compaction); retry later. */
public final class RegionTooBusyException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public RegionTooBusyException(String message) {
    super(message, "org.apache.hadoop.hbase.RegionTooBusyException", false);
  }
}
