package dev.basalt.server.protocol;

import dev.basalt.util.BasaltIOException;

/** The errors of the protocol conversions, named as HBase's server names them. */
final class ProtocolErrors {
  private ProtocolErrors() {}

  /** A request the server cannot carry out as sent: the client must not retry it. */
  static BasaltIOException doNotRetry(String message) {
    return new BasaltIOException(message, BasaltIOException.DO_NOT_RETRY, true);
  }
}
