package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableName;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStatusService;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RpcClient} against a real {@link RpcServer} on loopback. The test service is AdminService
 * with GetRegionInfo only: it echoes the region name it is asked about as the start key of the
 * answer, fails for names starting "fail" (NotServingRegionException) or "bug" (a handler bug), and
 * for "hold" waits until the test releases it. No test asserts on how long anything takes beyond
 * generous timeouts.
 */
class RpcClientTest {
  private static final Duration LONG = Duration.ofSeconds(30);
  private static final String USER = "basalt-test";
  private static final String NSRE = "org.apache.hadoop.hbase.NotServingRegionException";

  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch holding = new CountDownLatch(1);
  private final CountDownLatch heldDone = new CountDownLatch(1);
  private final Queue<RpcCall> served = new ConcurrentLinkedQueue<>();
  private final List<RpcServer> servers = new ArrayList<>();
  private RpcClient client;
  private InetSocketAddress address;

  @BeforeEach
  void start() throws IOException {
    address = startServer(0);
    client = new RpcClient(USER, Duration.ofSeconds(10));
  }

  @AfterEach
  void stop() {
    release.countDown();
    client.close();
    servers.forEach(RpcServer::close);
  }

  private InetSocketAddress startServer(int port) throws IOException {
    RpcServer s =
        new RpcServer(
            RpcServerConfig.defaults("127.0.0.1", port).withHandlers(16, 64),
            List.of(adminService()),
            () -> "test-cluster");
    servers.add(s);
    return s.start();
  }

  private RpcService adminService() {
    return RpcService.builder(AdminService.getDescriptor())
        .method(
            "GetRegionInfo",
            GetRegionInfoRequest.getDefaultInstance(),
            (req, call) -> {
              served.add(call);
              String name = req.getRegion().getValue().toStringUtf8();
              if (name.startsWith("fail")) {
                throw new BasaltIOException("region " + name + " is not online", NSRE, false);
              }
              if (name.startsWith("bug")) {
                throw new IllegalStateException("handler bug");
              }
              if (name.startsWith("hold")) {
                holding.countDown();
                try {
                  release.await();
                } catch (InterruptedException e) {
                  throw new InterruptedIOException("interrupted");
                } finally {
                  heldDone.countDown();
                }
              }
              if (name.startsWith("shuffle")) {
                // Answers leave in another order than the requests came.
                sleep(Math.floorMod(name.hashCode(), 7));
              }
              return RpcReply.of(info(name));
            })
        .build();
  }

