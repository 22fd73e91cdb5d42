package dev.basalt.server.rpc;

import dev.basalt.util.config.Config;

/**
 * How an {@link RpcServer} listens and how much it takes on. Where the server listens is its
 * owner's choice (master and region server have their own ports); the rest comes from {@link
 * RpcSettings}.
 *
 * @param host the address to bind, e.g. "0.0.0.0" or "127.0.0.1"
 * @param port the port to bind; 0 picks a free one ({@link RpcServer#port()} tells which)
 * @param maxFrameSize largest request frame, in bytes
 * @param handlerThreads threads running calls
 * @param callQueueLength calls that may wait for a handler thread
 * @param eventLoopThreads network threads; 0 for Netty's default
 * @param inlineCalls whether network threads run the calls an {@link InlineRule} accepts
 */
public record RpcServerConfig(
    String host,
    int port,
    int maxFrameSize,
    int handlerThreads,
    int callQueueLength,
    int eventLoopThreads,
    boolean inlineCalls) {

  public RpcServerConfig {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is outside 0..65535");
    }
    if (maxFrameSize < 64) {
      throw new IllegalArgumentException("maximum frame size " + maxFrameSize + " < 64 bytes");
    }
    if (handlerThreads < 1) {
      throw new IllegalArgumentException("handler threads " + handlerThreads + " < 1");
    }
    if (callQueueLength < 1) {
      throw new IllegalArgumentException("call queue length " + callQueueLength + " < 1");
    }
    if (eventLoopThreads < 0) {
      throw new IllegalArgumentException("event loop threads " + eventLoopThreads + " < 0");
    }
  }

  /** Settings from {@code config} (defaults for what it does not set), listening on host:port. */
  public static RpcServerConfig from(Config config, String host, int port) {
    // The settings' ranges (RpcSettings) were checked when the configuration was read.
    long max = config.get(RpcSettings.MAX_REQUEST_SIZE);
    int handlers = config.get(RpcSettings.HANDLER_COUNT);
    if (handlers == 0) {
      handlers = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
    }
    int queue = config.get(RpcSettings.CALL_QUEUE_LENGTH);
    if (queue == 0) {
      queue = 10 * handlers;
    }
    return new RpcServerConfig(
        host,
        port,
        (int) max,
        handlers,
        queue,
        config.get(RpcSettings.EVENT_LOOP_THREADS),
        config.get(RpcSettings.INLINE_CALLS));
  }

  /** All defaults, listening on host:port. */
  public static RpcServerConfig defaults(String host, int port) {
    return from(Config.defaults(), host, port);
  }

  public RpcServerConfig withMaxFrameSize(int bytes) {
    return new RpcServerConfig(
        host, port, bytes, handlerThreads, callQueueLength, eventLoopThreads, inlineCalls);
  }

  public RpcServerConfig withHandlers(int threads, int queueLength) {
    return new RpcServerConfig(
        host, port, maxFrameSize, threads, queueLength, eventLoopThreads, inlineCalls);
  }

  public RpcServerConfig withInlineCalls(boolean inline) {
    return new RpcServerConfig(
        host, port, maxFrameSize, handlerThreads, callQueueLength, eventLoopThreads, inline);
  }
}
