package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/** The named namespace does not exist (or cannot hold user tables). */
public final class NamespaceNotFoundException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public NamespaceNotFoundException(String message) {
    super(message, "org.apache.hadoop.hbase.NamespaceNotFoundException", true);
  }
}
