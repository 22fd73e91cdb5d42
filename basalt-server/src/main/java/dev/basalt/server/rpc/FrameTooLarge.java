package dev.basalt.server.rpc;

/**
 * A frame whose length prefix exceeds the configured maximum; its bytes are not buffered.
 *
 * @param length the length the prefix announced (unsigned)
 * @param limit the configured maximum frame size
 * @param callId the call id read from the request header at the start of the frame, or -1 when it
 *     could not be read (the frame is the connection header, or its start is not a header)
 */
record FrameTooLarge(long length, int limit, int callId) {
  boolean hasCallId() {
    return callId >= 0;
  }

  String message() {
    return "RPC frame of "
        + length
        + " bytes is larger than the maximum of "
        + limit
        + " bytes (hbase.ipc.max.request.size)";
  }
}
