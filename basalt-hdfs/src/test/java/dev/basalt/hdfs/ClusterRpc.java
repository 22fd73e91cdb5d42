package dev.basalt.hdfs;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.rpc.RpcClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetOnlineRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetOnlineRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.CellProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.LiveServerInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateTableResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterService;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * What a test of a cluster needs from HBase's protocol, through basalt-server's own {@link
 * RpcClient}: the stock client is not on this module's class path (hbase-shaded-client bundles
 * Hadoop 3.4.1 classes unrelocated, beside their own relocated dependencies, while this JVM runs
 * the NameNode and DataNodes from hadoop-client-minicluster; one copy of org.apache.hadoop.* would
 * be picked class by class). Calls go straight to the server that answers them, no retries:
 * creating a table and reading hbase:meta on the active master, puts, gets and GetOnlineRegion on a
 * region server.
 */
final class ClusterRpc implements AutoCloseable {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final byte[] META_REGION = bytes("hbase:meta,,1");
  private static final byte[] PBUF = bytes("PBUF");

  /** A user region as hbase:meta lists it. */
  record MetaRegion(
      byte[] name, HBaseProtos.RegionInfo info, String serverName, String state, String address) {
    boolean holds(byte[] row) {
      byte[] start = info.getStartKey().toByteArray();
      byte[] end = info.getEndKey().toByteArray();
      return Arrays.compareUnsigned(row, start) >= 0
          && (end.length == 0 || Arrays.compareUnsigned(row, end) < 0);
    }

    RegionSpecifier spec() {
      return RegionSpecifier.newBuilder()
          .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
          .setValue(ByteString.copyFrom(name))
          .build();
    }
  }

  private final RpcClient rpc =
      new RpcClient(System.getProperty("user.name"), Duration.ofSeconds(5));

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static InetSocketAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    return new InetSocketAddress(
        hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }

  /** Creates a table of one family with the given split keys (the master's CreateTable). */
  void createTable(InetSocketAddress master, String table, byte[] family, byte[][] splits)
      throws IOException {
    HBaseProtos.TableSchema.Builder schema =
        HBaseProtos.TableSchema.newBuilder()
            .setTableName(tableName(table))
            .addColumnFamilies(
                HBaseProtos.ColumnFamilySchema.newBuilder().setName(ByteString.copyFrom(family)));
    CreateTableRequest.Builder req = CreateTableRequest.newBuilder().setTableSchema(schema);
    for (byte[] s : splits) {
      req.addSplitKeys(ByteString.copyFrom(s));
    }
    rpc.call(
        master,
        MasterService.getDescriptor(),
        "CreateTable",
        req.build(),
        CreateTableResponse.getDefaultInstance(),
        TIMEOUT);
  }

  /**
   * The regions of {@code table} in hbase:meta (served by the active master), in meta's order: by
   * start key. The whole of meta in one answer (a test cluster's is small).
   */
  List<MetaRegion> meta(InetSocketAddress master, String table) throws IOException {
    ScanResponse resp =
        rpc.call(
            master,
            ClientService.getDescriptor(),
            "Scan",
            ScanRequest.newBuilder()
                .setRegion(
                    RegionSpecifier.newBuilder()
                        .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                        .setValue(ByteString.copyFrom(META_REGION)))
                .setScan(ClientProtos.Scan.getDefaultInstance())
                .setNumberOfRows(10_000)
                .setCloseScanner(true)
                .build(),
            ScanResponse.getDefaultInstance(),
            TIMEOUT);
    List<MetaRegion> out = new ArrayList<>();
    for (ClientProtos.Result r : resp.getResultsList()) {
      HBaseProtos.RegionInfo info = null;
      String sn = null;
      String state = null;
      String address = null;
      byte[] name = null;
      for (CellProtos.Cell c : r.getCellList()) {
        name = c.getRow().toByteArray();
        if (!c.getFamily().toStringUtf8().equals("info")) {
          continue;
        }
        switch (c.getQualifier().toStringUtf8()) {
          case "regioninfo" -> {
            byte[] v = c.getValue().toByteArray();
            if (!Arrays.equals(v, 0, PBUF.length, PBUF, 0, PBUF.length)) {
              throw new IOException("info:regioninfo without PBUF: " + c);
            }
            info =
                HBaseProtos.RegionInfo.parseFrom(
                    ByteBuffer.wrap(v, PBUF.length, v.length - PBUF.length));
          }
          case "sn" -> sn = c.getValue().toStringUtf8();
          case "server" -> address = c.getValue().toStringUtf8();
          case "state" -> state = c.getValue().toStringUtf8();
          default -> {}
        }
      }
      if (info != null && info.getTableName().getQualifier().toStringUtf8().equals(table)) {
        out.add(new MetaRegion(name, info, sn, state, address));
      }
    }
    return out;
  }

