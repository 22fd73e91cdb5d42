package dev.basalt.region;

import dev.basalt.util.BasaltIOException;

/** A row stayed locked by other writers longer than the lock wait limit; retrying may succeed. */
public final class RowLockTimeoutException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public RowLockTimeoutException(String message) {
    super(message, "org.apache.hadoop.hbase.exceptions.TimeoutIOException", false);
  }
}
