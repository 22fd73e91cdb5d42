package dev.basalt.server.regionserver;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.BasaltIOException;

/**
 * The answers a cluster region server gives a client about where a region is, with HBase's classes
 * and texts (HRegionServer.getRegionByEncodedName and RSRpcServices.checkOpen in HBase 2.6). The
 * client decides by class what to do with its location cache (docs: distributed-mode.md 1.3); only
 * RegionMovedException's text is parsed, so its layout is fixed to the byte. Every one of them is
 * retried by the client.
 */
final class RegionServerExceptions {
  static final String NOT_SERVING = RegionLookup.NOT_SERVING;
  static final String OPENING = "org.apache.hadoop.hbase.exceptions.RegionOpeningException";
  static final String MOVED = "org.apache.hadoop.hbase.exceptions.RegionMovedException";
  static final String STOPPED = "org.apache.hadoop.hbase.regionserver.RegionServerStoppedException";
  static final String ABORTED = "org.apache.hadoop.hbase.regionserver.RegionServerAbortedException";
  static final String NOT_RUNNING_YET = "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException";

  private RegionServerExceptions() {}

  /**
   * "{@code <name> is not online on <server>}", where the name is the full region name (binary
   * safe) when the request gave one, else the encoded name: HBase's exact text.
   */
  static BasaltIOException notServing(String shownName, ServerName self) {
    return new BasaltIOException(shownName + " is not online on " + self, NOT_SERVING, false);
  }

  static BasaltIOException opening(String shownName, ServerName self) {
    return new BasaltIOException("Region " + shownName + " is opening on " + self, OPENING, false);
  }

  /**
   * HBase's RegionMovedException.getMessage(), which its {@code (String)} constructor parses back
   * (hostname and port end at a space, startCode and locationSeqNum at a dot).
   */
  static BasaltIOException moved(ServerName to, long locationSeqNum) {
    return new BasaltIOException(movedMessage(to, locationSeqNum), MOVED, false);
  }

  static String movedMessage(ServerName to, long locationSeqNum) {
    return "Region moved to: hostname="
        + to.host()
        + " port="
        + to.port()
        + " startCode="
        + to.startCode()
        + ". As of locationSeqNum="
        + locationSeqNum
        + ".";
  }

  static BasaltIOException stopping(ServerName self) {
    return new BasaltIOException("Server " + self + " stopping", STOPPED, false);
  }

  static BasaltIOException aborting(ServerName self) {
    return new BasaltIOException("Server " + self + " aborting", ABORTED, false);
  }

  static BasaltIOException notRunningYet(ServerName self) {
    return new BasaltIOException("Server " + self + " is not running yet", NOT_RUNNING_YET, false);
  }
}
