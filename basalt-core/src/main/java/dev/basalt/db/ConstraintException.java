package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/**
 * A catalog change would break a rule: removing a namespace that still holds tables or that is
 * reserved.
 */
public final class ConstraintException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public ConstraintException(String message) {
    super(message, "org.apache.hadoop.hbase.constraint.ConstraintException", true);
  }
}
