package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/** The operation needs a disabled table (delete, truncate, enable) and the table is enabled. */
public final class TableNotDisabledException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public TableNotDisabledException(String message) {
    super(message, "org.apache.hadoop.hbase.TableNotDisabledException", true);
  }
}
