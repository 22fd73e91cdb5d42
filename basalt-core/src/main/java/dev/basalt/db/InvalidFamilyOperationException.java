package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/**
 * A schema change names a column family wrongly: adding one that exists, removing or altering one
 * that does not, or removing the last.
 */
public final class InvalidFamilyOperationException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public InvalidFamilyOperationException(String message) {
    super(message, "org.apache.hadoop.hbase.InvalidFamilyOperationException", true);
  }
}
