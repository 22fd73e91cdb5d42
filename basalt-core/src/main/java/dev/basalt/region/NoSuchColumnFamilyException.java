package dev.basalt.region;

import dev.basalt.util.BasaltIOException;

/** An operation named a family the table does not have. */
public final class NoSuchColumnFamilyException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public NoSuchColumnFamilyException(String message) {
    super(message, "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException", true);
  }
}
