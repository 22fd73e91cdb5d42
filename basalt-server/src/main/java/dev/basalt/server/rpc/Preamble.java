package dev.basalt.server.rpc;

import dev.basalt.cell.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The first six bytes a client writes on a new connection. Layout of the ordinary preamble:
 *
 * <pre>
 * offset  size  value
 * 0       4     "HBas" (48 42 61 73)
 * 4       1     RPC version, 0
 * 5       1     auth method: 80 SIMPLE, 81 KERBEROS, 82 DIGEST
 * </pre>
 *
 * Two other six-byte magics replace it: "Regist" (the RPC connection registry asks for the cluster
 * id, then the connection is closed) and "Securi" (a Kerberos client asks for the server principal,
 * then sends an ordinary preamble on the same connection).
 *
 * @param kind what the bytes are
 * @param bytes the six bytes as received
 */
record Preamble(Kind kind, byte[] bytes) {
  static final int LENGTH = 6;
  static final int CURRENT_VERSION = 0;
  static final int AUTH_SIMPLE = 80;

  private static final byte[] RPC_MAGIC = "HBas".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] REGISTRY_MAGIC = "Regist".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SECURITY_MAGIC = "Securi".getBytes(StandardCharsets.US_ASCII);

  enum Kind {
    /** "HBas" + version + auth; {@link #opensConnection} tells whether both are acceptable. */
    RPC,
    REGISTRY,
    SECURITY,
    BAD_MAGIC
  }

  Preamble {
    if (bytes.length != LENGTH) {
      throw new IllegalArgumentException("a preamble has 6 bytes, not " + bytes.length);
    }
  }

  static Preamble parse(byte[] six) {
    Kind kind;
    if (Arrays.equals(six, REGISTRY_MAGIC)) {
      kind = Kind.REGISTRY;
    } else if (Arrays.equals(six, SECURITY_MAGIC)) {
      kind = Kind.SECURITY;
    } else if (Arrays.equals(six, 0, 4, RPC_MAGIC, 0, 4)) {
      kind = Kind.RPC;
    } else {
      kind = Kind.BAD_MAGIC;
    }
    return new Preamble(kind, six.clone());
  }

  int version() {
    return bytes[4] & 0xff;
  }

  int authMethod() {
    return bytes[5] & 0xff;
  }

  /** True when length-prefixed frames (the connection header, then requests) follow. */
  boolean opensConnection() {
    return kind == Kind.RPC && version() == CURRENT_VERSION && authMethod() == AUTH_SIMPLE;
  }

  /** True when another preamble follows on the same connection. */
  boolean expectsAnotherPreamble() {
    return kind == Kind.SECURITY;
  }

  /** The first four bytes in HBase's printable form, for "Expected HEADER=" messages. */
  String magicText() {
    return Bytes.toStringBinary(bytes, 0, 4);
  }
}
