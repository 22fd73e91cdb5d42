package dev.basalt.db;

import dev.basalt.util.BasaltIOException;

/**
 * Two regions cannot be merged: they are the same, of different tables, not adjacent, or one still
 * reads files of a region it was split or merged from.
 */
public final class MergeRegionException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public MergeRegionException(String message) {
    super(message, "org.apache.hadoop.hbase.exceptions.MergeRegionException", true);
  }
}
