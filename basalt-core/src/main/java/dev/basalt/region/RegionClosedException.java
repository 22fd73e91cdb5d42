package dev.basalt.region;

import dev.basalt.util.BasaltIOException;

/** The region is closed or closing; the client should locate it again. */
public final class RegionClosedException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public RegionClosedException(String message) {
    super(message, "org.apache.hadoop.hbase.NotServingRegionException", false);
  }
}
