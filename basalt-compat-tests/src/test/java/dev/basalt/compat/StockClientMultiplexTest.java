package dev.basalt.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.basalt.server.rpc.RpcServerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellScanner;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.exceptions.RequestTooBigException;
import org.apache.hadoop.hbase.ipc.HBaseRpcController;
import org.apache.hadoop.hbase.ipc.RpcClient;
import org.apache.hadoop.hbase.ipc.RpcClientFactory;
import org.apache.hadoop.hbase.ipc.RpcControllerFactory;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.RpcChannel;
import org.apache.hbase.thirdparty.com.google.protobuf.ServiceException;
import org.junit.jupiter.api.Test;

/**
 * Many calls in flight on one stock-client connection, answered by several handler threads in
 * whatever order they finish; and a request over the server's size limit.
 */
class StockClientMultiplexTest {
  private static final int CALLS = 300;

  private static MutateRequest mutate(int cells) {
    return MutateRequest.newBuilder()
        .setRegion(
            RegionSpecifier.newBuilder()
                .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFromUtf8("t,,1.0123456789abcdef0123456789abcdef.")))
        .setMutation(
            MutationProto.newBuilder()
                .setRow(ByteString.copyFromUtf8("r"))
                .setMutateType(MutationProto.MutationType.PUT)
                .setAssociatedCellCount(cells))
        .build();
  }

  private static Configuration conf() {
    Configuration conf = HBaseConfiguration.create();
    conf.setInt("hbase.rpc.timeout", 30_000);
    return conf;
  }

  private static Cell cellOfCall(int call, int i) {
    return new KeyValue(
        Bytes.toBytes("row-" + call),
        Bytes.toBytes("f"),
        Bytes.toBytes("q" + i),
        call,
        KeyValue.Type.Put,
        Bytes.toBytes("call " + call + " cell " + i));
  }

  @Test
  void concurrentCallsOnOneConnectionEachGetTheirOwnAnswer() throws Exception {
    // The queue holds every call at once: this test is about multiplexing, not back-pressure
    // (a full queue answers CallQueueTooBigException, which a slow machine can reach).
    try (CompatServer server =
            new CompatServer(RpcServerConfig.defaults("127.0.0.1", 0).withHandlers(4, 2 * CALLS));
        RpcClient rpc = RpcClientFactory.createClient(conf(), CompatServer.CLUSTER_ID)) {
      RpcChannel channel =
          rpc.createRpcChannel(
              ServerName.valueOf("127.0.0.1", server.port(), CompatServer.START_CODE),
              User.getCurrent(),
              30_000);
      ClientService.Interface stub = ClientService.newStub(channel);
      RpcControllerFactory controllers = RpcControllerFactory.instantiate(conf());
      List<CompletableFuture<List<Cell>>> answers = new ArrayList<>();
      for (int call = 0; call < CALLS; call++) {
        List<Cell> cells = new ArrayList<>();
        for (int i = 0; i <= call % 5; i++) {
          cells.add(cellOfCall(call, i));
        }
        HBaseRpcController controller =
            controllers.newController(CellUtil.createCellScanner(cells));
        CompletableFuture<List<Cell>> answer = new CompletableFuture<>();
        stub.mutate(
            controller,
            mutate(cells.size()),
            response -> {
              if (controller.failed()) {
                answer.completeExceptionally(controller.getFailed());
                return;
              }
              List<Cell> back = new ArrayList<>();
              try {
                CellScanner scanner = controller.cellScanner();
                while (scanner != null && scanner.advance()) {
                  back.add(scanner.current());
                }
                answer.complete(back);
              } catch (java.io.IOException e) {
                answer.completeExceptionally(e);
              }
            });
        answers.add(answer);
      }
      for (int call = 0; call < CALLS; call++) {
        List<Cell> back = answers.get(call).get(60, TimeUnit.SECONDS);
        assertThat(back).hasSize(call % 5 + 1);
        for (int i = 0; i < back.size(); i++) {
          assertThat(CellUtil.equals(back.get(i), cellOfCall(call, i))).isTrue();
          assertThat(CellUtil.cloneValue(back.get(i)))
              .isEqualTo(CellUtil.cloneValue(cellOfCall(call, i)));
        }
      }
      assertThat(server.receivedCells).hasSize(CALLS);
    }
  }

  @Test
  void requestOverTheLimitIsRequestTooBig() throws Exception {
    RpcServerConfig small = RpcServerConfig.defaults("127.0.0.1", 0).withMaxFrameSize(64 * 1024);
    try (CompatServer server = new CompatServer(small);
        RpcClient rpc = RpcClientFactory.createClient(conf(), CompatServer.CLUSTER_ID)) {
      List<Cell> big =
          List.of(
              new KeyValue(
                  Bytes.toBytes("r"),
                  Bytes.toBytes("f"),
                  Bytes.toBytes("q"),
                  1L,
                  KeyValue.Type.Put,
                  new byte[100 * 1024]));
      HBaseRpcController controller =
          RpcControllerFactory.instantiate(conf()).newController(CellUtil.createCellScanner(big));
      Throwable thrown =
          catchThrowable(
              () ->
                  ClientService.newBlockingStub(
                          rpc.createBlockingRpcChannel(
                              ServerName.valueOf(
                                  "127.0.0.1", server.port(), CompatServer.START_CODE),
                              User.getCurrent(),
                              30_000))
                      .mutate(controller, mutate(1)));
      // The RPC layer hands up the remote exception; the client's upper layers unwrap it into
      // the class the server named, as here.
      assertThat(thrown).isInstanceOf(ServiceException.class);
      Throwable remote = thrown.getCause();
      assertThat(remote).isInstanceOf(RemoteException.class);
      assertThat(((RemoteException) remote).unwrapRemoteException())
          .isInstanceOf(RequestTooBigException.class)
          .hasMessageContaining("larger than the maximum of 65536 bytes");
    }
  }
}
