package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.rpc.RpcServer;
import dev.basalt.server.rpc.RpcServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse.CompactionState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetServerInfoRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetServerInfoResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.StopServerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.UserInformation;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AdminService on a real RPC server, as a client reaches it over TCP. */
class AdminServiceRpcTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");

  @TempDir Path dir;
  private Database db;
  private AdminServiceHandlers admin;
  private RpcServer server;
  private Socket socket;
  private DataInputStream in;
  private DataOutputStream out;
  private int callId;

  /** One answer: the header, and the message bytes unless the header carries an exception. */
  private record Answer(ResponseHeader header, byte[] message) {
    <M extends Message> M as(M prototype) throws IOException {
      @SuppressWarnings("unchecked")
      M m = (M) prototype.getParserForType().parseFrom(message);
      return m;
    }
  }

  /** GetRegionInfo with the compaction state, as the Admin API asks for it. */
  private GetRegionInfoResponse regionInfo(RegionInfo r) throws IOException {
    return call(
            "GetRegionInfo",
            GetRegionInfoRequest.newBuilder().setRegion(spec(r)).setCompactionState(true).build())
        .as(GetRegionInfoResponse.getDefaultInstance());
  }

  @BeforeEach
  void start() throws IOException {
    db = Database.open(dir);
    db.createTable(
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
    ServerName[] self = new ServerName[1];
    admin = new AdminServiceHandlers(new DatabaseRegions(db), () -> self[0]);
    server =
        new RpcServer(
            RpcServerConfig.defaults("127.0.0.1", 0).withHandlers(2, 8),
            List.of(admin.service()),
            () -> db.getClusterId().toString());
    InetSocketAddress a = server.start();
    self[0] = new ServerName("localhost", a.getPort(), 7L);

    socket = new Socket();
    socket.connect(a, 10_000);
    socket.setSoTimeout(30_000);
    in = new DataInputStream(socket.getInputStream());
    out = new DataOutputStream(socket.getOutputStream());
    out.write(new byte[] {'H', 'B', 'a', 's', 0, 80});
    byte[] header =
        ConnectionHeader.newBuilder()
            .setUserInfo(UserInformation.newBuilder().setEffectiveUser("tester"))
            .setServiceName("AdminService")
            .build()
            .toByteArray();
    out.writeInt(header.length);
    out.write(header);
    out.flush();
  }

  @AfterEach
  void stop() throws IOException {
    socket.close();
    server.close();
    admin.close();
    db.close();
  }

  private Answer call(String method, Message param) throws IOException {
    int id = ++callId;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    RequestHeader.newBuilder()
        .setCallId(id)
        .setMethodName(method)
        .setRequestParam(true)
        .build()
        .writeDelimitedTo(body);
    param.writeDelimitedTo(body);
    out.writeInt(body.size());
    body.writeTo(out);
    out.flush();

    byte[] frame = new byte[in.readInt()];
    in.readFully(frame);
    CodedInputStream cis = CodedInputStream.newInstance(frame);
    int limit = cis.pushLimit(cis.readRawVarint32());
    ResponseHeader h = ResponseHeader.parseFrom(cis);
    cis.popLimit(limit);
    assertThat(h.getCallId()).isEqualTo(id);
    byte[] message = h.hasException() ? null : cis.readRawBytes(cis.readRawVarint32());
    return new Answer(h, message);
  }

  private static HBaseProtos.RegionSpecifier spec(RegionInfo r) {
    return AdminServiceHandlersTest.byName(r);
  }

  @Test
  void answersOverTheWire() throws Exception {
    GetServerInfoResponse info =
        call("GetServerInfo", GetServerInfoRequest.getDefaultInstance())
            .as(GetServerInfoResponse.getDefaultInstance());
    assertThat(info.getServerInfo().getServerName().getPort()).isEqualTo(server.port());
    assertThat(info.getServerInfo().getServerName().getStartCode()).isEqualTo(7L);

    RegionInfo r = db.getRegions(T).get(0);
    GetRegionInfoResponse ri = regionInfo(r);
    assertThat(ri.getRegionInfo().getRegionId()).isEqualTo(r.getRegionId());
    assertThat(ri.getCompactionState()).isEqualTo(CompactionState.NONE);

    Answer missing =
        call(
            "GetRegionInfo",
            GetRegionInfoRequest.newBuilder()
                .setRegion(
                    spec(r).toBuilder().setValue(ByteString.copyFromUtf8("t,,1.nope.")).build())
                .build());
    assertThat(missing.header().getException().getExceptionClassName())
        .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");

    Answer stop = call("StopServer", StopServerRequest.newBuilder().setReason("test").build());
    assertThat(stop.header().getException().getExceptionClassName())
        .isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException");
    assertThat(stop.header().getException().getStackTrace()).contains("StopServer");
  }

  @Test
  void aRequestedMajorCompactionRunsAndIsFollowedThroughItsState() throws Exception {
    RegionInfo r = db.getRegions(T).get(0);
    // two files: below the minor compaction threshold, so only the request compacts them
    for (String row : new String[] {"a", "b"}) {
      db.getTable(T).put(new Put(Bytes.toBytes(row)).addColumn(F, F, Bytes.toBytes(row)));
      db.flush(T);
    }
    assertThat(db.getRegionMetrics(T).get(0).getStoreFileCount()).isEqualTo(2);

    call(
            "CompactRegion",
            CompactRegionRequest.newBuilder().setRegion(spec(r)).setMajor(true).build())
        .as(CompactRegionResponse.getDefaultInstance());
    // as the stock client's Admin.getCompactionState does: poll until NONE
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    CompactionState state;
    do {
      state = regionInfo(r).getCompactionState();
    } while (state != CompactionState.NONE && System.nanoTime() < deadline && sleep());
    assertThat(state).isEqualTo(CompactionState.NONE);
    assertThat(db.getRegionMetrics(T).get(0).getStoreFileCount()).isEqualTo(1);
  }

  private static boolean sleep() throws InterruptedException {
    Thread.sleep(10);
    return true;
  }
}
