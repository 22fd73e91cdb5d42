package dev.basalt.shell.verify;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;

/**
 * {@code --peer=ID}: the peer cluster of a replication peer configured on the source, as HBase's
 * tool takes a peer id: its cluster key from the source's peer list, and the peer's own client
 * settings (its CONFIG) for the connection to it.
 */
final class PeerLookup {
  private PeerLookup() {}

  /** Whether the client said the peer does not exist (rebuilt locally or as a remote error). */
  private static boolean notFound(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getClass().getSimpleName().equals("ReplicationPeerNotFoundException")) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code text} names a peer rather than a cluster (no ':' as every address has). */
  static boolean isPeerId(String text) {
    return !text.isEmpty() && text.indexOf(':') < 0 && text.indexOf(',') < 0 && !text.isBlank();
  }

  /**
   * Looks {@code id} up on the source within {@code timeout}, copies the peer's settings into
   * {@code peerConf}, and returns where the peer is.
   *
   * @throws VerifyException when the peer is not there, has no cluster key, or the lookup fails
   */
  static ClusterAddress resolve(
      ClusterConnection source, String id, Configuration peerConf, Duration timeout)
      throws VerifyException {
    CompletableFuture<ReplicationPeerConfig> lookup =
        CompletableFuture.supplyAsync(
            () -> {
              try (Admin admin = source.connection().getAdmin()) {
                return admin.getReplicationPeerConfig(id);
              } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
              }
            });
    ReplicationPeerConfig config;
    String where = " on the source cluster (" + source.address() + ")";
    try {
      config = lookup.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new VerifyException(
          "replication peer '"
              + id
              + "' could not be looked up"
              + where
              + " within "
              + timeout.toSeconds()
              + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VerifyException("interrupted while looking up replication peer '" + id + "'");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (notFound(cause)) {
        throw new VerifyException(
            "replication peer '" + id + "' is not configured" + where + "; list_peers shows them");
      }
      throw new VerifyException(
          "replication peer '"
              + id
              + "' could not be looked up"
              + where
              + ": "
              + ClusterConnection.firstLine(cause),
          cause);
    }
    String key = config.getClusterKey();
    if (key == null || key.isEmpty()) {
      throw new VerifyException(
          "replication peer '"
              + id
              + "' has no cluster key (a custom endpoint); give --peer=CLUSTER");
    }
    for (Map.Entry<String, String> e : config.getConfiguration().entrySet()) {
      peerConf.set(e.getKey(), e.getValue());
    }
    return ClusterAddress.parse("replication peer '" + id + "'", key);
  }
}
