package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/** A table with that name already exists. */
public final class TableExistsException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public TableExistsException(String table) {
    super(
        "table '" + table + "' already exists",
        "org.apache.hadoop.hbase.TableExistsException",
        true);
  }
}
