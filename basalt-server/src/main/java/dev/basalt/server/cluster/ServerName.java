package dev.basalt.server.cluster;

import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * A server as HBase names it: host, RPC port and start code (the start time in ms, which tells a
 * restarted server from its previous life on the same host and port). Immutable.
 *
 * @param host the name clients connect to; must resolve on the client's machine
 */
public record ServerName(String host, int port, long startCode) {
  public ServerName {
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("a server name needs a host");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is outside 0..65535");
    }
  }

  public HBaseProtos.ServerName toProto() {
    return HBaseProtos.ServerName.newBuilder()
        .setHostName(host)
        .setPort(port)
        .setStartCode(startCode)
        .build();
  }

  /**
   * {@code host:port}, as hbase:meta's {@code info:server} and bootstrap settings spell it; an IPv6
   * literal in brackets ({@code [::1]:16020}), as HBase's address parser expects.
   */
  public String hostAndPort() {
    return hostAndPort(host, port);
  }

  /** {@code host:port}, with an IPv6 literal host in brackets. */
  public static String hostAndPort(String host, int port) {
    boolean ipv6 = host.indexOf(':') >= 0 && !host.startsWith("[");
    return (ipv6 ? "[" + host + "]" : host) + ":" + port;
  }

  /** {@code host,port,startcode}, HBase's string form (meta's {@code info:sn}, logs). */
  @Override
  public String toString() {
    return host + "," + port + "," + startCode;
  }
}
