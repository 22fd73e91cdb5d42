package dev.basalt.server.rpc;

import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Says whether a call may run on the network thread that read it instead of on a handler thread.
 * Handing a call over costs two thread wake-ups (the handler's, then the network thread's to write
 * the answer), which is more than a warm get or a small put costs on a machine with few cores; so a
 * method whose calls are usually short registers a rule, and the network thread runs the calls the
 * rule accepts itself, inside {@link dev.basalt.util.NoWait#attempt}: if the call would wait (a row
 * lock, a flush, memory), it is handed to a handler after all, unchanged.
 *
 * <p>A rule must be cheap and must not block; it sees the parsed request. It should refuse calls
 * whose cost grows with their size (large batches, long scans) or that must wait by design (edits
 * forced to the device), since the network thread serves every other call of its connections
 * meanwhile.
 *
 * @param <Q> the request message type of the method
 */
@FunctionalInterface
public interface InlineRule<Q extends Message> {
  boolean runsInline(Q request);
}
