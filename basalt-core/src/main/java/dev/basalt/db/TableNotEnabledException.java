package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/** The table is disabled (or being disabled): it serves no reads or writes. */
public final class TableNotEnabledException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public TableNotEnabledException(String message) {
    super(message, "org.apache.hadoop.hbase.TableNotEnabledException", true);
  }
}
