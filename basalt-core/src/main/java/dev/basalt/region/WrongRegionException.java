package dev.basalt.region;

import dev.basalt.util.BasaltIOException;

/** An operation's row lies outside the region it was sent to. */
public final class WrongRegionException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public WrongRegionException(String message) {
    super(message, "org.apache.hadoop.hbase.regionserver.WrongRegionException", true);
  }
}
