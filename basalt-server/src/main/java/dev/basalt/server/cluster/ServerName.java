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

  /**
   * Parses HBase's string form {@code host,port,startcode} ({@link #toString}).
   *
   * @throws IllegalArgumentException naming the text when it is not one
   */
  public static ServerName parse(String text) {
    int last = text.lastIndexOf(',');
    int first = last < 0 ? -1 : text.lastIndexOf(',', last - 1);
    if (first <= 0) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a server name (host,port,startcode)");
    }
    try {
      return new ServerName(
          text.substring(0, first),
          Integer.parseInt(text.substring(first + 1, last)),
          Long.parseLong(text.substring(last + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a server name (host,port,startcode)", e);
    }
  }

  /** Whether both name the same host and port (a server and its next life, say). */
  public boolean sameAddress(ServerName other) {
    return host.equals(other.host) && port == other.port;
  }

  /** {@code host,port,startcode}, HBase's string form (meta's {@code info:sn}, logs). */
  @Override
  public String toString() {
    return host + "," + port + "," + startCode;
  }
}
