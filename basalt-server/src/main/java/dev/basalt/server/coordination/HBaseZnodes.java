package dev.basalt.server.coordination;

import dev.basalt.cell.Bytes;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The znodes through which the stock HBase client's default registry ({@code ZKConnectionRegistry})
 * finds a cluster (docs: hbase-wire-protocol.md section 3.1.1), written on one ZooKeeper session:
 *
 * <ul>
 *   <li>{@code <parent>/hbaseid}: {@code "PBUF" + ClusterId}, persistent;
 *   <li>{@code <parent>/master}: {@code "PBUF" + Master{master, rpc_version 0, info_port 0}},
 *       ephemeral;
 *   <li>{@code <parent>/meta-region-server}: {@code "PBUF" + MetaRegionServer{region server,
 *       rpc_version 0, state OPEN}}, ephemeral.
 * </ul>
 *
 * The ephemeral nodes belong to this object's session: they vanish when it is {@link #close
 * closed}, or when the process dies and ZooKeeper expires the session. A previous run's nodes (left
 * by a session not yet expired after a crash, or by another writer) are deleted and written anew.
 * Data carry no HBase metadata header (the {@code 0xFF} writer id), which the client treats as
 * optional.
 *
 * <p>If this session expires while the process lives (a long pause), ZooKeeper removes the
 * ephemeral nodes and they are not written again: the expiry is logged and {@link
 * #isSessionExpired()} turns true; the owner must publish again.
 *
 * <p>Thread-safe.
 */
public final class HBaseZnodes implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HBaseZnodes.class);

  /** HBase's default {@code zookeeper.znode.parent}. */
  public static final String DEFAULT_PARENT = "/hbase";

  /** The last path component of each znode, as HBase's defaults name them. */
  public static final String CLUSTER_ID = "hbaseid";

  public static final String MASTER = "master";
  public static final String META_REGION_SERVER = "meta-region-server";
  public static final String BACKUP_MASTERS = "backup-masters";
  public static final String REGION_SERVERS = "rs";
  public static final String RUNNING = "running";

  /** HBase's magic before a protobuf znode value ({@code ProtobufMagic.PB_MAGIC}). */
  private static final byte[] PB_MAGIC = Bytes.toBytes("PBUF");

  /** HBase's default {@code zookeeper.session.timeout}; the server may negotiate it down. */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(90);

  private final ZooKeeperSession session;
  private final String parent;

  private HBaseZnodes(ZooKeeperSession session, String parent) {
    this.session = session;
    this.parent = parent;
  }

  /**
   * {@link #publish(String, String, ClusterInfo, Duration, Duration)} with HBase's session timeout.
   */
  public static HBaseZnodes publish(
      String connectString, String parent, ClusterInfo cluster, Duration timeout)
      throws IOException {
    return publish(connectString, parent, cluster, timeout, DEFAULT_SESSION_TIMEOUT);
  }

  /**
   * Opens a session on the ZooKeeper quorum and writes the cluster's znodes under {@code parent},
   * creating the parent (and its ancestors) if missing.
   *
   * @param connectString ZooKeeper's {@code host:port[,host:port...]} (HBase's quorum plus client
   *     port)
   * @param parent the parent znode, HBase's {@code zookeeper.znode.parent} ({@link
   *     #DEFAULT_PARENT})
   * @param timeout how long connecting, and then each ZooKeeper request, may take
   * @param sessionTimeout the session timeout asked for: how long the ephemeral nodes outlive a
   *     crashed process
   * @throws IOException naming the quorum when it cannot be reached within {@code timeout} or a
   *     write fails; nothing is left open then
   */
  public static HBaseZnodes publish(
      String connectString,
      String parent,
      ClusterInfo cluster,
      Duration timeout,
      Duration sessionTimeout)
      throws IOException {
    Objects.requireNonNull(connectString, "connectString");
    Objects.requireNonNull(cluster, "cluster");
    String root = checkParent(parent);
    ZooKeeperSession session = ZooKeeperSession.connect(connectString, timeout, sessionTimeout);
    session.onExpired(
        () ->
            LOG.error(
                "the session holding HBase's znodes expired; clients cannot find the master and"
                    + " hbase:meta until they are published again"));
    HBaseZnodes znodes = new HBaseZnodes(session, root);
    try {
      znodes.write(cluster);
      LOG.info(
          "published cluster {} under {} on ZooKeeper {} (session 0x{})",
          cluster.clusterId(),
          root,
          connectString,
          Long.toHexString(session.sessionId()));
      return znodes;
    } catch (IOException | RuntimeException e) {
      znodes.close();
      throw e;
    }
  }

  /**
   * Lists a standalone server's region server as {@code <parent>/rs/<host,port,startcode>}
   * (ephemeral, on this session): replication sources of other clusters find their sinks there.
   */
  public void registerRegionServer(ServerName server) throws IOException {
    session.createPersistentPath(path(REGION_SERVERS));
    session.replaceEphemeral(path(REGION_SERVERS) + "/" + server, new byte[0]);
  }

  /** The full path of a child of the parent znode, e.g. {@code path(MASTER)}. */
  public String path(String child) {
    return parent.equals("/") ? "/" + child : parent + "/" + child;
  }

  public String parent() {
    return parent;
  }

  /** True once ZooKeeper expired this session (its ephemeral nodes are gone). */
  public boolean isSessionExpired() {
    return session.isExpired();
  }

  /**
   * Closes the session; ZooKeeper removes the ephemeral nodes (master, meta-region-server) with it.
   * The cluster id stays. Idempotent.
   */
  @Override
  public void close() {
    session.close();
  }

  // ---- what the znodes hold -----------------------------------------------------------------

  /** {@code "PBUF" + ClusterId{cluster_id}}. */
  public static byte[] clusterIdData(String clusterId) {
    return withMagic(ClusterIdProtos.ClusterId.newBuilder().setClusterId(clusterId).build());
  }

  /** {@code "PBUF" + Master{master, rpc_version 0, info_port 0}}. */
  public static byte[] masterData(ClusterInfo cluster) {
    return masterData(cluster.master());
  }

  /** {@code "PBUF" + Master{master, rpc_version 0, info_port 0}}. */
  public static byte[] masterData(ServerName master) {
    return withMagic(
        ZooKeeperProtos.Master.newBuilder()
            .setMaster(master.toProto())
            .setRpcVersion(0)
            .setInfoPort(0)
            .build());
  }

  /** The master a {@code master} or {@code backup-masters} znode names. */
  public static ServerName parseMaster(byte[] data) throws IOException {
    ZooKeeperProtos.Master m = ZooKeeperProtos.Master.parseFrom(stripMagic(data));
    return new ServerName(
        m.getMaster().getHostName(), m.getMaster().getPort(), m.getMaster().getStartCode());
  }

  /** {@code "PBUF" + ClusterUp{start_date}}: the cluster is up ({@code running}). */
  public static byte[] clusterUpData(String startDate) {
    return withMagic(ZooKeeperProtos.ClusterUp.newBuilder().setStartDate(startDate).build());
  }

  /** {@code "PBUF" + MetaRegionServer{region server, rpc_version 0, state OPEN}}. */
  public static byte[] metaRegionServerData(ClusterInfo cluster) {
    return metaRegionServerData(cluster.regionServer());
  }

  /** {@code "PBUF" + MetaRegionServer{server, rpc_version 0, state OPEN}}. */
  public static byte[] metaRegionServerData(ServerName server) {
    return withMagic(
        ZooKeeperProtos.MetaRegionServer.newBuilder()
            .setServer(server.toProto())
            .setRpcVersion(0)
            .setState(ClusterStatusProtos.RegionState.State.OPEN)
            .build());
  }

  /**
   * The protobuf bytes of a znode value, after the optional metadata header and the "PBUF" magic.
   *
   * @throws IOException when the value does not start with the magic
   */
  public static byte[] stripMagic(byte[] data) throws IOException {
    long start = 0; // long: a corrupt header length must not wrap around
    if (data.length > 0 && data[0] == (byte) 0xFF && data.length >= 5) {
      start = 5L + Bytes.readInt(data, 1); // HBase's metadata header: 0xFF, int32 length, writer id
    }
    if (start < 0 || data.length < start + PB_MAGIC.length) {
      throw new IOException(
          "znode value does not start with PBUF (a metadata header of "
              + (start - 5)
              + " bytes in a value of "
              + data.length
              + ")");
    }
    int offset = (int) start;
    if (!Arrays.equals(data, offset, offset + PB_MAGIC.length, PB_MAGIC, 0, PB_MAGIC.length)) {
      throw new IOException("znode value does not start with PBUF");
    }
    return Arrays.copyOfRange(data, offset + PB_MAGIC.length, data.length);
  }

  private static byte[] withMagic(org.apache.hbase.thirdparty.com.google.protobuf.Message m) {
    return Bytes.concat(PB_MAGIC, m.toByteArray());
  }

  // ---- writing ------------------------------------------------------------------------------

  private void write(ClusterInfo cluster) throws IOException {
    session.createPersistentPath(parent);
    session.writePersistent(path(CLUSTER_ID), clusterIdData(cluster.clusterId()));
    session.replaceEphemeral(path(MASTER), masterData(cluster));
    session.replaceEphemeral(path(META_REGION_SERVER), metaRegionServerData(cluster));
  }

  static String checkParent(String parent) {
    String p = parent == null || parent.isEmpty() ? DEFAULT_PARENT : parent;
    if (!p.startsWith("/") || (p.length() > 1 && p.endsWith("/")) || p.contains("//")) {
      throw new IllegalArgumentException(
          "parent znode must be an absolute path like /hbase, not " + parent);
    }
    return p;
  }
}
