package dev.basalt.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server speaking HBase's RPC protocol (docs/formats/rpc.md) on one TCP port, offering a fixed
 * set of {@link RpcService}s. Netty event loops read and write connections; calls run on a bounded
 * pool of handler threads. The owner (master, region server, a test) decides where it listens,
 * which services it offers and which cluster id it gives to the registry preamble.
 *
 * <p>Lifecycle: construct, {@link #start}, {@link #close}. Thread-safe.
 */
public final class RpcServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);

  private final RpcServerConfig config;
  private final Map<String, RpcService> services;
  private final Supplier<String> clusterId;

  private EventLoopGroup acceptor;
  private EventLoopGroup io;
  private CallExecutor executor;
  private ChannelGroup channels;
  private Channel listener;
  private InetSocketAddress address;
  private boolean closed;

  /**
   * @param services the services clients may name in their connection header
   * @param clusterId gives the cluster id for the "Regist" preamble; may return null while the id
   *     is unknown (the client then goes on without one)
   * @throws IllegalArgumentException when two services have the same name
   */
  public RpcServer(
      RpcServerConfig config, Collection<RpcService> services, Supplier<String> clusterId) {
    this.config = config;
    Map<String, RpcService> byName = new LinkedHashMap<>();
    for (RpcService s : services) {
      if (byName.putIfAbsent(s.name(), s) != null) {
        throw new IllegalArgumentException("service " + s.name() + " is offered twice");
      }
    }
    this.services = new java.util.concurrent.ConcurrentHashMap<>(byName);
    this.clusterId = Objects.requireNonNull(clusterId, "clusterId supplier");
  }

  /**
   * Offers one more service from now on (a standby master that becomes active offers its master
   * services); connections opened before name only the services offered then.
   *
   * @throws IllegalArgumentException when a service of that name is offered already
   */
  public void addService(RpcService service) {
    if (services.putIfAbsent(service.name(), service) != null) {
      throw new IllegalArgumentException("service " + service.name() + " is offered twice");
    }
    LOG.info("RPC server on {} now offers {}", address, service.name());
  }

  /**
   * Binds the port and starts accepting connections.
   *
   * @return the address actually bound (with the chosen port when the config asked for 0)
   * @throws IOException naming the address when it cannot be bound
   */
  public synchronized InetSocketAddress start() throws IOException {
    if (closed || listener != null) {
      throw new IllegalStateException(closed ? "server is closed" : "server already started");
    }
    acceptor = new NioEventLoopGroup(1, new DefaultThreadFactory("basalt-rpc-accept", true));
    io =
        new NioEventLoopGroup(
            config.eventLoopThreads(), new DefaultThreadFactory("basalt-rpc-io", true));
    executor = new CallExecutor("basalt-rpc", config.handlerThreads(), config.callQueueLength());
    channels = new DefaultChannelGroup("basalt-rpc-connections", GlobalEventExecutor.INSTANCE);
    RpcConnection.Shared shared =
        new RpcConnection.Shared(
            services, clusterId, config.maxFrameSize(), executor, config.inlineCalls());
    ServerBootstrap b =
        new ServerBootstrap()
            .group(acceptor, io)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    channels.add(ch);
                    RpcFrameDecoder decoder = new RpcFrameDecoder(config.maxFrameSize());
                    ch.pipeline().addLast("rpc-frames", decoder);
                    ch.pipeline().addLast("rpc-connection", new RpcConnection(shared, decoder));
                  }
                });
    ChannelFuture bound = b.bind(config.host(), config.port()).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      shutDownThreads();
      throw new IOException(
          "cannot listen on "
              + config.host()
              + ":"
              + config.port()
              + ": "
              + bound.cause().getMessage(),
          bound.cause());
    }
    listener = bound.channel();
    address = (InetSocketAddress) listener.localAddress();
    LOG.info("RPC server listening on {} with services {}", address, services.keySet());
    return address;
  }

  /** The bound address; null before {@link #start}. */
  public synchronized InetSocketAddress address() {
    return address;
  }

  /** The bound port. */
  public synchronized int port() {
    if (address == null) {
      throw new IllegalStateException("server not started");
    }
    return address.getPort();
  }

  /** Stops listening, closes every connection and stops the threads. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (listener != null) {
      listener.close().awaitUninterruptibly();
    }
    if (channels != null) {
      channels.close().awaitUninterruptibly();
    }
    shutDownThreads();
  }

  private void shutDownThreads() {
    if (executor != null) {
      executor.close();
    }
    if (acceptor != null) {
      acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
    if (io != null) {
      io.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
  }
}
