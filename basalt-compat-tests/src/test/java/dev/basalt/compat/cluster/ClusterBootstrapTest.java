package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * S1, bootstrap: a table created with 12 regions on a cluster of 3 region servers is spread 4 ± 1
 * per server; the stock client writes, reads and scans it through ZooKeeper and through the RPC
 * registry ({@code hbase.client.bootstrap.servers}); hbase:meta holds its rows as HBase writes them
 * (distributed-mode.md 1.2).
 */
@ExtendWith(SharedCluster.class)
class ClusterBootstrapTest {
  private static final TableName TABLE = TableName.valueOf("s1_bootstrap");
  private static final int REGIONS = 12;
  private static final int ROWS_PER_REGION = 20;

  @Test
  void twelveRegionsSpreadEvenlyAndServeThroughBothRegistries() throws Exception {
    SharedCluster.dropAllTables();
    LocalCluster cluster = SharedCluster.cluster();
    try (Connection c = ConnectionFactory.createConnection(SharedCluster.clientConf(cluster));
        Admin admin = c.getAdmin()) {
      ClusterTables.create(admin, TABLE, REGIONS);
      Map<ServerName, Integer> per = ClusterTables.regionsPerServer(c, TABLE);
      assertThat(per).as("regions per server").hasSize(SharedCluster.REGION_SERVERS);
      assertThat(per.values()).allSatisfy(n -> assertThat(n).isBetween(3, 5));
      try (Table t = c.getTable(TABLE)) {
        List<Put> puts = new ArrayList<>();
        for (int region = 0; region < REGIONS; region++) {
          for (int i = 0; i < ROWS_PER_REGION; i++) {
            puts.add(
                new Put(ClusterTables.rowIn(region, "zk" + i))
                    .addColumn(
                        ClusterTables.CF, ClusterTables.Q, Bytes.toBytes(region * 1000 + i)));
          }
        }
        t.put(puts);
        Result r = t.get(new Get(ClusterTables.rowIn(7, "zk3")));
        assertThat(Bytes.toInt(r.getValue(ClusterTables.CF, ClusterTables.Q))).isEqualTo(7003);
        assertThat(count(t)).isEqualTo(REGIONS * ROWS_PER_REGION);
      }
    }

    try (Connection c =
            ConnectionFactory.createConnection(SharedCluster.rpcRegistryClientConf(cluster));
        Table t = c.getTable(TABLE)) {
      for (int region = 0; region < REGIONS; region++) {
        t.put(
            new Put(ClusterTables.rowIn(region, "rpc"))
                .addColumn(ClusterTables.CF, ClusterTables.Q, Bytes.toBytes(-region)));
      }
      Result r = t.get(new Get(ClusterTables.rowIn(11, "zk19")));
      assertThat(Bytes.toInt(r.getValue(ClusterTables.CF, ClusterTables.Q))).isEqualTo(11019);
      assertThat(count(t)).isEqualTo(REGIONS * (ROWS_PER_REGION + 1));
      assertThat(c.getAdmin().getClusterMetrics().getLiveServerMetrics())
          .hasSize(SharedCluster.REGION_SERVERS);
    }
  }

  @Test
  void metaRowsAreWrittenAsHBaseWritesThem() throws Exception {
    Connection c = SharedCluster.connection();
    try (Admin admin = c.getAdmin()) {
      if (!admin.tableExists(TABLE)) {
        ClusterTables.create(admin, TABLE, REGIONS);
      }
    }
    Set<String> servers = new TreeSet<>();
    for (LocalClusterNode rs : SharedCluster.cluster().regionServers()) {
      servers.add(rs.serverName().toString());
    }
    byte[] info = Bytes.toBytes("info");
    // what HBase 2.6.1 holds for an OPEN region (checked against a real mini cluster): the
    // location columns, and info:sn left by the OPENING step, naming the same server
    Set<String> openColumns =
        Set.of("regioninfo", "server", "serverstartcode", "seqnumDuringOpen", "sn", "state");
    List<HRegionLocation> locations = ClusterTables.locations(c, TABLE);
    assertThat(locations).hasSize(REGIONS);
    try (Table meta = c.getTable(TableName.META_TABLE_NAME)) {
      for (HRegionLocation l : locations) {
        RegionInfo region = l.getRegion();
        Result row = meta.get(new Get(region.getRegionName()));
        assertThat(row.isEmpty()).as("meta row of %s", region).isFalse();
        NavigableMap<byte[], byte[]> columns = row.getFamilyMap(info);
        Set<String> names = new TreeSet<>();
        columns.keySet().forEach(q -> names.add(Bytes.toString(q)));
        assertThat(names).as("columns of %s", region).isEqualTo(openColumns);

        RegionInfo stored = RegionInfo.parseFromOrNull(columns.get(Bytes.toBytes("regioninfo")));
        assertThat(stored).isNotNull();
        assertThat(RegionInfo.COMPARATOR.compare(stored, region)).isZero();
        assertThat(stored.getEncodedName()).isEqualTo(region.getEncodedName());

        // an OPEN region: host:port, its server's start code, the open sequence number (8 bytes)
        String server = Bytes.toString(columns.get(Bytes.toBytes("server")));
        byte[] startCode = columns.get(Bytes.toBytes("serverstartcode"));
        byte[] seq = columns.get(Bytes.toBytes("seqnumDuringOpen"));
        assertThat(startCode).hasSize(Bytes.SIZEOF_LONG);
        assertThat(seq).hasSize(Bytes.SIZEOF_LONG);
        assertThat(Bytes.toLong(seq)).isPositive();
        String sn = ServerName.valueOf(server, Bytes.toLong(startCode)).getServerName();
        assertThat(servers).contains(sn);
        assertThat(l.getServerName().getServerName()).isEqualTo(sn);
        assertThat(l.getSeqNum()).isEqualTo(Bytes.toLong(seq));
        assertThat(Bytes.toString(columns.get(Bytes.toBytes("state")))).isEqualTo("OPEN");
        assertThat(Bytes.toString(columns.get(Bytes.toBytes("sn")))).isEqualTo(sn);
      }
    }
  }

  private static int count(Table t) throws Exception {
    int n = 0;
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result ignored : s) {
        n++;
      }
    }
    return n;
  }
}
