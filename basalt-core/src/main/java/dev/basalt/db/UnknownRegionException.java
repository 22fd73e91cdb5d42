package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/** No table of the database has a region of that name. */
public final class UnknownRegionException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public UnknownRegionException(String message) {
    super(message, "org.apache.hadoop.hbase.UnknownRegionException", true);
  }
}
