package dev.basalt.server.rpc;

import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.MethodDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.ServiceDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * A client of HBase's RPC protocol (docs/formats/rpc.md) for Basalt's own server-to-server calls:
 * region servers calling the master's RegionServerStatusService, the master calling region servers'
 * AdminService. The stock hbase-shaded-client cannot live in basalt-server (it bundles the same
 * generated classes at other versions), so this speaks the protocol itself, exactly as {@link
 * RpcServer} expects it: preamble "HBas" 0 80 (SIMPLE), a ConnectionHeader naming the service and
 * the effective user and no cell block codec (these calls carry everything in their messages), then
 * length-prefixed requests (RequestHeader with call_id, method_name, request_param, timeout; the
 * delimited parameter), answered by ResponseHeader plus the delimited response.
 *
 * <p>Connections: one TCP connection per (server address, service), opened by the first call and
 * shared by every thread; calls are multiplexed on it by call id and answered in any order. A
 * connection that fails is dropped at once with every call pending on it, and the next call opens a
 * new one. No idle timeout: master and region servers talk every second.
 *
 * <p>Errors:
 *
 * <pre>
 * what happened                                      the call fails with
 * the server answered with an ExceptionResponse      {@link RemoteCallException} (class, text,
 *   (or refused the connection: call id -1)            doNotRetry)
 * the connection could not be opened                 {@link ConnectException} (never sent)
 * the connection broke, or the client was closed     {@link IOException} (it may have run)
 * no answer within the call's timeout                {@link SocketTimeoutException}; the call is
 *                                                      forgotten and a late answer is dropped
 * an unknown method, or a message of the wrong type  IllegalArgumentException, before sending
 * </pre>
 *
 * Every message names the call ("Service.Method"), the server and what happened.
 *
 * <p>Why Netty rather than blocking sockets: Netty is already how the server does its I/O, and one
 * event loop thread then serves every connection of every client in the process (a master talks to
 * all region servers; blocking sockets would need a reader thread per connection), with connect
 * timeouts and call deadlines scheduled on that same thread. All of a connection's state lives on
 * that thread, so it needs no locks; callers only hand calls over and wait on futures. The thread
 * is a daemon, shared by all clients and never stopped (nothing to leak when a client is not
 * closed). Control traffic is a few calls a second, so requests are built in plain arrays and
 * answers copied out of Netty's buffers before parsing.
 *
 * <p>The futures of {@link #callAsync} are completed on that network thread: dependent stages
 * attached without an executor run there and must not block; {@link #call} on it is refused.
 *
 * <p>Thread-safe.
 */
public final class RpcClient implements AutoCloseable {
  /** A connection's identity: where, and which service its header names. */
  record Key(InetSocketAddress address, String service) {}

  /**
   * Extra wait of a blocking call past its timeout before it stops waiting on its own: the network
   * thread fails every call at its deadline, so this only matters when that thread is held up (a
   * callback that blocks).
   */
  private static final long BACKSTOP_MILLIS = 5_000;

  /** The one network thread of every client in the process, created on first use. */
  private static final class SharedLoop {
    static final EventLoop LOOP =
        new NioEventLoopGroup(1, new DefaultThreadFactory("basalt-rpc-client", true)).next();
  }

  private final String userName;
  private final int connectTimeoutMillis;

  /** The codec of request cell blocks, named in every connection header; null: none are sent. */
  private final CellBlockCodec cellBlocks;

  private final EventLoop loop = SharedLoop.LOOP;

  /** Live connections; never one that has died (it removes itself). Event loop only. */
  private final Map<Key, ClientConnection> connections = new HashMap<>();

  private volatile boolean closed;

  /**
   * @param userName the effective user every connection header names (SIMPLE auth: the server takes
   *     it as claimed), e.g. the process's user
   * @param connectTimeout how long opening a connection may take
   */
  public RpcClient(String userName, Duration connectTimeout) {
    this(userName, connectTimeout, null);
  }

  /**
   * A client that can send cells in a request's cell block ({@link #callWithCells}), encoded with
   * {@code cellBlocks}, which every connection header names (the server then may answer with cell
   * blocks too, which this client refuses: use it only for methods whose answers carry none, such
   * as {@code AdminService.ReplicateWALEntry}).
   */
  public RpcClient(String userName, Duration connectTimeout, CellBlockCodec cellBlocks) {
    this.userName = Objects.requireNonNull(userName, "userName");
    this.connectTimeoutMillis = positiveMillis(connectTimeout, "connect timeout");
    this.cellBlocks = cellBlocks;
  }

  /**
   * Calls a method and waits for its answer.
   *
   * @param server the server's RPC address
   * @param service the service, e.g. {@code AdminService.getDescriptor()}; the connection header
   *     names it by its simple name
   * @param method the method's exact .proto name, e.g. "OpenRegion"
   * @param request the parameter, of the method's input type, with every required field set
   * @param responsePrototype the default instance of the method's output type
   * @param timeout how long to wait for the answer, connecting included
   * @return the parsed answer
   * @throws RemoteCallException the server answered with an exception
   * @throws ConnectException the server could not be reached (the call was not sent)
   * @throws SocketTimeoutException no answer came in time
   * @throws InterruptedIOException the thread was interrupted while waiting (the call is abandoned;
   *     it may still run on the server)
   * @throws IOException the connection broke, or the client is closed
   * @throws IllegalArgumentException the service has no such method, a message is not of the
   *     method's type, the request lacks a required field, or the timeout is not positive
   * @throws IllegalStateException when called on the client's network thread (it would wait for
   *     itself): callbacks of {@link #callAsync} must use {@link #callAsync}
   */
  public <M extends Message> M call(
      InetSocketAddress server,
      ServiceDescriptor service,
      String method,
      Message request,
      M responsePrototype,
      Duration timeout)
      throws IOException {
    if (loop.inEventLoop()) {
      throw new IllegalStateException(
          "a blocking call on the RPC client's network thread would wait for itself; callbacks"
              + " must use callAsync");
    }
    CompletableFuture<M> answer =
        callAsync(server, service, method, request, responsePrototype, timeout);
    long wait = positiveMillis(timeout, "timeout") + BACKSTOP_MILLIS;
    String what = "call " + service.getName() + "." + method + " to " + hostPort(server);
    try {
      return answer.get(wait, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      answer.cancel(false);
      Thread.currentThread().interrupt();
      throw (InterruptedIOException)
          new InterruptedIOException("interrupted while waiting for the " + what).initCause(e);
    } catch (TimeoutException e) {
      answer.cancel(false);
      throw new SocketTimeoutException(
          what
              + " timed out after "
              + wait
              + " ms, and the client's network thread did not report it: is a callback of"
              + " callAsync blocking it?");
    } catch (ExecutionException e) {
      throw rethrown(e.getCause());
    }
  }

  /**
   * Calls a method without waiting. The future fails with the exceptions {@link #call} throws
   * (IllegalArgumentException is still thrown at once).
   */
  public <M extends Message> CompletableFuture<M> callAsync(
      InetSocketAddress server,
      ServiceDescriptor service,
      String method,
      Message request,
      M responsePrototype,
      Duration timeout) {
    return callWithCells(server, service, method, request, null, responsePrototype, timeout);
  }

  /**
   * {@link #callAsync} with {@code cells} (already encoded with this client's codec, see {@link
   * #RpcClient(String, Duration, CellBlockCodec)}) as the request's cell block; null for none.
   *
   * @throws IllegalStateException when this client has no cell block codec
   */
  public <M extends Message> CompletableFuture<M> callWithCells(
      InetSocketAddress server,
      ServiceDescriptor service,
      String method,
      Message request,
      byte[] cells,
      M responsePrototype,
      Duration timeout) {
    if (cells != null && cellBlocks == null) {
      throw new IllegalStateException("this RPC client was made without a cell block codec");
    }
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(responsePrototype, "responsePrototype");
    int timeoutMillis = positiveMillis(timeout, "timeout");
    check(service, method, request, responsePrototype);
    InetSocketAddress address = server;
    if (address.isUnresolved()) {
      // Resolved here, on the caller's thread: a name lookup must not hold up the network thread.
      address = new InetSocketAddress(server.getHostString(), server.getPort());
    }
    ClientCall call =
        new ClientCall(
            new Key(address, service.getName()),
            method,
            request,
            cells,
            responsePrototype,
            timeoutMillis);
    // Safe: the answer is parsed with the prototype's parser, which was checked to be the
    // method's output type.
    @SuppressWarnings("unchecked")
    CompletableFuture<M> answer = (CompletableFuture<M>) (CompletableFuture<?>) call.future;
    if (address.isUnresolved()) {
      call.future.completeExceptionally(
          new UnknownHostException(
              call.describe() + " failed: cannot resolve " + server.getHostString()));
    } else if (closed) {
      call.future.completeExceptionally(closedError(call));
    } else {
      loop.execute(
          () -> {
            call.startTimer(loop);
            dispatch(call);
          });
    }
    return answer;
  }

  /**
   * Closes every connection; calls still pending fail with an IOException, and so does every call
   * made afterwards. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (loop.inEventLoop()) {
      closeConnections();
    } else {
      loop.submit(this::closeConnections).awaitUninterruptibly();
    }
  }

  /** Hands a call to its connection, opening one when there is none. Event loop only. */
  void dispatch(ClientCall call) {
    if (closed) {
      call.fail(closedError(call));
      return;
    }
    connections
        .computeIfAbsent(
            call.key,
            k -> new ClientConnection(this, k, loop, connectTimeoutMillis, userName, cellBlocks))
        .accept(call);
  }

  /** A connection died: the next call to its server and service opens a new one. Event loop. */
  void connectionClosed(ClientConnection connection, Key key) {
    connections.remove(key, connection);
  }

  private void closeConnections() {
    List<ClientConnection> all = new ArrayList<>(connections.values());
    for (ClientConnection c : all) {
      c.close(RpcClient::closedError);
    }
    connections.clear();
  }

  private static IOException closedError(ClientCall call) {
    return new IOException(call.describe() + " failed: the RpcClient was closed");
  }

  /** "host:port" with the host as the caller wrote it (no reverse lookup). */
  static String hostPort(InetSocketAddress a) {
    return a.getHostString() + ":" + a.getPort();
  }

  private static void check(
      ServiceDescriptor service, String method, Message request, Message responsePrototype) {
    MethodDescriptor md = service.findMethodByName(method);
    if (md == null) {
      throw new IllegalArgumentException(
          "service " + service.getName() + " declares no method " + method);
    }
    String where = service.getName() + "." + method;
    if (request.getDescriptorForType() != md.getInputType()) {
      throw new IllegalArgumentException(
          where
              + " takes "
              + md.getInputType().getFullName()
              + ", not "
              + request.getDescriptorForType().getFullName());
    }
    if (responsePrototype.getDescriptorForType() != md.getOutputType()) {
      throw new IllegalArgumentException(
          where
              + " answers "
              + md.getOutputType().getFullName()
              + ", not "
              + responsePrototype.getDescriptorForType().getFullName());
    }
    if (!request.isInitialized()) {
      throw new IllegalArgumentException(
          "the request to "
              + where
              + " lacks required fields "
              + request.findInitializationErrors()
              + " (the server would refuse it)");
    }
  }

  private static int positiveMillis(Duration d, String what) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, not " + d);
    }
    long ms = Math.max(1, d.toMillis());
    return (int) Math.min(ms, Integer.MAX_VALUE - BACKSTOP_MILLIS);
  }

  /**
   * The failure of a blocking call, thrown again from the caller's thread (the original was built
   * on the network thread, whose stack says nothing about the caller), as HBase's
   * IPCUtil.wrapException does: same type and message, the original as cause.
   */
  private static IOException rethrown(Throwable t) {
    if (t instanceof RemoteCallException r) {
      return r.rethrown();
    }
    if (t instanceof SocketTimeoutException) {
      return (IOException) new SocketTimeoutException(t.getMessage()).initCause(t);
    }
    if (t instanceof ConnectException) {
      return (IOException) new ConnectException(t.getMessage()).initCause(t);
    }
    if (t instanceof UnknownHostException) {
      return (IOException) new UnknownHostException(t.getMessage()).initCause(t);
    }
    if (t instanceof IOException) {
      return new IOException(t.getMessage(), t);
    }
    if (t instanceof RuntimeException e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IOException(t);
  }
}
