package dev.basalt.server.regionserver;

import dev.basalt.cell.Bytes;
import dev.basalt.db.RegionHost;
import dev.basalt.db.RegionMetrics;
import dev.basalt.region.Region;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;

/**
 * The regions a cluster region server serves ({@link RegionHost}), found by the name a request
 * carries, and what the server answers about a region it does not serve, exactly as HBase's region
 * server does (HRegionServer.getRegionByEncodedName, RSRpcServices.checkOpen):
 *
 * <pre>
 * situation                                      answer (all retried by the client)
 * server started, not yet registered             ServerNotRunningYetException "Server SN is not running yet"
 * graceful stop past moving the regions away     RegionServerStoppedException "Server SN stopping"
 * aborted (session expired, declared dead)       RegionServerAbortedException "Server SN aborting"
 * region closed here for a move, < 2 min ago     RegionMovedException "Region moved to: hostname=H port=P
 *                                                  startCode=S. As of locationSeqNum=N."
 * region being opened here                       RegionOpeningException "Region NAME is opening on SN"
 * otherwise not here (hbase:meta included: it    NotServingRegionException "NAME is not online on SN"
 *   lives on the master)
 * </pre>
 *
 * NAME is the full region name as the request gave it (binary-safe), or the encoded name when the
 * request named the region by that. While a region closes it is served until its final flush holds
 * operations off (as in HBase, whose pre-flush runs with the region online); an operation caught by
 * the close gets the region's own NotServingRegionException.
 *
 * <p>It also keeps what the region server's assignment handlers need to decide on the master's
 * commands: regions in transition, the open sequence number each region was reported with, and the
 * last close of each region (for repeated CloseRegion commands). Decisions are taken under {@link
 * #lock()}; lookups never take it. Thread-safe.
 */
public final class HostedRegions implements ServedRegions {
  /** Where the server is in its life. */
  private enum Phase {
    STARTING,
    ONLINE,
    STOPPING,
    ABORTED
  }

  /** A region closed here: what to say when the master asks to close it again. */
  record Closed(RegionInfo info, long lastSequenceId) {}

  private static final int ENCODED_LENGTH = 32;

  private final Supplier<ServerName> self;
  private final MovedRegions moved;
  private final ConcurrentHashMap<String, InTransition> transitions = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> openSeqNums = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Closed> closedHere = new ConcurrentHashMap<>();
  private volatile RegionHost host;
  private volatile Phase phase = Phase.STARTING;
  private volatile PauseGuard pauseGuard;

  /**
   * @param self this server's name, asked on each answer (the host name may be settled only by the
   *     startup call)
   */
  public HostedRegions(Supplier<ServerName> self, Clock clock) {
    this.self = Objects.requireNonNull(self, "self");
    this.moved = new MovedRegions(clock);
  }

  // ---- life cycle ---------------------------------------------------------------------------

  /** Serves the host's regions from now on (the server has registered with the master). */
  public void attach(RegionHost regionHost) {
    this.host = Objects.requireNonNull(regionHost, "regionHost");
    if (phase == Phase.STARTING) {
      phase = Phase.ONLINE;
    }
  }

  /** From now on, nothing is served after a pause before the guard has confirmed the session. */
  public void guardWith(PauseGuard guard) {
    this.pauseGuard = guard;
  }

  /** Clients are told the server is stopping from now on (graceful stop, last phase). */
  public void stopping() {
    if (phase != Phase.ABORTED) {
      phase = Phase.STOPPING;
    }
  }

  /** Clients are told the server is aborting from now on. */
  public void aborted() {
    phase = Phase.ABORTED;
  }

  public boolean isAborted() {
    return phase == Phase.ABORTED;
  }

  /** The region host, or null before {@link #attach}. */
  public RegionHost host() {
    return host;
  }

  public ServerName self() {
    return self.get();
  }

  /**
   * @throws BasaltIOException ServerNotRunningYet, RegionServerStopped or RegionServerAborted when
   *     the server does not serve (also after a pause, until its session is confirmed: {@link
   *     PauseGuard})
   */
  @Override
  public void checkServing() throws BasaltIOException {
    switch (phase) {
      case STARTING -> throw RegionServerExceptions.notRunningYet(self());
      case STOPPING -> throw RegionServerExceptions.stopping(self());
      case ABORTED -> throw RegionServerExceptions.aborting(self());
      case ONLINE -> {
        PauseGuard g = pauseGuard;
        if (g != null) {
          g.check();
        }
      }
    }
  }

  /** As {@link #checkServing}, but a stopping server still closes regions. */
  void checkAcceptsCloses() throws BasaltIOException {
    if (phase != Phase.STOPPING) {
      checkServing();
    }
  }

  /** Whether no region is open or in transition here (a graceful stop waits for it). */
  public boolean isEmpty() {
    RegionHost h = host;
    return transitions.isEmpty() && (h == null || h.regions().isEmpty());
  }

  // ---- lookups ------------------------------------------------------------------------------

  @Override
  public Region region(RegionSpecifier spec) throws IOException {
    checkServing();
    byte[] fullName = null;
    String encoded;
    String shown;
    switch (spec.getType()) {
      case REGION_NAME -> {
        fullName = spec.getValue().toByteArray();
        encoded = encodedNameOf(fullName);
        shown = Bytes.toStringBinary(fullName);
      }
      case ENCODED_REGION_NAME -> {
        encoded = spec.getValue().toStringUtf8();
        shown = encoded;
      }
      default ->
          throw BasaltIOException.doNotRetry(
              "regions are looked up by region name or encoded region name; "
                  + spec.getType()
                  + " is not supported");
    }
    if (MetaTable.isMeta(spec)) {
      // hbase:meta is served by the active master; a client that asks here has a stale location
      throw RegionServerExceptions.notServing(shown, self());
    }
    Region r = find(encoded, fullName);
    if (r != null) {
      return r;
    }
    MovedRegions.Moved m = encoded == null ? null : moved.get(encoded);
    if (m != null) {
      throw RegionServerExceptions.moved(m.to(), m.locationSeqNum());
    }
    InTransition t = encoded == null ? null : transitions.get(encoded);
    if (t != null && t.opening) {
      throw RegionServerExceptions.opening(shown, self());
    }
    throw RegionServerExceptions.notServing(shown, self());
  }

