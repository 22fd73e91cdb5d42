package dev.basalt.server.standalone;

import dev.basalt.server.regionserver.ScanService;
import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/**
 * Settings of standalone mode (listed in META-INF/services of basalt-server). Keys are HBase's
 * where the meaning is the same, so an {@code hbase-site.xml} written for a local HBase mostly
 * works as a {@code basalt-site.xml}.
 */
public final class StandaloneSettings implements ConfigKeySet {
  public static final ConfigKey<String> ROOT_DIR =
      ConfigKey.ofString(
          "hbase.rootdir",
          "./basalt-data",
          "Directory holding every table, the write-ahead log and the cluster id (a local path;"
              + " a file: URI is accepted).");

  public static final ConfigKey<Integer> MASTER_PORT =
      ConfigKey.ofInt(
              "hbase.master.port",
              16000,
              "port",
              "Master RPC port (MasterService, and the registry for hbase.client.bootstrap.servers);"
                  + " 0 picks a free port.")
          .between(0, 65535);

  public static final ConfigKey<Integer> REGIONSERVER_PORT =
      ConfigKey.ofInt(
              "hbase.regionserver.port",
              16020,
              "port",
              "Region server RPC port (ClientService, AdminService, hbase:meta); 0 picks a free port.")
          .between(0, 65535);

  public static final ConfigKey<String> BIND_ADDRESS =
      ConfigKey.ofString(
          "hbase.regionserver.ipc.address",
          "127.0.0.1",
          "Address both RPC servers and the embedded ZooKeeper listen on. The default keeps a"
              + " standalone server private to this machine; 0.0.0.0 listens everywhere.");

  public static final ConfigKey<String> HOSTNAME =
      ConfigKey.ofString(
          "hbase.regionserver.hostname",
          "",
          "Host name clients are told to connect to (in ZooKeeper and hbase:meta); empty means the"
              + " bind address, or this machine's name when binding to 0.0.0.0.");

  public static final ConfigKey<Boolean> EMBEDDED_ZOOKEEPER =
      ConfigKey.ofBoolean(
          "basalt.zookeeper.embedded",
          true,
          "Run a ZooKeeper server in the standalone JVM and publish HBase's znodes there, so a"
              + " client configured only with hbase.zookeeper.quorum connects. When false,"
              + " clients use the RPC registry (hbase.client.bootstrap.servers).");

  public static final ConfigKey<Integer> ZOOKEEPER_PORT =
      ConfigKey.ofInt(
              "hbase.zookeeper.property.clientPort",
              2181,
              "port",
              "Client port of the embedded ZooKeeper; 0 picks a free port.")
          .between(0, 65535);

  public static final ConfigKey<String> ZNODE_PARENT =
      ConfigKey.ofString(
          "zookeeper.znode.parent",
          "/hbase",
          "Root znode under which the cluster id, master and meta location are published.");

  public static final ConfigKey<String> ZOOKEEPER_DATA_DIR =
      ConfigKey.ofString(
          "hbase.zookeeper.property.dataDir",
          "",
          "Data directory of the embedded ZooKeeper; empty means zookeeper/ under the root"
              + " directory.");

  public static final ConfigKey<Long> SCANNER_LEASE =
      ConfigKey.ofLong(
              "hbase.client.scanner.timeout.period",
              60_000L,
              "ms",
              "How long an open scanner may sit idle before the server closes it (the client's next"
                  + " call then gets UnknownScannerException and reopens).")
          .atLeast(1000L);

  public static final ConfigKey<Long> SCANNER_MAX_RESULT_SIZE =
      ConfigKey.ofLong(
              "hbase.server.scanner.max.result.size",
              ScanService.DEFAULT_MAX_RESULT_SIZE,
              "bytes",
              "Most cell bytes one scan call answers with, whatever size the client asks for (its"
                  + " hbase.client.scanner.max.result.size is used when smaller). A row past it goes"
                  + " to clients that put partial results together in parts, as in HBase.")
          .atLeast(1L);

  @Override
  public String section() {
    return "Standalone server";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        ROOT_DIR,
        MASTER_PORT,
        REGIONSERVER_PORT,
        BIND_ADDRESS,
        HOSTNAME,
        EMBEDDED_ZOOKEEPER,
        ZOOKEEPER_PORT,
        ZNODE_PARENT,
        ZOOKEEPER_DATA_DIR,
        SCANNER_LEASE,
        SCANNER_MAX_RESULT_SIZE);
  }
}
