package dev.basalt.server.rpc;

import dev.basalt.cell.Cell;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
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
  /**
   * Takes the cell list over without copying it (a scan's runs to thousands of cells): the handler
   * must not change it afterwards. The record hands out a read-only view.
   */
  public RpcReply {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(cells, "cells");
    // The codec walks the cells by index.
    cells =
        cells instanceof RandomAccess ? Collections.unmodifiableList(cells) : List.copyOf(cells);
  }

  public static RpcReply of(Message message) {
    return new RpcReply(message, List.of());
  }

  public static RpcReply of(Message message, List<? extends Cell> cells) {
    return new RpcReply(message, cells);
  }
}
