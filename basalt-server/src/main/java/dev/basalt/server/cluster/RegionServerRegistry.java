package dev.basalt.server.cluster;

import dev.basalt.server.regionserver.MasterLink;
import dev.basalt.server.rpc.RpcService;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * ClientMetaService (the RPC connection registry) on a cluster region server's port, so any region
 * server works as a {@code hbase.client.bootstrap.servers} address: the cluster id, the masters as
 * ZooKeeper lists them (active and standby), hbase:meta's location (the active master serves it),
 * and as bootstrap nodes this server and the active master. Without an active master the master and
 * meta calls fail with MasterNotRunningException, which the client retries.
 */
final class RegionServerRegistry implements ClientMetaServiceHandlers.Source {
  private final String clusterId;
  private final Supplier<ServerName> self;
  private final Supplier<MasterLink> masters;

  /**
   * @param masters the region server's link to the masters; may give null while the server starts
   */
  RegionServerRegistry(String clusterId, Supplier<ServerName> self, Supplier<MasterLink> masters) {
    this.clusterId = clusterId;
    this.self = self;
    this.masters = masters;
  }

  RpcService service() {
    return new ClientMetaServiceHandlers(this).service();
  }

  @Override
  public String clusterId() {
    return clusterId;
  }

  @Override
  public ServerName activeMaster() throws IOException {
    MasterLink.ActiveMaster m = link().activeMaster();
    if (m == null) {
      throw ClientMetaServiceHandlers.masterNotRunning("no active master");
    }
    return m.name();
  }

  @Override
  public List<ServerName> backupMasters() throws IOException {
    return link().backupMasters();
  }

  /** The active master serves hbase:meta. */
  @Override
  public ServerName metaServer() throws IOException {
    return activeMaster();
  }

  /** This server and the active master, when there is one. */
  @Override
  public List<ServerName> bootstrapNodes() throws IOException {
    List<ServerName> nodes = new ArrayList<>(List.of(self.get()));
    MasterLink link = masters.get();
    MasterLink.ActiveMaster m = link == null ? null : link.activeMaster();
    if (m != null) {
      nodes.add(m.name());
    }
    return nodes;
  }

  private MasterLink link() throws IOException {
    MasterLink link = masters.get();
    if (link == null) {
      throw ClientMetaServiceHandlers.masterNotRunning("this region server is starting");
    }
    return link;
  }
}
