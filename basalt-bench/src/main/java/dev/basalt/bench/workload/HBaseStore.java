package dev.basalt.bench.workload;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * The system under test through the stock HBase client ({@code hbase-shaded-client}), the way
 * YCSB's hbase2 binding uses it: one shared {@link Connection}, one {@link Table} per worker, no
 * client-side write buffer (every put is its own round trip, acknowledged by the server), reads and
 * scans of the whole column family, scans with caching set to the scan length.
 */
final class HBaseStore implements DataStore {
  /** The client's key for the RPC-based connection registry's bootstrap servers (HBase 2.5+). */
  static final String BOOTSTRAP_SERVERS_KEY = "hbase.client.bootstrap.servers";

  static final String REGISTRY_IMPL_KEY = "hbase.client.registry.impl";
  static final String RPC_REGISTRY_CLASS = "org.apache.hadoop.hbase.client.RpcConnectionRegistry";

  private final Connection connection;
  private final TableName table;
  private final byte[] family;
  private final String description;

  HBaseStore(RunnerOptions options) throws IOException {
    Configuration conf = configuration(options);
    this.connection = ConnectionFactory.createConnection(conf);
    this.table = TableName.valueOf(options.table());
    this.family = options.family().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    this.description =
        (options.zookeeper() != null
                ? "ZooKeeper quorum " + options.zookeeper()
                : "bootstrap servers " + options.bootstrap())
            + ", table "
            + options.table()
            + ", family "
            + options.family();
  }

  /** The client configuration the options describe (exposed for tests). */
  static Configuration configuration(RunnerOptions options) {
    Configuration conf = HBaseConfiguration.create();
    if (options.zookeeper() != null) {
      // host:port[,host:port...]: HBase takes the hosts and one client port separately, or
      // host:port pairs in the quorum itself; the pairs are passed through as given.
      conf.set("hbase.zookeeper.quorum", options.zookeeper());
    } else {
      conf.set(REGISTRY_IMPL_KEY, RPC_REGISTRY_CLASS);
      conf.set(BOOTSTRAP_SERVERS_KEY, options.bootstrap());
    }
    for (Map.Entry<String, String> e : options.clientSettings().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    return conf;
  }

  @Override
  public void prepareTable(boolean recreate, int regions) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      boolean exists = admin.tableExists(table);
      if (exists && recreate) {
        if (admin.isTableEnabled(table)) {
          admin.disableTable(table);
        }
        admin.deleteTable(table);
        exists = false;
      }
      if (!exists) {
        TableDescriptorBuilder b =
            TableDescriptorBuilder.newBuilder(table)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(family));
        byte[][] splits = KeyNames.splitPoints(regions);
        if (splits.length == 0) {
          admin.createTable(b.build());
        } else {
          admin.createTable(b.build(), splits);
        }
      }
    }
  }

  @Override
  public Session openSession() throws IOException {
    return new HBaseSession(connection.getTable(table), family);
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }

  private static final class HBaseSession implements Session {
    private final Table table;
    private final byte[] family;

    HBaseSession(Table table, byte[] family) {
      this.table = table;
      this.family = family;
    }

    @Override
    public void insert(byte[] row, byte[][] fields, byte[][] values) throws IOException {
      Put put = new Put(row);
      for (int i = 0; i < fields.length; i++) {
        put.addColumn(family, fields[i], values[i]);
      }
      table.put(put);
    }

    @Override
    public int read(byte[] row) throws IOException {
      Result r = table.get(new Get(row).addFamily(family));
      return r.size();
    }

    @Override
    public void update(byte[] row, byte[] field, byte[] value) throws IOException {
      table.put(new Put(row).addColumn(family, field, value));
    }

    @Override
    public int scan(byte[] startRow, int count) throws IOException {
      Scan scan = new Scan().withStartRow(startRow).addFamily(family).setCaching(count);
      int rows = 0;
      try (ResultScanner scanner = table.getScanner(scan)) {
        // YCSB stops after `count` rows and closes the scanner (the server does not know the
        // limit); this does the same so both systems see the same RPCs.
        for (Result r = scanner.next(); r != null; r = scanner.next()) {
          rows++;
          if (rows >= count) {
            break;
          }
        }
      }
      return rows;
    }

    @Override
    public void close() throws IOException {
      table.close();
    }
  }
}
