package dev.basalt.util;

import java.io.IOException;

/**
 * An error the engine reports to callers, carrying the name of the HBase exception class a remote
 * HBase client expects for it and whether retrying can help. The server puts {@link
 * #hbaseExceptionClass()} on the wire; embedded callers can use {@link #isDoNotRetry()}.
 */
public class BasaltIOException extends IOException {
  private static final long serialVersionUID = 1L;

  /** HBase's class for errors no retry can fix. */
  public static final String DO_NOT_RETRY = "org.apache.hadoop.hbase.DoNotRetryIOException";

  private final String hbaseExceptionClass;
  private final boolean doNotRetry;

  public BasaltIOException(String message, String hbaseExceptionClass, boolean doNotRetry) {
    super(message);
    this.hbaseExceptionClass = hbaseExceptionClass;
    this.doNotRetry = doNotRetry;
  }

  public BasaltIOException(
      String message, String hbaseExceptionClass, boolean doNotRetry, Throwable cause) {
    super(message, cause);
    this.hbaseExceptionClass = hbaseExceptionClass;
    this.doNotRetry = doNotRetry;
  }

  /** A request no retry can fix, sent as HBase's {@code DoNotRetryIOException}. */
  public static BasaltIOException doNotRetry(String message) {
    return new BasaltIOException(message, DO_NOT_RETRY, true);
  }

  /** The fully qualified HBase exception class name for the wire. */
  public String hbaseExceptionClass() {
    return hbaseExceptionClass;
  }

  public boolean isDoNotRetry() {
    return doNotRetry;
  }
}
