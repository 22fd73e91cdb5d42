package dev.basalt.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.server.rpc.TaggedCell;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellScanner;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.ipc.HBaseRpcController;
import org.apache.hadoop.hbase.ipc.RpcClient;
import org.apache.hadoop.hbase.ipc.RpcClientFactory;
import org.apache.hadoop.hbase.ipc.RpcControllerFactory;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetServerInfoRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.BlockingRpcChannel;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.ServiceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stock client's own RPC layer (the one every Table and Admin call goes through) sends request
 * cell blocks to a Basalt server and decodes its response cell blocks, for each codec and
 * compressor Basalt supports, and gets clear errors for those it does not.
 */
class StockClientCellBlockTest {
  private static final String KV_CODEC = "org.apache.hadoop.hbase.codec.KeyValueCodec";
  private static final String KV_TAGS_CODEC = "org.apache.hadoop.hbase.codec.KeyValueCodecWithTags";

  private CompatServer server;

  @BeforeEach
  void start() throws IOException {
    server = new CompatServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static List<Cell> clientCells(boolean tags) {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      List<Tag> t =
          tags && i % 2 == 0 ? List.of(new ArrayBackedTag((byte) 7, "tag" + i)) : List.of();
      cells.add(
          new KeyValue(
              Bytes.toBytes("row" + i),
              Bytes.toBytes("f"),
              Bytes.toBytes("q" + i),
              1000L + i,
              i % 3 == 0 ? KeyValue.Type.DeleteColumn : KeyValue.Type.Put,
              Bytes.toBytes("value-" + "x".repeat(i * 10)),
              t));
    }
    return cells;
  }

  private static MutateRequest mutate(int cells) {
    return MutateRequest.newBuilder()
        .setRegion(
            RegionSpecifier.newBuilder()
                .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFromUtf8("t,,1.0123456789abcdef0123456789abcdef.")))
        .setMutation(
            MutationProto.newBuilder()
                .setRow(ByteString.copyFromUtf8("row0"))
                .setMutateType(MutationProto.MutationType.PUT)
                .setAssociatedCellCount(cells))
        .build();
  }

  private Configuration conf(String codec, String compressor) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.rpc.codec", codec);
    if (compressor != null) {
      conf.set("hbase.client.rpc.compressor", compressor);
    }
    conf.setInt("hbase.rpc.timeout", 20_000);
    return conf;
  }

  /** Sends the cells with Mutate over a fresh stock RPC client; returns the cells echoed back. */
  private List<Cell> roundTrip(Configuration conf, List<Cell> cells) throws Exception {
    try (RpcClient rpc = RpcClientFactory.createClient(conf, CompatServer.CLUSTER_ID)) {
      BlockingRpcChannel channel =
          rpc.createBlockingRpcChannel(
              ServerName.valueOf("127.0.0.1", server.port(), CompatServer.START_CODE),
              User.getCurrent(),
              20_000);
      HBaseRpcController controller =
          RpcControllerFactory.instantiate(conf).newController(CellUtil.createCellScanner(cells));
      MutateResponse response =
          ClientService.newBlockingStub(channel).mutate(controller, mutate(cells.size()));
      assertThat(response.getResult().getAssociatedCellCount()).isEqualTo(cells.size());
      List<Cell> back = new ArrayList<>();
      CellScanner scanner = controller.cellScanner();
      while (scanner != null && scanner.advance()) {
        back.add(scanner.current());
      }
      return back;
    }
  }

  private void checkRoundTrip(String codec, String compressor, boolean tagsTravel)
      throws Exception {
    List<Cell> sent = clientCells(true);
    List<Cell> back = roundTrip(conf(codec, compressor), sent);

    // What the server decoded: the same cells, with tags only when the codec carries them.
    List<dev.basalt.cell.Cell> received = server.receivedCells.poll();
    assertThat(received).hasSize(sent.size());
    for (int i = 0; i < sent.size(); i++) {
      KeyValue s = (KeyValue) sent.get(i);
      dev.basalt.cell.Cell r = received.get(i);
      assertThat(Bytes.copy(r.getRowArray(), r.getRowOffset(), r.getRowLength()))
          .isEqualTo(CellUtil.cloneRow(s));
      assertThat(Bytes.copy(r.getQualifierArray(), r.getQualifierOffset(), r.getQualifierLength()))
          .isEqualTo(CellUtil.cloneQualifier(s));
      assertThat(Bytes.copy(r.getValueArray(), r.getValueOffset(), r.getValueLength()))
          .isEqualTo(CellUtil.cloneValue(s));
      assertThat(r.getTimestamp()).isEqualTo(s.getTimestamp());
      assertThat(r.getTypeByte()).isEqualTo(s.getTypeByte());
      boolean tagged = tagsTravel && s.getTagsLength() > 0;
      assertThat(r instanceof TaggedCell).isEqualTo(tagged);
      if (tagged) {
        assertThat(((TaggedCell) r).tags())
            .isEqualTo(Bytes.copy(s.getTagsArray(), s.getTagsOffset(), s.getTagsLength()));
      }
    }

    // What the client decoded from the response cell block: the same again.
    assertThat(back).hasSize(sent.size());
    for (int i = 0; i < sent.size(); i++) {
      KeyValue s = (KeyValue) sent.get(i);
      KeyValue b = (KeyValue) back.get(i);
      assertThat(CellUtil.equals(b, s)).isTrue();
      assertThat(CellUtil.cloneValue(b)).isEqualTo(CellUtil.cloneValue(s));
      assertThat(b.getTagsLength()).isEqualTo(tagsTravel ? s.getTagsLength() : 0);
    }
  }

  @Test
  void keyValueCodec() throws Exception {
    checkRoundTrip(KV_CODEC, null, false);
  }

  @Test
  void keyValueCodecWithTags() throws Exception {
    checkRoundTrip(KV_TAGS_CODEC, null, true);
  }

  @Test
  void gzipCompressedCellBlocks() throws Exception {
    checkRoundTrip(KV_CODEC, "org.apache.hadoop.io.compress.GzipCodec", false);
  }

  @Test
  void zlibCompressedCellBlocksWithTags() throws Exception {
    checkRoundTrip(KV_TAGS_CODEC, "org.apache.hadoop.io.compress.DefaultCodec", true);
  }

  @Test
  void unsupportedCodecFailsTheCallWithItsName() {
    Configuration conf = conf("org.apache.hadoop.hbase.codec.CellCodec", null);
    assertThatThrownBy(() -> roundTrip(conf, clientCells(false)))
        .isInstanceOf(ServiceException.class)
        .rootCause()
        .hasMessageContaining("UnsupportedCellCodecException")
        .hasMessageContaining("org.apache.hadoop.hbase.codec.CellCodec is not supported");
  }

  @Test
  void unknownServiceFailsTheCallWithItsName() throws Exception {
    Configuration conf = conf(KV_CODEC, null);
    try (RpcClient rpc = RpcClientFactory.createClient(conf, CompatServer.CLUSTER_ID)) {
      BlockingRpcChannel channel =
          rpc.createBlockingRpcChannel(
              ServerName.valueOf("127.0.0.1", server.port(), CompatServer.START_CODE),
              User.getCurrent(),
              20_000);
      assertThatThrownBy(
              () ->
                  AdminService.newBlockingStub(channel)
                      .getServerInfo(
                          RpcControllerFactory.instantiate(conf).newController(),
                          GetServerInfoRequest.getDefaultInstance()))
          .isInstanceOf(ServiceException.class)
          .rootCause()
          .hasMessageContaining("unknown service 'AdminService'");
    }
  }
}
