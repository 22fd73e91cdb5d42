package dev.basalt.server.cluster;

/**
 * Who is who in a running Basalt cluster, as the registry, the master and the region servers report
 * it to clients. In standalone mode the master and the one region server live in one JVM on two
 * ports.
 *
 * @param clusterId the database's cluster id (its {@code basalt.id})
 * @param master the active master's RPC endpoint (MasterService, ClientMetaService)
 * @param regionServer the region server's RPC endpoint (ClientService, AdminService); it also
 *     serves hbase:meta
 * @param version the HBase version Basalt reports to clients (the protocol it speaks)
 */
public record ClusterInfo(
    String clusterId, ServerName master, ServerName regionServer, String version) {
  /** The HBase release whose protocol and behaviour Basalt follows. */
  public static final String HBASE_VERSION = "2.6.3";
}
