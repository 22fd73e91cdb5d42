package dev.basalt.server.rpc;

import dev.basalt.cell.Cell;
import java.net.SocketAddress;
import java.util.List;

/**
 * One request as a {@link MethodHandler} sees it, besides its parameter message: who sent it, how,
 * and the cells of its cell block. Immutable.
 *
 * @param callId the client's call id (echoed in the response)
 * @param service the service name from the connection header, e.g. "ClientService"
 * @param method the method name, e.g. "Get"
 * @param cells the request cell block, decoded; empty when there was none
 * @param cellBlocksSupported whether the connection named a cell block codec, so that the response
 *     may carry cells in a cell block (otherwise they must go inside the response message)
 * @param priority the client's priority (0 normal, 200 for hbase:meta), -1 when absent
 * @param timeoutMillis the client's timeout for the call, 0 when absent
 * @param user the effective user the connection header names, "" when absent (SIMPLE auth: the
 *     client's claim, not verified)
 * @param remoteAddress the client's address
 */
public record RpcCall(
    int callId,
    String service,
    String method,
    List<Cell> cells,
    boolean cellBlocksSupported,
    int priority,
    int timeoutMillis,
    String user,
    SocketAddress remoteAddress) {
  public RpcCall {
    cells = List.copyOf(cells);
  }
}