  private static void sleep(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new InterruptedIOException("interrupted");
    }
  }

  private static GetRegionInfoResponse info(String name) {
    return GetRegionInfoResponse.newBuilder()
        .setRegionInfo(
            RegionInfo.newBuilder()
                .setRegionId(1)
                .setTableName(
                    TableName.newBuilder()
                        .setNamespace(ByteString.copyFromUtf8("default"))
                        .setQualifier(ByteString.copyFromUtf8("t")))
                .setStartKey(ByteString.copyFromUtf8(name)))
        .build();
  }

  private static GetRegionInfoRequest ask(String name) {
    return GetRegionInfoRequest.newBuilder()
        .setRegion(
            RegionSpecifier.newBuilder()
                .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFromUtf8(name)))
        .build();
  }

  private String regionInfo(InetSocketAddress server, String name, Duration timeout)
      throws IOException {
    GetRegionInfoResponse r =
        client.call(
            server,
            AdminService.getDescriptor(),
            "GetRegionInfo",
            ask(name),
            GetRegionInfoResponse.getDefaultInstance(),
            timeout);
    return r.getRegionInfo().getStartKey().toStringUtf8();
  }

  private String regionInfo(String name) throws IOException {
    return regionInfo(address, name, LONG);
  }

  private CompletableFuture<GetRegionInfoResponse> regionInfoAsync(String name) {
    return client.callAsync(
        address,
        AdminService.getDescriptor(),
        "GetRegionInfo",
        ask(name),
        GetRegionInfoResponse.getDefaultInstance(),
        LONG);
  }

  private Set<SocketAddress> clientEnds() {
    Set<SocketAddress> ends = ConcurrentHashMap.newKeySet();
    served.forEach(c -> ends.add(c.remoteAddress()));
    return ends;
  }

  /** The exception a failed future holds. */
  private static Throwable failureOf(CompletableFuture<?> f) throws InterruptedException {
    try {
      f.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the call neither failed nor succeeded within 60 s");
    }
    throw new AssertionError("the call succeeded");
  }

  @Test
  void callIsAnsweredAndTheServerSeesTheConnectionAsSpecified() throws IOException {
    assertThat(regionInfo("t,,1.abc.")).isEqualTo("t,,1.abc.");

    RpcCall seen = served.peek();
    assertThat(seen.service()).isEqualTo("AdminService");
    assertThat(seen.method()).isEqualTo("GetRegionInfo");
    assertThat(seen.user()).isEqualTo(USER);
    assertThat(seen.timeoutMillis()).isEqualTo(30_000);
    assertThat(seen.cellBlocksSupported()).as("no cell block codec named").isFalse();
    assertThat(seen.cells()).isEmpty();
  }

  @Test
  void eightThreadsShareOneConnectionAndEachGetsItsOwnAnswer() throws Exception {
    int threads = 8;
    int callsEach = 40;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  List<String> mismatches = new ArrayList<>();
                  for (int i = 0; i < callsEach; i++) {
                    String name = "shuffle-" + thread + "-" + i;
                    String answer =
                        i % 2 == 0
                            ? regionInfo(name)
                            : regionInfoAsync(name)
                                .get(60, TimeUnit.SECONDS)
                                .getRegionInfo()
                                .getStartKey()
                                .toStringUtf8();
                    if (!answer.equals(name)) {
                      mismatches.add(name + " got " + answer);
                    }
                  }
                  return mismatches;
                }));
      }
      go.countDown();
      for (Future<List<String>> r : results) {
        assertThat(r.get(120, TimeUnit.SECONDS)).isEmpty();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(served).hasSize(threads * callsEach);
    assertThat(clientEnds()).as("client ends of the connections the server saw").hasSize(1);
  }

  @Test
  void aLaterCallIsAnsweredWhileAnEarlierOneIsStillRunning() throws Exception {
    CompletableFuture<GetRegionInfoResponse> held = regionInfoAsync("hold-1");
    assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();

    assertThat(regionInfo("second")).isEqualTo("second");
    assertThat(held).isNotDone();

    release.countDown();
    assertThat(held.get(30, TimeUnit.SECONDS).getRegionInfo().getStartKey().toStringUtf8())
        .isEqualTo("hold-1");
    assertThat(clientEnds()).hasSize(1);
  }

  @Test
  void remoteExceptionsCarryClassTextAndRetryFlag() throws IOException {
    RemoteCallException e = (RemoteCallException) catchThrowable(() -> regionInfo("fail-r1"));
    assertThat(e.exceptionClass()).isEqualTo(NSRE);
    assertThat(e.is(NSRE)).isTrue();
    assertThat(e.is(BasaltIOException.DO_NOT_RETRY)).isFalse();
    assertThat(e.getMessage()).isEqualTo(NSRE + ": region fail-r1 is not online");
    assertThat(e.doNotRetry()).isFalse();
    assertThat(e.serverOverloaded()).isFalse();
    assertThat(e.server()).isEqualTo("127.0.0.1:" + address.getPort());
    assertThat(e.call()).isEqualTo("AdminService.GetRegionInfo");
    assertThat(e.getCause()).as("the original, from the network thread").isNotNull();

    RemoteCallException bug = (RemoteCallException) catchThrowable(() -> regionInfo("bug"));
    assertThat(bug.exceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY);
    assertThat(bug.doNotRetry()).isTrue();
    assertThat(bug.getMessage()).contains("java.lang.IllegalStateException: handler bug");

    // A failed call leaves the connection as it was.
    assertThat(regionInfo("after")).isEqualTo("after");
    assertThat(clientEnds()).hasSize(1);
  }

  @Test
  void aMethodWithoutAHandlerIsRefusedByTheServer() {
    RemoteCallException e =
        (RemoteCallException)
            catchThrowable(
                () ->
                    client.call(
                        address,
                        AdminService.getDescriptor(),
                        "OpenRegion",
                        OpenRegionRequest.getDefaultInstance(),
                        OpenRegionResponse.getDefaultInstance(),
                        LONG));
    assertThat(e.exceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY);
    assertThat(e.doNotRetry()).isTrue();
    assertThat(e.getMessage()).contains("AdminService.OpenRegion is not implemented");
  }

  @Test
  void methodsAndMessagesThatDoNotFitTheServiceAreRefusedBeforeSending() {
    assertThatThrownBy(
            () ->
                client.call(
                    address,
                    AdminService.getDescriptor(),
                    "NoSuchMethod",
                    ask("r"),
                    GetRegionInfoResponse.getDefaultInstance(),
                    LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("service AdminService declares no method NoSuchMethod");
    assertThatThrownBy(
            () ->
                client.call(
                    address,
                    AdminService.getDescriptor(),
                    "GetRegionInfo",
                    OpenRegionRequest.getDefaultInstance(),
                    GetRegionInfoResponse.getDefaultInstance(),
                    LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "takes hbase.pb.GetRegionInfoRequest, not hbase.pb.OpenRegionRequest");
    assertThatThrownBy(
            () ->
                client.call(
                    address,
                    AdminService.getDescriptor(),
                    "GetRegionInfo",
                    ask("r"),
                    CloseRegionResponse.getDefaultInstance(),
                    LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("answers hbase.pb.GetRegionInfoResponse");
    assertThatThrownBy(
            () ->
                client.call(
                    address,
                    AdminService.getDescriptor(),
                    "GetRegionInfo",
                    GetRegionInfoRequest.newBuilder().buildPartial(),
                    GetRegionInfoResponse.getDefaultInstance(),
                    LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lacks required fields [region]");
    assertThat(served).isEmpty();
  }

  @Test
  void aServiceTheServerDoesNotOfferFailsWithTheServersFatalConnectionError() throws IOException {
    RemoteCallException e =
        (RemoteCallException)
            catchThrowable(
                () ->
                    client.call(
                        address,
                        RegionServerStatusService.getDescriptor(),
                        "RegionServerStartup",
                        RegionServerStartupRequest.newBuilder()
                            .setPort(16020)
                            .setServerStartCode(1)
                            .setServerCurrentTime(2)
                            .build(),
                        RegionServerStartupResponse.getDefaultInstance(),
                        LONG));
    assertThat(e.exceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.ipc.FatalConnectionException");
    assertThat(e.getMessage())
        .contains("unknown service 'RegionServerStatusService'")
        .contains("[AdminService]");
    assertThat(e.call()).isEqualTo("RegionServerStatusService.RegionServerStartup");

    // The AdminService connection to the same server is another connection, unaffected.
    assertThat(regionInfo("r")).isEqualTo("r");
  }

  @Test
  void aCallWithNoAnswerInTimeTimesOutAndTheConnectionKeepsWorking() throws Exception {
    Throwable t = catchThrowable(() -> regionInfo(address, "hold-late", Duration.ofMillis(300)));
    assertThat(t)
        .isInstanceOf(SocketTimeoutException.class)
        .hasMessageContaining("timed out after 300 ms")
        .hasMessageContaining("AdminService.GetRegionInfo")
        .hasMessageContaining("127.0.0.1:" + address.getPort());

    // The late answer arrives on the same connection, finds no call, and is dropped; the next
    // call gets its own answer.
    release.countDown();
    assertThat(heldDone.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(regionInfo("next")).isEqualTo("next");
    assertThat(regionInfo("and-next")).isEqualTo("and-next");
    assertThat(clientEnds()).as("one connection throughout").hasSize(1);
  }

  @Test
  void aStoppedServerFailsPendingAndNewCallsAndANewServerOnThePortIsReached() throws Exception {
    assertThat(regionInfo("before")).isEqualTo("before");
    CompletableFuture<GetRegionInfoResponse> pending = regionInfoAsync("hold-stop");
    assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();

    // The server waits for its blocked handler while closing, so it closes on another thread.
    RpcServer old = servers.get(0);
    CompletableFuture<Void> closing = CompletableFuture.runAsync(old::close);
    Throwable broken = failureOf(pending);
    assertThat(broken)
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(RemoteCallException.class)
        .isNotInstanceOf(SocketTimeoutException.class)
        .hasMessageContaining("127.0.0.1:" + address.getPort())
        .hasMessageContaining("closed before the call was answered");
    release.countDown();
    closing.get(60, TimeUnit.SECONDS);

    assertThatThrownBy(() -> regionInfo("while-down"))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("cannot connect to 127.0.0.1:" + address.getPort())
        .hasMessageContaining("AdminService.GetRegionInfo");

    startServer(address.getPort());
    assertThat(regionInfo("again")).isEqualTo("again");
  }

  @Test
  void aServerNobodyListensOnIsAConnectError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", port);
    assertThatThrownBy(() -> regionInfo(nobody, "r", LONG))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("127.0.0.1:" + port);
    // The failed connection was dropped: the same client still reaches a live server.
    assertThat(regionInfo("r")).isEqualTo("r");
  }

  @Test
  void closeFailsPendingCallsAndLaterOnes() throws Exception {
    CompletableFuture<GetRegionInfoResponse> pending = regionInfoAsync("hold-close");
    assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();

    client.close();
    assertThat(failureOf(pending))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the RpcClient was closed");
    assertThatThrownBy(() -> regionInfo("after-close"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the RpcClient was closed");
    client.close(); // idempotent
  }

  @Test
  void aBlockingCallFromTheNetworkThreadIsRefused() throws Exception {
    // Held until the callback is attached, so that the callback runs when the answer arrives, on
    // the network thread.
    CompletableFuture<GetRegionInfoResponse> outer = regionInfoAsync("hold-outer");
    CompletableFuture<String> nested =
        outer.thenApply(r -> String.valueOf(catchThrowable(() -> regionInfo("inner"))));
    release.countDown();
    assertThat(nested.get(30, TimeUnit.SECONDS))
        .contains("IllegalStateException")
        .contains("callbacks must use callAsync");
  }
}
