package dev.basalt.bench.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB's {@link DB} over the stock HBase client (hbase-shaded-client), for measuring any
 * HBase-protocol cluster with YCSB's own core (issue 36):
 *
 * <pre>
 * java -cp basalt-bench/target/benchmarks.jar site.ycsb.Client -t \
 *     -db dev.basalt.bench.ycsb.HBaseBinding -P basalt-bench/ycsb/workloads/workloade \
 *     -p hbase.zookeeper.quorum=127.0.0.1:2181 -p recordcount=100000 -threads 8
 * </pre>
 *
 * What each operation sends is deliberately plain, as an application would write it: read = a Get
 * of the row's whole family (or of the named fields), scan = a {@link Scan} from the start key with
 * {@code setLimit(n)} and caching n over the whole family, update and insert = one Put (no client
 * write buffer: every put is one acknowledged round trip), delete = one Delete. Every YCSB property
 * whose name starts with {@code hbase.} is passed to the client's configuration; {@code
 * columnfamily} names the family (default "family", as basalt-bench's runner). YCSB creates one
 * instance per client thread; they share one {@link Connection}, as YCSB's own HBase bindings do.
 * The table must exist (dev.basalt.bench.workload.TableSetup creates it pre-split).
 */
public final class HBaseBinding extends DB {
  static final String FAMILY_PROPERTY = "columnfamily";
  static final String DEFAULT_FAMILY = "family";

  private static final Object CONNECTION_LOCK = new Object();
  private static Connection sharedConnection;
  private static int users;

  private byte[] family;
  private String tableName;
  private Table table;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    family = p.getProperty(FAMILY_PROPERTY, DEFAULT_FAMILY).getBytes(StandardCharsets.UTF_8);
    synchronized (CONNECTION_LOCK) {
      if (sharedConnection == null) {
        try {
          sharedConnection = ConnectionFactory.createConnection(configuration(p));
        } catch (IOException e) {
          throw new DBException("cannot connect: " + e, e);
        }
      }
      users++;
    }
  }

  /** The client configuration: HBase's defaults and every {@code hbase.*} YCSB property. */
  static Configuration configuration(Properties p) {
    Configuration conf = HBaseConfiguration.create();
    for (String name : p.stringPropertyNames()) {
      if (name.startsWith("hbase.")) {
        conf.set(name, p.getProperty(name));
      }
    }
    return conf;
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (table != null) {
        table.close();
        table = null;
      }
      synchronized (CONNECTION_LOCK) {
        if (--users == 0 && sharedConnection != null) {
          sharedConnection.close();
          sharedConnection = null;
        }
      }
    } catch (IOException e) {
      throw new DBException("cannot close: " + e, e);
    }
  }

  /** This thread's handle on {@code name} (YCSB names one table per run; kept between calls). */
  private Table table(String name) throws IOException {
    if (table == null || !name.equals(tableName)) {
      if (table != null) {
        table.close();
      }
      table = sharedConnection.getTable(TableName.valueOf(name));
      tableName = name;
    }
    return table;
  }

  @Override
  public Status read(
      String tableName, String key, Set<String> fields, Map<String, ByteIterator> result) {
    Get get = new Get(bytes(key));
    if (fields == null) {
      get.addFamily(family);
    } else {
      for (String f : fields) {
        get.addColumn(family, bytes(f));
      }
    }
    try {
      Result r = table(tableName).get(get);
      if (r.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copyCells(r, result);
      return Status.OK;
    } catch (IOException e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(
      String tableName,
      String startKey,
      int recordCount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan scan = new Scan().withStartRow(bytes(startKey)).setLimit(recordCount);
    scan.setCaching(recordCount);
    if (fields == null) {
      scan.addFamily(family);
    } else {
      for (String f : fields) {
        scan.addColumn(family, bytes(f));
      }
    }
    try (ResultScanner scanner = table(tableName).getScanner(scan)) {
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        copyCells(r, row);
        result.add(row);
      }
      return Status.OK;
    } catch (IOException e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status update(String tableName, String key, Map<String, ByteIterator> values) {
    return put(tableName, key, values);
  }

  @Override
  public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
    return put(tableName, key, values);
  }

  private Status put(String tableName, String key, Map<String, ByteIterator> values) {
    Put put = new Put(bytes(key));
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      put.addColumn(family, bytes(e.getKey()), e.getValue().toArray());
    }
    try {
      table(tableName).put(put);
      return Status.OK;
    } catch (IOException e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status delete(String tableName, String key) {
    try {
      table(tableName).delete(new Delete(bytes(key)));
      return Status.OK;
    } catch (IOException e) {
      return Status.ERROR;
    }
  }

  /** The row's cells as YCSB's field map (field name to value), as YCSB's bindings return it. */
  private static void copyCells(Result r, Map<String, ByteIterator> into) {
    for (Cell c : r.rawCells()) {
      into.put(
          new String(
              c.getQualifierArray(),
              c.getQualifierOffset(),
              c.getQualifierLength(),
              StandardCharsets.UTF_8),
          new ByteArrayByteIterator(CellUtil.cloneValue(c)));
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
