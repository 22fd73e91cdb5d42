package dev.basalt.region;

import dev.basalt.util.BasaltIOException;

/**
 * A mutation or read that can never succeed as given: an empty Put, a counter that is not a long,
 * an oversized cell, a write to a read-only table. Nothing was changed.
 */
public final class InvalidMutationException extends BasaltIOException {
  private static final long serialVersionUID = 1L;

  public InvalidMutationException(String message) {
    super(message, DO_NOT_RETRY, true);
  }
}
