package dev.basalt.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stock hbase-shaded-client 2.6.3 finds a Basalt server through the RPC connection registry
 * ("Regist" preamble, then ClientMetaService) and gets clear, fast errors for what is not there.
 */
class StockClientRegistryTest {
  private CompatServer server;

  @BeforeEach
  void start() throws IOException {
    server = new CompatServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Client settings for a one-node cluster at the test server, with short retry budgets. */
  static Configuration clientConf(CompatServer server) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", server.hostAndPort());
    // Safety nets only: every call in these tests is answered at once.
    conf.setInt("hbase.rpc.timeout", 20_000);
    conf.setInt("hbase.client.operation.timeout", 30_000);
    conf.setInt("hbase.client.retries.number", 3);
    return conf;
  }

  @Test
  void connectionGetsTheClusterIdThroughTheRpcRegistry() throws Exception {
    try (Connection c = ConnectionFactory.createConnection(clientConf(server))) {
      assertThat(c.getClusterId()).isEqualTo(CompatServer.CLUSTER_ID);
    }
    assertThat(server.registryPreambles.get()).isPositive();
    assertThat(server.getClusterIdCalls.get()).isPositive();
  }

  @Test
  void unimplementedMasterMethodIsAClearDoNotRetryError() throws Exception {
    try (Connection c = ConnectionFactory.createConnection(clientConf(server));
        Admin admin = c.getAdmin()) {
      assertThatThrownBy(admin::getClusterMetrics)
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("MasterService.GetClusterStatus is not implemented");
    }
  }

  @Test
  void garbageFromOneSocketDoesNotStopTheServerServingTheStockClient() throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(30_000);
      s.getOutputStream().write("garbage!".getBytes(StandardCharsets.US_ASCII));
      DataInputStream in = new DataInputStream(s.getInputStream());
      byte[] frame = new byte[in.readInt()];
      in.readFully(frame);
      assertThat(new String(frame, StandardCharsets.ISO_8859_1))
          .contains("org.apache.hadoop.hbase.ipc.FatalConnectionException")
          .contains("Expected HEADER=HBas but received HEADER=garb");
      assertThat(in.read()).isEqualTo(-1); // closed by the server
    }
    try (Connection c = ConnectionFactory.createConnection(clientConf(server))) {
      assertThat(c.getClusterId()).isEqualTo(CompatServer.CLUSTER_ID);
    }
  }
}
