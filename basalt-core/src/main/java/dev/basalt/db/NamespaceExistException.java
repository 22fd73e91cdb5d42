package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/** A namespace with that name already exists. */
public final class NamespaceExistException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public NamespaceExistException(String message) {
    super(message, "org.apache.hadoop.hbase.NamespaceExistException", true);
  }
}
