package dev.basalt.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One server connection (frame decoder + connection handler) on an embedded channel, with calls run
 * on the test thread: either at once, or held back until {@link #runHeldCalls} so that tests choose
 * the order in which calls finish.
 */
final class Harness {
  final EmbeddedChannel channel;
  private final Deque<Runnable> held = new ArrayDeque<>();
  private boolean hold;
  private boolean full;

  Harness(List<RpcService> services, Supplier<String> clusterId, int maxFrameSize) {
    this(services, clusterId, maxFrameSize, true);
  }

  /** With {@code inline} false, no call runs on the event loop, whatever its method's rule. */
  Harness(List<RpcService> services, Supplier<String> clusterId, int maxFrameSize, boolean inline) {
    CallQueue queue =
        new CallQueue() {
          @Override
          public Admission submit(Runnable call) {
            if (full) {
              return Admission.QUEUE_FULL;
            }
            if (hold) {
              held.add(call);
            } else {
              call.run();
            }
            return Admission.QUEUED;
          }

          @Override
          public int capacity() {
            return 1;
          }
        };
    Map<String, RpcService> byName = new java.util.LinkedHashMap<>();
    services.forEach(s -> byName.put(s.name(), s));
    RpcConnection.Shared shared =
        new RpcConnection.Shared(Map.copyOf(byName), clusterId, maxFrameSize, queue, inline);
    RpcFrameDecoder decoder = new RpcFrameDecoder(maxFrameSize);
    channel = new EmbeddedChannel(decoder, new RpcConnection(shared, decoder));
  }

  Harness(List<RpcService> services) {
    this(services, () -> "test-cluster", 1 << 20);
  }

  /** Calls wait until {@link #runHeldCalls}. */
  Harness holdCalls() {
    hold = true;
    return this;
  }

  /** Every call is refused as if the queue were full. */
  Harness queueFull() {
    full = true;
    return this;
  }

  /** Runs the held calls, last received first. */
  void runHeldCallsNewestFirst() {
    while (!held.isEmpty()) {
      held.removeLast().run();
    }
  }

  /** Delivers bytes as one read. */
  Harness send(byte[] bytes) {
    channel.writeInbound(Unpooled.wrappedBuffer(bytes));
    channel.runPendingTasks();
    return this;
  }

  /** Delivers bytes one read per byte. */
  Harness sendBytewise(byte[] bytes) {
    for (byte b : bytes) {
      send(new byte[] {b});
    }
    return this;
  }

  /** Everything the server wrote since the last call. */
  byte[] written() {
    channel.runPendingTasks();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuf b;
    while ((b = channel.readOutbound()) != null) {
      out.writeBytes(ByteBufUtil.getBytes(b));
      b.release();
    }
    return out.toByteArray();
  }

  List<ClientFrames.Response> responses() throws IOException {
    return ClientFrames.parseAll(written());
  }

  boolean isOpen() {
    channel.runPendingTasks();
    return channel.isOpen();
  }
}
