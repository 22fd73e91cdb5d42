package dev.basalt.server.rpc;

import static dev.basalt.server.rpc.ClientFrames.ascii;
import static dev.basalt.server.rpc.ClientFrames.open;
import static dev.basalt.server.rpc.ClientFrames.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.ClientMetaService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetActiveMasterRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetActiveMasterResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetConnectionRegistryResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server over real loopback sockets, with its handler threads. */
class RpcServerTest {
  private static final GetClusterIdRequest ID = GetClusterIdRequest.getDefaultInstance();
  private static final GetActiveMasterRequest MASTER = GetActiveMasterRequest.getDefaultInstance();

  private final CountDownLatch release = new CountDownLatch(1);
  private final Queue<String> handlerThreads = new ConcurrentLinkedQueue<>();
  private RpcServer server;

  /**
   * GetClusterId answers at once; GetActiveMaster waits until the test releases it (its response
   * carries no server name: it only has to be late).
   */
  private RpcService service() {
    return RpcService.builder(ClientMetaService.getDescriptor())
        .method(
            "GetClusterId",
            ID,
            (req, call) -> {
              handlerThreads.add(Thread.currentThread().getName());
              return RpcReply.of(GetClusterIdResponse.newBuilder().setClusterId("c-1").build());
            })
        .method(
            "GetActiveMaster",
            MASTER,
            (req, call) -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException("interrupted");
              }
              return RpcReply.of(GetActiveMasterResponse.getDefaultInstance());
            })
        .build();
  }

  private InetSocketAddress start(RpcServerConfig config) throws IOException {
    server = new RpcServer(config, List.of(service()), () -> "c-1");
    return server.start();
  }

  private InetSocketAddress start() throws IOException {
    return start(RpcServerConfig.defaults("127.0.0.1", 0).withHandlers(4, 8));
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (server != null) {
      server.close();
    }
  }

  @Test
  void bindsAFreePortAndReportsIt() throws Exception {
    InetSocketAddress a = start();
    assertThat(a.getPort()).isPositive();
    assertThat(server.port()).isEqualTo(a.getPort());
  }

  @Test
  void busyPortIsNamedInTheError() throws Exception {
    InetSocketAddress a = start();
    RpcServer second =
        new RpcServer(
            RpcServerConfig.defaults("127.0.0.1", a.getPort()), List.of(service()), () -> "x");
    assertThatThrownBy(second::start)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot listen on 127.0.0.1:" + a.getPort());
    second.close();
  }

  @Test
  void callsRunOnHandlerThreads() throws Exception {
    try (SocketClient c = new SocketClient(start())) {
      c.send(open("ClientMetaService")).send(request(1, "GetClusterId", ID));
      assertThat(c.read().message(GetClusterIdResponse.getDefaultInstance()).getClusterId())
          .isEqualTo("c-1");
    }
    assertThat(handlerThreads).singleElement().asString().startsWith("basalt-rpc-handler-");
  }

  @Test
  void aSlowCallDoesNotHoldBackTheOthers() throws Exception {
    try (SocketClient c = new SocketClient(start())) {
      c.send(open("ClientMetaService"))
          .send(request(1, "GetActiveMaster", MASTER))
          .send(request(2, "GetClusterId", ID));
      assertThat(c.read().callId()).isEqualTo(2);
      release.countDown();
      assertThat(c.read().callId()).isEqualTo(1);
    }
  }

  @Test
  void garbageGetsAnErrorAndTheServerKeepsServingOthers() throws Exception {
    InetSocketAddress a = start();
    try (SocketClient bad = new SocketClient(a)) {
      bad.send(ascii("\u0000\u0001garbage garbage garbage"));
      ClientFrames.Response r = bad.read();
      assertThat(r.callId()).isEqualTo(-1);
      assertThat(r.exceptionClass()).isEqualTo(RpcErrors.FATAL_CONNECTION);
      assertThat(r.exceptionText()).contains("Expected HEADER=HBas");
      assertThat(bad.closedByServer()).isTrue();
    }
    try (SocketClient good = new SocketClient(a)) {
      good.send(open("ClientMetaService")).send(request(5, "GetClusterId", ID));
      assertThat(good.read().failed()).isFalse();
    }
  }

  @Test
  void registryPreambleOverTcp() throws Exception {
    try (SocketClient c = new SocketClient(start())) {
      c.send(ascii("Regist"));
      ClientFrames.Response r = c.read();
      assertThat(r.message(GetConnectionRegistryResponse.getDefaultInstance()).getClusterId())
          .isEqualTo("c-1");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void fullCallQueueIsAnsweredNotBlocked() throws Exception {
    InetSocketAddress a = start(RpcServerConfig.defaults("127.0.0.1", 0).withHandlers(1, 1));
    try (SocketClient c = new SocketClient(a)) {
      c.send(open("ClientMetaService"))
          .send(request(1, "GetActiveMaster", MASTER)) // occupies the only handler
          .send(request(2, "GetActiveMaster", MASTER)); // waits in the queue
      // One call runs and one waits; of the calls 2, 3 and 4 at least one finds no room, and
      // its answer is the only one that can arrive while call 1 is held.
      c.send(request(3, "GetActiveMaster", MASTER)).send(request(4, "GetActiveMaster", MASTER));
      ClientFrames.Response refused = c.read();
      assertThat(refused.exceptionClass()).isEqualTo(RpcErrors.CALL_QUEUE_TOO_BIG);
      assertThat(refused.exceptionText()).contains("call queue is full");
    }
  }

  @Test
  void oversizedRequestOverTcp() throws Exception {
    InetSocketAddress a = start(RpcServerConfig.defaults("127.0.0.1", 0).withMaxFrameSize(1024));
    try (SocketClient c = new SocketClient(a)) {
      c.send(open("ClientMetaService")).send(request(9, "GetClusterId", ID, new byte[4096]));
      ClientFrames.Response r = c.read();
      assertThat(r.callId()).isEqualTo(9);
      assertThat(r.exceptionClass()).isEqualTo(RpcErrors.REQUEST_TOO_BIG);
      assertThat(r.exceptionText()).contains("maximum of 1024 bytes");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void closeEndsOpenConnections() throws Exception {
    try (SocketClient c = new SocketClient(start())) {
      c.send(open("ClientMetaService")).send(request(1, "GetClusterId", ID));
      c.read();
      server.close();
      assertThat(c.closedByServer()).isTrue();
    }
  }
}
