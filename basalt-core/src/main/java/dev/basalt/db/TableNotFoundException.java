package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/** The named table does not exist. */
public final class TableNotFoundException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public TableNotFoundException(String table) {
    super(
        "table '" + table + "' does not exist",
        "org.apache.hadoop.hbase.TableNotFoundException",
        true);
  }
}
