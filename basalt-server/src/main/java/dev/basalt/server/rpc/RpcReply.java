package dev.basalt.server.rpc;

import dev.basalt.cell.Cell;
import java.util.List;
import java.util.Objects;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * What a {@link MethodHandler} answers: the response message (of the method's output type, with
 * every proto2 required field set) and the cells to send in the response cell block, in the order
 * the response message refers to them. Cells are only allowed when {@link
 * RpcCall#cellBlocksSupported()}; otherwise they must travel inside the message.
 *
 * @param message the response message
 * @param cells cells for the cell block; empty for none
 */
public record RpcReply(Message message, List<? extends Cell> cells) {
  public RpcReply {
    Objects.requireNonNull(message, "message");
    cells = List.copyOf(cells);
  }

  public static RpcReply of(Message message) {
    return new RpcReply(message, List.of());
  }

  public static RpcReply of(Message message, List<? extends Cell> cells) {
    return new RpcReply(message, cells);
  }
}
