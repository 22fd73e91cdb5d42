package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import dev.basalt.server.cluster.LocalClusterOptions;
import dev.basalt.server.rpc.RpcClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zombie region server (issue 28, item 3): paused (SIGSTOP) past its ZooKeeper session with a
 * request waiting in its socket, then resumed. It must not answer that request from its regions,
 * which the master recovers: it aborts, and the request gets RegionServerAbortedException (or the
 * connection closes as the process exits). The master is told not to kill it ({@code
 * basalt.master.fence.kill=false}), as on another host, so it is the region server's own guard
 * (PauseGuard) that decides. Its own cluster: the fence setting is cluster-wide.
 */
class ZombieRegionServerTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] ROW = Bytes.toBytes("row");
  private static final int SESSION_MILLIS = 4000;

  @TempDir Path dir;

  @Test
  void aRegionServerResumedAfterItsSessionExpiredAbortsWithoutAnswering() throws Exception {
    LocalClusterOptions options =
        LocalClusterOptions.builder(dir.resolve("root"))
            .masters(1)
            .regionServers(2)
            .set("zookeeper.session.timeout", Integer.toString(SESSION_MILLIS))
            .set("basalt.master.fence.kill", "false")
            .set("hbase.master.wait.on.regionservers.interval", "0")
            .startTimeout(Duration.ofSeconds(120))
            .build();
    try (LocalCluster cluster = LocalCluster.start(options);
        RpcClient rpc = new RpcClient("test", Duration.ofSeconds(5))) {
      Configuration conf = HBaseConfiguration.create();
      cluster.clientSettings().forEach(conf::set);
      conf.setInt("hbase.client.retries.number", 30);
      conf.setInt("hbase.client.pause", 200);
      conf.setInt("hbase.rpc.timeout", 10_000);
      conf.setInt("hbase.client.operation.timeout", 90_000);
      TableName tn = TableName.valueOf("zombie");
      try (Connection conn = ConnectionFactory.createConnection(conf);
          Admin admin = conn.getAdmin()) {
        admin.createTable(
            TableDescriptorBuilder.newBuilder(tn)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
                .build());
        try (Table t = conn.getTable(tn)) {
          t.put(new Put(ROW).addColumn(F, F, Bytes.toBytes("v1")));
        }
        HRegionLocation where;
        try (RegionLocator locator = conn.getRegionLocator(tn)) {
          where = locator.getRegionLocation(ROW, true);
        }
        LocalClusterNode victim =
            cluster.regionServers().stream()
                .filter(n -> n.serverName().port() == where.getServerName().getPort())
                .findFirst()
                .orElseThrow();

        cluster.suspend(victim);
        // a read that waits in the paused server's socket
        CompletableFuture<ClientProtos.GetResponse> queued =
            rpc.callAsync(
                new InetSocketAddress("127.0.0.1", where.getServerName().getPort()),
                ClientProtos.ClientService.getDescriptor(),
                "Get",
                ClientProtos.GetRequest.newBuilder()
                    .setRegion(
                        RegionSpecifier.newBuilder()
                            .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                            .setValue(ByteString.copyFrom(where.getRegion().getRegionName())))
                    .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFrom(ROW)))
                    .build(),
                ClientProtos.GetResponse.getDefaultInstance(),
                Duration.ofSeconds(60));
        Thread.sleep(SESSION_MILLIS + 3000); // past the session: ZooKeeper expires it
        assertThat(queued).isNotDone();
        cluster.resume(victim);

        Throwable refused =
            queued
                .handle((answer, error) -> error == null ? null : error)
                .get(60, TimeUnit.SECONDS);
        assertThat(refused)
            .as("the resumed server answered the read from a region it no longer owns")
            .isNotNull();
        System.out.println("ZombieRegionServerTest: the queued read got " + refused);
        assertThat(victim.awaitExit(Duration.ofSeconds(60)))
            .as("the resumed server aborts")
            .isNotZero();

        // its region opens on the other server, with the write
        try (Table t = conn.getTable(tn)) {
          assertThat(Bytes.toString(t.get(new Get(ROW)).getValue(F, F))).isEqualTo("v1");
          t.put(new Put(ROW).addColumn(F, F, Bytes.toBytes("v2")));
          assertThat(Bytes.toString(t.get(new Get(ROW)).getValue(F, F))).isEqualTo("v2");
        }
      }
    }
  }
}