  /** The open region with this encoded name (and full name, when given), or null. */
  private Region find(String encoded, byte[] fullName) {
    RegionHost h = host;
    if (h == null || encoded == null) {
      return null;
    }
    Region r = h.region(encoded);
    if (r == null || (fullName != null && !r.getRegionInfo().hasRegionName(fullName))) {
      return null;
    }
    return r;
  }

  /**
   * The encoded name at the end of a full region name ({@code table,start,id.ENCODED.}), as HBase's
   * RegionInfo.encodeRegionName finds it; null for a name without one.
   */
  static String encodedNameOf(byte[] fullName) {
    int n = fullName.length;
    if (n < ENCODED_LENGTH + 2
        || fullName[n - 1] != '.'
        || fullName[n - ENCODED_LENGTH - 2] != '.') {
      return null;
    }
    return new String(fullName, n - ENCODED_LENGTH - 1, ENCODED_LENGTH, StandardCharsets.US_ASCII);
  }

  @Override
  public List<RegionMetrics> regionMetrics() {
    RegionHost h = host;
    return h == null ? List.of() : h.getRegionMetrics();
  }

  @Override
  public List<RegionMetrics> regionMetrics(TableName table) {
    List<RegionMetrics> out = new ArrayList<>();
    for (RegionMetrics m : regionMetrics()) {
      if (m.getRegionInfo().getTable().equals(table)) {
        out.add(m);
      }
    }
    return out;
  }

  @Override
  public Region online(byte[] regionName) {
    return find(encodedNameOf(regionName), regionName);
  }

  @Override
  public boolean compactionsEnabled() {
    RegionHost h = host;
    return h == null || h.compactionsEnabled();
  }

  @Override
  public boolean switchCompactions(boolean on) {
    RegionHost h = host;
    return h == null ? true : h.switchCompactions(on);
  }

  @Override
  public void rollWal() {
    RegionHost h = host;
    if (h != null) {
      h.getWal().requestRoll();
    }
  }

  // ---- transitions (the assignment handlers decide under lock()) ----------------------------

  /** The lock under which opens and closes are decided. */
  Object lock() {
    return transitions;
  }

  /** The region's transition in progress, or null. */
  InTransition transition(String encodedName) {
    return transitions.get(encodedName);
  }

  /** Marks a region opening (under {@link #lock()}); clients get RegionOpeningException. */
  InTransition beginOpen(RegionInfo info, InTransition.Command command) {
    InTransition t = new InTransition(true, info, command);
    transitions.put(info.getEncodedName(), t);
    return t;
  }

  /**
   * The open ended: with the open sequence number reported, or null when it failed. The caller
   * completes {@code t.done} once it has reported the outcome, so that a close waiting for this
   * open reports after it.
   */
  void endOpen(InTransition t, Long openSeqNum) {
    synchronized (lock()) {
      String name = t.encodedName();
      if (openSeqNum != null) {
        openSeqNums.put(name, openSeqNum);
        moved.forget(name); // as HBase, when the region is online here again
        closedHere.remove(name);
      }
      transitions.remove(t.encodedName(), t);
    }
  }

  /** Marks a region closing (under {@link #lock()}); it is served until its close holds it off. */
  InTransition beginClose(RegionInfo info, InTransition.Command command) {
    InTransition t = new InTransition(false, info, command);
    transitions.put(info.getEncodedName(), t);
    return t;
  }

  /**
   * The close ended with the region's last sequence id, or -1 when it was not open after all (its
   * open had failed). After a close for a move, clients are sent to the destination for two
   * minutes. The caller completes {@code t.done} once it has reported the close.
   */
  void endClose(InTransition t, long lastSequenceId) {
    synchronized (lock()) {
      String name = t.encodedName();
      ServerName to = t.command().destination();
      Long openSeq = openSeqNums.remove(name);
      if (lastSequenceId >= 0) {
        if (to != null && !sameAddress(to, self())) {
          // The client replaces its cached location only by one at least as new: the close's
          // sequence id can be below the open sequence number meta gave (no edit since the open).
          moved.record(name, to, Math.max(lastSequenceId, openSeq == null ? 0 : openSeq));
        }
        closedHere.put(name, new Closed(t.info, lastSequenceId));
      }
      transitions.remove(name, t);
    }
  }

  /** The close failed; the region stays open and served. The caller completes {@code t.done}. */
  void closeFailed(InTransition t) {
    synchronized (lock()) {
      transitions.remove(t.encodedName(), t);
    }
  }

  /** The transitions in progress. */
  List<InTransition> transitions() {
    return new ArrayList<>(transitions.values());
  }

  /** The open sequence number reported for an open region, or -1 when unknown. */
  long openSeqNum(String encodedName) {
    Long s = openSeqNums.get(encodedName);
    return s == null ? -1 : s;
  }

  /** The last close of a region here, or null. */
  Closed closedHere(String encodedName) {
    return closedHere.get(encodedName);
  }

  private static boolean sameAddress(ServerName a, ServerName b) {
    return a.port() == b.port() && a.host().equalsIgnoreCase(b.host());
  }
}