  /** The region servers the active master counts as live, as {@code host,port,startcode}. */
  List<String> liveServers(InetSocketAddress master) throws IOException {
    GetClusterStatusResponse resp =
        rpc.call(
            master,
            MasterService.getDescriptor(),
            "GetClusterStatus",
            GetClusterStatusRequest.newBuilder()
                .addOptions(
                    org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.Option
                        .LIVE_SERVERS)
                .build(),
            GetClusterStatusResponse.getDefaultInstance(),
            TIMEOUT);
    List<String> out = new ArrayList<>();
    for (LiveServerInfo s : resp.getClusterStatus().getLiveServersList()) {
      HBaseProtos.ServerName n = s.getServer();
      out.add(new ServerName(n.getHostName(), n.getPort(), n.getStartCode()).toString());
    }
    return out;
  }

  /** The regions a region server has online (AdminService GetOnlineRegion). */
  List<HBaseProtos.RegionInfo> onlineRegions(InetSocketAddress server) throws IOException {
    GetOnlineRegionResponse resp =
        rpc.call(
            server,
            AdminService.getDescriptor(),
            "GetOnlineRegion",
            GetOnlineRegionRequest.getDefaultInstance(),
            GetOnlineRegionResponse.getDefaultInstance(),
            TIMEOUT);
    return resp.getRegionInfoList();
  }

  /** One put; returns once the region server acknowledged it. */
  void put(InetSocketAddress server, MetaRegion region, byte[] row, byte[] f, byte[] value)
      throws IOException {
    MutateResponse resp =
        rpc.call(
            server,
            ClientService.getDescriptor(),
            "Mutate",
            MutateRequest.newBuilder()
                .setRegion(region.spec())
                .setMutation(
                    MutationProto.newBuilder()
                        .setRow(ByteString.copyFrom(row))
                        .setMutateType(MutationProto.MutationType.PUT)
                        .addColumnValue(
                            MutationProto.ColumnValue.newBuilder()
                                .setFamily(ByteString.copyFrom(f))
                                .addQualifierValue(
                                    MutationProto.ColumnValue.QualifierValue.newBuilder()
                                        .setQualifier(ByteString.copyFrom(f))
                                        .setValue(ByteString.copyFrom(value)))))
                .build(),
            MutateResponse.getDefaultInstance(),
            TIMEOUT);
    if (!resp.getProcessed()) {
      throw new IOException("put of " + new String(row, StandardCharsets.UTF_8) + " not processed");
    }
  }

  /** The value of {@code f:f} in a row, or null. */
  byte[] get(InetSocketAddress server, MetaRegion region, byte[] row, byte[] f) throws IOException {
    GetResponse resp =
        rpc.call(
            server,
            ClientService.getDescriptor(),
            "Get",
            GetRequest.newBuilder()
                .setRegion(region.spec())
                .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFrom(row)))
                .build(),
            GetResponse.getDefaultInstance(),
            TIMEOUT);
    for (CellProtos.Cell c : resp.getResult().getCellList()) {
      if (Arrays.equals(c.getFamily().toByteArray(), f)
          && Arrays.equals(c.getQualifier().toByteArray(), f)) {
        return c.getValue().toByteArray();
      }
    }
    return null;
  }

  private static HBaseProtos.TableName tableName(String table) {
    return HBaseProtos.TableName.newBuilder()
        .setNamespace(ByteString.copyFromUtf8("default"))
        .setQualifier(ByteString.copyFromUtf8(table))
        .build();
  }

  @Override
  public void close() {
    rpc.close();
  }
}
