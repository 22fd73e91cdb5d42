package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds region servers whose process is gone without waiting for their ZooKeeper session to expire:
 * a server's port that refuses connections while its host answers means nothing listens there any
 * more (a killed process's sockets are closed by the OS at once; a live server keeps its port open
 * until it has stopped). Such a server is declared dead, and its recovery starts in well under a
 * second instead of after the session timeout.
 *
 * <p>Only a refusal counts. A connection that times out (a paused process's port still accepts into
 * its backlog, an unreachable host) proves nothing: such a server is left to its session's expiry,
 * and its recovery is made safe by the log fence ({@link WalFence}), not by this probe.
 */
final class ServerProbe {
  private static final Logger LOG = LoggerFactory.getLogger(ServerProbe.class);

  private final ServerManager servers;
  private final int connectTimeoutMillis;

  ServerProbe(ServerManager servers, int connectTimeoutMillis) {
    this.servers = servers;
    this.connectTimeoutMillis = connectTimeoutMillis;
  }

  /** Probes every live server once. */
  void probeAll() {
    for (ServerName s : servers.liveServers().keySet()) {
      if (refuses(s)) {
        LOG.info("region server {} refuses connections on its port: its process is gone", s);
        servers.died(s);
      }
    }
  }

  private boolean refuses(ServerName s) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(s.host(), s.port()), connectTimeoutMillis);
      return false;
    } catch (ConnectException e) {
      // "Connection refused": nothing listens on the port (not "timed out": unreachable)
      return e.getMessage() != null && e.getMessage().contains("refused");
    } catch (IOException | RuntimeException e) {
      return false; // timeout, unknown host, unreachable: not proof of death
    }
  }
}
