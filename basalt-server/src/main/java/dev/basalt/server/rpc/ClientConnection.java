package dev.basalt.server.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.UserInformation;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client side of one TCP connection of an {@link RpcClient}: to one server, for one service,
 * carrying the calls of every thread, matched to their answers by call id. Everything here runs on
 * the client's single event loop, so the state needs no locks.
 *
 * <pre>
 * state       what happens to a call handed to it                 next
 * NEW         queued; the connection starts connecting            CONNECTING
 * CONNECTING  queued                                              READY, or CLOSED when the
 *                                                                 connect fails
 * READY       written at once (preamble and header went first)    CLOSED when the connection
 *                                                                 breaks or the client closes
 * CLOSED      handed back to the client, which opens a new         -
 *             connection (the call was never written here)
 * </pre>
 *
 * On the wire (docs/formats/rpc.md): preamble "HBas" 0 80 (SIMPLE), the ConnectionHeader frame
 * (service name, effective user; no cell block codec, so the server never sends cell blocks), then
 * request frames; the server answers with response frames in any order. When the connection dies,
 * every call on it fails at once: calls still waiting for the connect with a {@link
 * ConnectException} (they never left this process), written calls with an {@link IOException} (they
 * may have run), and all of them with a {@link RemoteCallException} when the server refused the
 * connection itself (call id -1, e.g. FatalConnectionException for an unknown service).
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);

  /**
   * Largest response frame accepted: the server's default request limit
   * (RpcSettings.MAX_REQUEST_SIZE, hbase.ipc.max.request.size) applied to answers. Control answers
   * are small; a longer length prefix means a broken stream, which fails the connection.
   */
  static final int MAX_RESPONSE_FRAME = 256 * 1024 * 1024;

  private enum State {
    NEW,
    CONNECTING,
    READY,
    CLOSED
  }

  private final RpcClient client;
  private final RpcClient.Key key;
  private final String server;
  private final EventLoop loop;
  private final int connectTimeoutMillis;
  private final String user;
  private final CellBlockCodec cellBlocks;

  private State state = State.NEW;
  private Channel channel;
  private final ArrayDeque<ClientCall> waiting = new ArrayDeque<>();
  private final Map<Integer, ClientCall> inFlight = new HashMap<>();
  private int nextCallId;

  ClientConnection(
      RpcClient client,
      RpcClient.Key key,
      EventLoop loop,
      int connectTimeoutMillis,
      String user,
      CellBlockCodec cellBlocks) {
    this.cellBlocks = cellBlocks;
    this.client = client;
    this.key = key;
    this.server = RpcClient.hostPort(key.address());
    this.loop = loop;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.user = user;
  }

  /** Takes a call; see the class comment for what happens in each state. */
  void accept(ClientCall call) {
    if (call.isDone()) {
      return; // timed out or cancelled before it got here
    }
    switch (state) {
      case NEW -> {
        queue(call);
        connect();
      }
      case CONNECTING -> queue(call);
      case READY -> {
        call.owner = this;
        send(call);
      }
      case CLOSED -> client.dispatch(call);
      default -> throw new AssertionError(state);
    }
  }

  private void queue(ClientCall call) {
    call.owner = this;
    waiting.add(call);
  }

  /** Drops a call that timed out or was cancelled, so that a late answer finds nothing. */
  void forget(ClientCall call) {
    if (call.callId >= 0) {
      inFlight.remove(call.callId, call);
    } else {
      waiting.remove(call);
    }
  }

  private void connect() {
    state = State.CONNECTING;
    ChannelFuture connecting =
        new Bootstrap()
            .group(loop)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            "rpc-frames",
                            new LengthFieldBasedFrameDecoder(MAX_RESPONSE_FRAME, 0, 4, 0, 4))
                        .addLast("rpc-client", ClientConnection.this);
                  }
                })
            .connect(key.address());
    channel = connecting.channel();
    connecting.addListener((ChannelFutureListener) this::connected);
  }

  private void connected(ChannelFuture f) {
    if (state == State.CLOSED) {
      f.channel().close(); // the client was closed while this connected
      return;
    }
    if (!f.isSuccess()) {
      Throwable cause = f.cause();
      LOG.debug("Cannot connect to {} for {}: {}", server, key.service(), cause.toString());
      die(
          call ->
              (ConnectException)
                  new ConnectException(
                          call.describe()
                              + " failed: cannot connect to "
                              + server
                              + ": "
                              + reason(cause))
                      .initCause(cause));
      return;
    }
    state = State.READY;
    channel.writeAndFlush(Unpooled.wrappedBuffer(opening())).addListener(this::written);
    while (!waiting.isEmpty()) {
      send(waiting.poll());
    }
  }

  private static String reason(Throwable t) {
    return t.getMessage() != null ? t.getMessage() : t.toString();
  }

  /** Preamble and connection header, written once before the first request. */
  private byte[] opening() {
    ConnectionHeader.Builder h =
        ConnectionHeader.newBuilder()
            .setServiceName(key.service())
            .setUserInfo(UserInformation.newBuilder().setEffectiveUser(user));
    if (cellBlocks != null) {
      h.setCellBlockCodecClass(cellBlocks.className());
    }
    byte[] header = h.build().toByteArray();
    byte[] out = new byte[Preamble.LENGTH + 4 + header.length];
    out[0] = 'H';
    out[1] = 'B';
    out[2] = 'a';
    out[3] = 's';
    out[4] = (byte) Preamble.CURRENT_VERSION;
    out[5] = (byte) Preamble.AUTH_SIMPLE;
    ByteBuffer.wrap(out, Preamble.LENGTH, 4).putInt(header.length);
    System.arraycopy(header, 0, out, Preamble.LENGTH + 4, header.length);
    return out;
  }

  private void send(ClientCall call) {
    if (call.isDone()) {
      return;
    }
    int id = nextCallId();
    ByteBuf frame;
    try {
      frame = call.encode(id);
    } catch (RuntimeException e) {
      call.fail(new IOException(call.describe() + " failed: cannot encode its request: " + e, e));
      return;
    }
    call.callId = id;
    inFlight.put(id, call);
    channel.writeAndFlush(frame).addListener(this::written);
  }

  /** Non-negative ids (-1 is the server's "no call"), skipping any still in use after a wrap. */
  private int nextCallId() {
    int id;
    do {
      id = nextCallId;
      nextCallId = (nextCallId + 1) & Integer.MAX_VALUE;
    } while (inFlight.containsKey(id));
    return id;
  }

  private void written(io.netty.util.concurrent.Future<? super Void> f) {
    if (!f.isSuccess()) {
      Throwable cause = f.cause();
      die(
          call ->
              new IOException(call.describe() + " failed: cannot write to it: " + cause, cause));
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    try {
      read(ByteBufUtil.getBytes(frame));
    } finally {
      frame.release();
    }
  }

  /** One response frame without its length: ResponseHeader, then the message (no cell block). */
  private void read(byte[] frame) {
    CodedInputStream in = CodedInputStream.newInstance(frame);
    ResponseHeader header;
    try {
      int length = in.readRawVarint32();
      int limit = in.pushLimit(length);
      header = ResponseHeader.parseFrom(in);
      in.popLimit(limit);
    } catch (IOException e) {
      // Nothing says which call this was: the stream cannot be trusted any more.
      protocolError("a " + frame.length + "-byte response frame has no readable header: " + e);
      return;
    }
    if (!header.hasCallId() || header.getCallId() == ResponseFrames.NO_CALL) {
      if (header.hasException()) {
        // The server refused the connection (it closes it next): every call on it fails with that.
        LOG.debug(
            "{} refused the {} connection: {}",
            server,
            key.service(),
            header.getException().getStackTrace());
        die(call -> RemoteCallException.of(header.getException(), server, call.name()));
      } else {
        protocolError("a response names no call");
      }
      return;
    }
    ClientCall call = inFlight.remove(header.getCallId());
    if (call == null) {
      LOG.debug(
          "Dropping the answer to call id {} from {} ({}): the call timed out or was cancelled",
          header.getCallId(),
          server,
          key.service());
      return;
    }
    if (header.hasException()) {
      call.fail(RemoteCallException.of(header.getException(), server, call.name()));
      return;
    }
    try {
      call.succeed(message(in, header, call));
    } catch (IOException e) {
      // The frame was whole (its length said where it ends): only this call is lost.
      call.fail(
          new IOException(
              call.describe()
                  + " failed: its answer is not a valid "
                  + call.responsePrototype.getDescriptorForType().getFullName()
                  + ": "
                  + e.getMessage(),
              e));
    }
  }

  private static Message message(CodedInputStream in, ResponseHeader header, ClientCall call)
      throws IOException {
    int length = in.readRawVarint32();
    int limit = in.pushLimit(length);
    Message m = call.responsePrototype.getParserForType().parseFrom(in);
    in.popLimit(limit);
    if (header.hasCellBlockMeta()) {
      throw new IOException("it carries a cell block, but this client named no cell block codec");
    }
    if (!in.isAtEnd()) {
      throw new IOException("bytes follow the message");
    }
    return m;
  }

  private void protocolError(String problem) {
    LOG.warn("Closing the {} connection to {}: {}", key.service(), server, problem);
    die(
        call ->
            new IOException(
                call.describe() + " failed: the connection broke: protocol error: " + problem));
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    die(
        call ->
            new IOException(
                call.describe()
                    + " failed: the connection to "
                    + server
                    + " was closed before the call was answered"));
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("The {} connection to {} failed: {}", key.service(), server, cause.toString());
    die(
        call ->
            new IOException(call.describe() + " failed: the connection broke: " + cause, cause));
  }

  /** Closes the connection on behalf of the client: its calls fail with {@code why}. */
  void close(Function<ClientCall, IOException> why) {
    die(why);
  }

  /**
   * Ends the connection once: the client forgets it (the next call opens a new one), the socket is
   * closed, and every call waiting on it fails with its own exception from {@code why}.
   */
  private void die(Function<ClientCall, IOException> why) {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    client.connectionClosed(this, key);
    if (channel != null) {
      channel.close();
    }
    List<ClientCall> calls = new ArrayList<>(waiting);
    calls.addAll(inFlight.values());
    waiting.clear();
    inFlight.clear();
    for (ClientCall call : calls) {
      call.fail(why.apply(call));
    }
  }
}
