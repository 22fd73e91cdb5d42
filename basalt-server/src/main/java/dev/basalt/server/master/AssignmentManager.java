package dev.basalt.server.master;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.master.AssignmentCommands.Command;
import dev.basalt.server.master.RegionAssignment.State;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives every region to where the catalog says it should be: open on one live region server when
 * its table is enabled, closed when disabled, gone when the table is. Each region has one {@link
 * RegionAssignment} record, an explicit state machine:
 *
 * <pre>
 * OFFLINE/CLOSED --assign--> OPENING(target) --OPENED(target)--> OPEN(location)
 * OPEN --unassign/move/reopen--> CLOSING(location, moveTo) --CLOSED--> CLOSED, or OPENING(moveTo)
 * OPENING --FAILED_OPEN--> OFFLINE (retried elsewhere), FAILED_OPEN after 3 in a row
 * OPEN/OPENING/CLOSING/SPLITTING/MERGING on a server that died --> ABNORMALLY_CLOSED
 * ABNORMALLY_CLOSED --its server's log recovered--> OFFLINE
 * </pre>
 *
 * Every transition is written to the master store before the command it implies is sent (named
 * fault point {@link #FAULT_AFTER_PERSIST} between the two), and commands are idempotent, so after
 * a master failover the new master re-sends what was in flight. A reconciliation pass runs every
 * second and after every event: it starts the transitions the catalog asks for, re-sends commands
 * not answered in time, and notices servers that died. Region servers' reports ({@link #opened},
 * {@link #closed}, {@link #failedOpen}) complete transitions only when they come from the
 * transition's target; a server reporting a region it should not have is told to close it, so a
 * region is served by at most one server.
 *
 * <p>A region whose server died while it was open (or opening, or closing) is not reopened until
 * the edits in that server's log are recovered ({@link CrashRecovery}): it waits as
 * ABNORMALLY_CLOSED, and is reported so in the cluster status. Thread-safe: state changes under
 * this object's lock; commands are sent outside it.
 */
final class AssignmentManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AssignmentManager.class);

  /** Fault point: a transition is persisted, its command not yet sent. */
  static final String FAULT_AFTER_PERSIST = "master.assignment.afterPersist";

  /** Opens that fail this many times in a row leave the region FAILED_OPEN. */
  static final int MAX_OPEN_FAILURES = 3;

  /** A command unanswered this long is sent again (region servers answer idempotently). */
  private final long resendMillis;

  private final ClusterCatalog catalog;
  private final MasterStore store;
  private final ServerManager servers;
  private final RegionCommands commands;
  private final Clock clock;
  private final ScheduledExecutorService ticker;
  private final AssignmentCommands sender;
  private final AtomicBoolean tickQueued = new AtomicBoolean();

  private final Map<String, RegionAssignment> states = new HashMap<>();
  private final Map<String, RegionInfo> infos = new HashMap<>();
  private final Map<String, Long> since = new HashMap<>();
  private final Set<String> toReopen = new HashSet<>();
  private final Map<TableName, Map<String, Long>> floors = new HashMap<>();
  private final List<Waiter> waiters = new ArrayList<>();
  private final Set<String> reportedAbnormal = new HashSet<>();

  /** Splits and merges in progress, by operation id: the plan sent (to send again) ... */
  private final Map<Long, RegionStateTransition> plans = new HashMap<>();

  /** ... and who waits for them (only in the master that started them). */
  private final Map<Long, CompletableFuture<List<RegionInfo>>> planWaiters = new HashMap<>();

  private long nextOp;
  private volatile boolean closed;
  private volatile boolean loaded;
  private volatile boolean started;
  private volatile RegionServerWait serverWait = RegionServerWait.NONE;
  private long startedMillis;

  /** A caller waiting for regions to reach a state. */
  private record Waiter(Predicate<AssignmentManager> done, CompletableFuture<Void> future) {}

  AssignmentManager(
      ClusterCatalog catalog,
      MasterStore store,
      ServerManager servers,
      RegionCommands commands,
      Clock clock,
      long epoch,
      long resendMillis) {
    this.catalog = catalog;
    this.store = store;
    this.servers = servers;
    this.commands = commands;
    this.clock = clock;
    this.resendMillis = resendMillis;
    // Operation ids of this master's life start above every earlier life's (the epoch grows).
    this.nextOp = epoch << 24;
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "basalt-assignment"));
    this.sender = new AssignmentCommands(commands);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** Waits for region servers before the first placements (set before {@link #start}). */
  void setServerWait(RegionServerWait wait) {
    this.serverWait = wait;
  }

  /**
   * Loads the stored records. Before it, nothing may act on the assignment: a pass would take every
   * region for a new one and place it again (a region open on two servers after a take-over), and a
   * report would be taken for a stray; so a master loads before it takes reports, and passes start
   * only with {@link #start}. Idempotent.
   */
  void load() throws IOException {
    if (loaded) {
      return;
    }
    Map<String, String> stored = store.regions();
    Map<Long, String> storedPlans = store.plans();
    synchronized (this) {
      for (Map.Entry<String, String> e : stored.entrySet()) {
        try {
          states.put(e.getKey(), RegionAssignment.decode(e.getValue()));
        } catch (IllegalArgumentException bad) {
          LOG.error("master store: dropping the unreadable record of region {}", e.getKey(), bad);
        }
      }
      Set<Long> followed = new HashSet<>();
      for (RegionAssignment a : states.values()) {
        if (a.state() == State.SPLITTING || a.state() == State.MERGING) {
          followed.add(a.op());
        }
      }
      for (Map.Entry<Long, String> e : storedPlans.entrySet()) {
        if (!followed.contains(e.getKey())) {
          // its regions went on without it: their server died during it
          LOG.warn(
              "master store: dropping split or merge plan {}, which no region follows", e.getKey());
          store.deletePlan(e.getKey());
          continue;
        }
        plans.put(
            e.getKey(), RegionStateTransition.parseFrom(Base64.getDecoder().decode(e.getValue())));
      }
      loaded = true;
    }
    LOG.info(
        "assignment: {} region records and {} splits or merges in progress loaded",
        stored.size(),
        storedPlans.size());
  }

  /** Loads the stored records if not yet done, and starts reconciling. */
  void start() throws IOException {
    load();
    if (servers.onlyServersOfAnEarlierMaster()
        && servers.liveServers().size() >= serverWait.minToStart()) {
      // a take-over of a running cluster: its region servers are all here already
      LOG.info(
          "took over {} live region servers: placing regions at once",
          servers.liveServers().size());
      serverWait = RegionServerWait.NONE;
    }
    startedMillis = clock.currentTimeMillis();
    started = true;
    ticker.scheduleWithFixedDelay(this::tickSafely, 0, 1, TimeUnit.SECONDS);
  }

  /** Runs a reconciliation pass soon (after a report, a DDL change, a server event). */
  void kick() {
    if (!closed && started && tickQueued.compareAndSet(false, true)) {
      ticker.execute(
          () -> {
            tickQueued.set(false);
            tickSafely();
          });
    }
  }

  private void tickSafely() {
    if (closed || !started) {
      return;
    }
    try {
      tick();
    } catch (IOException | RuntimeException e) {
      LOG.error("assignment pass failed; it runs again in a second", e);
    }
  }

  // ---- the reconciliation pass --------------------------------------------------------------

  private void tick() throws IOException {
    List<Command> send = new ArrayList<>();
    Map<TableName, Map<String, Long>> floorsToWrite;
    synchronized (this) {
      // Read under the lock: a split or merge commits its catalog switch under it, and a pass
      // working from the catalog before the switch would take the new regions for dropped ones.
      List<ClusterCatalog.TableEntry> tables = catalog.tables();
      Map<String, RegionAssignment> changes = new LinkedHashMap<>();
      Set<String> present = new HashSet<>();
      Map<ServerName, Integer> load = loadByServer();
      long now = clock.currentTimeMillis();
      for (ClusterCatalog.TableEntry t : tables) {
        for (ClusterCatalog.RegionEntry r : t.regions()) {
          String name = r.info().getEncodedName();
          present.add(name);
          infos.put(name, r.info());
          RegionAssignment a = states.getOrDefault(name, RegionAssignment.NEW);
          RegionAssignment next =
              t.enabled()
                  ? towardsOpen(name, a, load, now, send)
                  : towardsClosed(name, a, now, send);
          if (next != a) {
            changes.put(name, next);
          }
        }
      }
      List<String> gone = new ArrayList<>();
      for (Map.Entry<String, RegionAssignment> e : states.entrySet()) {
        if (present.contains(e.getKey())) {
          continue;
        }
        RegionAssignment a = e.getValue();
        RegionInfo info = infos.get(e.getKey());
        if (a.state() == State.OPEN && servers.isLive(a.location()) && info != null) {
          // Its table was deleted or truncated while it was open somewhere: close it.
          RegionAssignment next = a.closing(newOp(), null, true);
          changes.put(e.getKey(), next);
          send.add(new Command(a.location(), info, false, null, next.op()));
        } else if (!((a.state() == State.OPENING || a.state() == State.CLOSING)
            && servers.isLive(a.target()))) {
          gone.add(e.getKey()); // closed, or a split or merge parent the catalog replaced
        }
      }
      persist(changes);
      if (!gone.isEmpty()) {
        store.deleteRegions(gone);
        for (String name : gone) {
          RegionAssignment a = states.remove(name);
          infos.remove(name);
          since.remove(name);
          if (a != null && plans.containsKey(a.op())) {
            finishPlan(a.op(), null); // committed before a failover: its news are the table's
          }
        }
      }
      floorsToWrite = new HashMap<>(floors);
      floors.clear();
      checkWaiters();
    }
    for (Map.Entry<TableName, Map<String, Long>> f : floorsToWrite.entrySet()) {
      try {
        if (catalog.table(f.getKey()) != null) {
          catalog.recordFloors(f.getKey(), f.getValue());
        }
      } catch (IOException e) {
        LOG.warn("could not record the sequence floors of {} yet", f.getKey(), e);
        synchronized (this) {
          floors.computeIfAbsent(f.getKey(), k -> new HashMap<>()).putAll(f.getValue());
        }
      }
    }
    dispatch(send);
  }

  /** The next step of a region of an enabled table; {@code a} when nothing changes. */
  private RegionAssignment towardsOpen(
      String name,
      RegionAssignment a,
      Map<ServerName, Integer> load,
      long now,
      List<Command> send) {
    RegionInfo info = infos.get(name);
    switch (a.state()) {
      case OFFLINE, CLOSED -> {
        if (a.held()) {
          return a;
        }
        if (!serverWait.settled(now, startedMillis, load.size(), servers.lastJoinedMillis())) {
          return a; // region servers are still joining: do not give them all to the first one
        }
        ServerName target = leastLoaded(load, null);
        if (target == null) {
          return a; // no live server yet
        }
        load.merge(target, 1, Integer::sum);
        RegionAssignment next = a.opening(target, newOp());
        send.add(new Command(target, info, true, null, next.op()));
        return next;
      }
      case OPENING -> {
        if (!servers.isLive(a.target())) {
          return abnormallyClosed(name, a); // it may have opened and taken writes there
        }
        resendIfLate(name, a, now, send, true);
        return a;
      }
      case OPEN -> {
        if (!servers.isLive(a.location())) {
          return abnormallyClosed(name, a);
        }
        if (toReopen.remove(name)) {
          RegionAssignment next = a.closing(newOp(), null, false);
          next = withMoveTo(next, a.location());
          send.add(new Command(a.location(), info, false, null, next.op()));
          return next;
        }
        return a;
      }
      case CLOSING -> {
        if (!servers.isLive(a.target())) {
          return abnormallyClosed(name, a);
        }
        resendIfLate(name, a, now, send, false);
        return a;
      }
      case SPLITTING, MERGING -> {
        if (!servers.isLive(a.target())) {
          return abnormallyClosed(name, a);
        }
        RegionStateTransition plan = plans.get(a.op());
        if (plan == null) {
          LOG.warn("region {} was {} without a stored plan; serving it again", name, a.state());
          return a.reverted();
        }
        Long start = since.get(name);
        if (start == null || now - start > resendMillis) {
          since.put(name, now);
          send.add(Command.handOver(a.target(), plan, a.op()));
        }
        return a;
      }
      default -> {
        return a; // FAILED_OPEN waits for an assign; ABNORMALLY_CLOSED for log recovery
      }
    }
  }

  /** The next step of a region of a disabled table. */
  private RegionAssignment towardsClosed(
      String name, RegionAssignment a, long now, List<Command> send) {
    RegionInfo info = infos.get(name);
    switch (a.state()) {
      case OPEN -> {
        if (!servers.isLive(a.location())) {
          return abnormallyClosed(name, a);
        }
        RegionAssignment next = a.closing(newOp(), null, false);
        send.add(new Command(a.location(), info, false, null, next.op()));
        return next;
      }
      case OPENING -> {
        if (!servers.isLive(a.target())) {
          return abnormallyClosed(name, a);
        }
        resendIfLate(name, a, now, send, true); // closed once it reports OPENED
        return a;
      }
      case CLOSING -> {
        if (!servers.isLive(a.target())) {
          return abnormallyClosed(name, a);
        }
        RegionAssignment next = a.moveTo() == null ? a : withMoveTo(a, null);
        resendIfLate(name, next, now, send, false);
        return next;
      }
      default -> {
        toReopen.remove(name);
        return a;
      }
    }
  }

  /**
   * A region whose server died while it was open, opening, closing or handing it over: it stays
   * closed until {@link CrashRecovery} has split that server's log ({@link #logRecovered}).
   */
  private RegionAssignment abnormallyClosed(String name, RegionAssignment a) {
    ServerName server = a.state() == State.OPEN ? a.location() : a.target();
    if (a.state() == State.SPLITTING || a.state() == State.MERGING) {
      abandonPlan(a.op(), server);
    }
    if (reportedAbnormal.add(name)) {
      LOG.info(
          "region {}: its server {} died while it was {}; it opens again once that server's log is"
              + " recovered",
          name,
          server,
          a.state());
    }
    return a.abnormallyClosedOn(server);
  }

  /**
   * A region server died: its regions are ABNORMALLY_CLOSED at once (persisted), before its log's
   * recovery can finish, so that no pass reopens one of them without its edits.
   */
  void serverDied(ServerName server) {
    synchronized (this) {
      Map<String, RegionAssignment> changes = new LinkedHashMap<>();
      for (Map.Entry<String, RegionAssignment> e : states.entrySet()) {
        RegionAssignment a = e.getValue();
        ServerName at = a.state() == State.OPEN ? a.location() : a.target();
        if (server.equals(at) && a.state() != State.ABNORMALLY_CLOSED) {
          changes.put(e.getKey(), abnormallyClosed(e.getKey(), a));
        }
      }
      try {
        persist(changes);
      } catch (IOException e) {
        LOG.warn("could not record the regions of dead server {}; the next pass does", server, e);
      }
    }
    kick();
  }

  /** Work on storage that may fail. */
  interface StorageAction {
    void run() throws IOException;
  }

  /**
   * Runs the action unless a split or merge of the table is in flight (its new regions are being
   * written, not yet listed), holding off new ones while it runs.
   *
   * @return whether it ran
   */
  synchronized boolean unlessHandingOver(TableName table, StorageAction action) throws IOException {
    for (RegionStateTransition plan : plans.values()) {
      if (plan.getRegionInfoCount() > 0
          && SchemaCodec.toTableName(plan.getRegionInfo(0).getTableName()).equals(table)) {
        return false;
      }
    }
    action.run();
    return true;
  }

  /** The dead servers whose regions wait for their logs' recovery. */
  synchronized Set<ServerName> awaitingRecovery() {
    Set<ServerName> out = new HashSet<>();
    for (RegionAssignment a : states.values()) {
      if (a.state() == State.ABNORMALLY_CLOSED && a.location() != null) {
        out.add(a.location());
      }
    }
    return out;
  }

  /**
   * The dead server's log is split: its regions may open again (they replay their recovered edits
   * before serving). Idempotent.
   */
  void logRecovered(ServerName server) throws IOException {
    synchronized (this) {
      Map<String, RegionAssignment> changes = new LinkedHashMap<>();
      for (Map.Entry<String, RegionAssignment> e : states.entrySet()) {
        RegionAssignment a = e.getValue();
        if (a.state() == State.ABNORMALLY_CLOSED && server.equals(a.location())) {
          changes.put(e.getKey(), a.offline());
          reportedAbnormal.remove(e.getKey());
        }
      }
      persist(changes);
      if (!changes.isEmpty()) {
        LOG.info("{} regions of dead server {} can open again", changes.size(), server);
      }
    }
    kick();
  }

  private static RegionAssignment withMoveTo(RegionAssignment a, ServerName moveTo) {
    return new RegionAssignment(
        a.state(),
        a.target(),
        a.location(),
        a.openSeqNum(),
        a.op(),
        moveTo,
        a.held(),
        a.failures());
  }

  private void resendIfLate(
      String name, RegionAssignment a, long now, List<Command> send, boolean open) {
    Long start = since.get(name);
    if (start == null) {
      since.put(name, now); // a transition loaded from the store: send it again now
      send.add(new Command(a.target(), infos.get(name), open, open ? null : a.moveTo(), a.op()));
    } else if (now - start > resendMillis) {
      since.put(name, now);
      LOG.info(
          "region {}: no answer from {} yet; sending {} again",
          name,
          a.target(),
          open ? "open" : "close");
      send.add(new Command(a.target(), infos.get(name), open, open ? null : a.moveTo(), a.op()));
    }
  }

  /** Open and opening regions per assignable server. */
  private Map<ServerName, Integer> loadByServer() {
    Map<ServerName, Integer> load = new LinkedHashMap<>();
    for (ServerName s : servers.assignable()) {
      load.put(s, 0);
    }
    for (RegionAssignment a : states.values()) {
      ServerName on =
          a.state() == State.OPEN ? a.location() : a.state() == State.OPENING ? a.target() : null;
      if (on != null) {
        load.computeIfPresent(on, (k, v) -> v + 1);
      }
    }
    return load;
  }

  private static ServerName leastLoaded(Map<ServerName, Integer> load, ServerName except) {
    ServerName best = null;
    int bestLoad = Integer.MAX_VALUE;
    for (Map.Entry<ServerName, Integer> e : load.entrySet()) {
      if (!e.getKey().equals(except) && e.getValue() < bestLoad) {
        best = e.getKey();
        bestLoad = e.getValue();
      }
    }
    return best;
  }

  private long newOp() {
    return ++nextOp;
  }

  /** Writes the changed records, then makes them current (under the lock). */
  private void persist(Map<String, RegionAssignment> changes) throws IOException {
    if (changes.isEmpty()) {
      return;
    }
    Map<String, String> encoded = new LinkedHashMap<>();
    for (Map.Entry<String, RegionAssignment> e : changes.entrySet()) {
      encoded.put(e.getKey(), e.getValue().encode());
    }
    store.putRegions(encoded);
    long now = clock.currentTimeMillis();
    for (Map.Entry<String, RegionAssignment> e : changes.entrySet()) {
      RegionAssignment before = states.put(e.getKey(), e.getValue());
      if (e.getValue().inTransition()
          && (before == null || before.op() != e.getValue().op() || !before.inTransition())) {
        since.put(e.getKey(), now);
      } else if (!e.getValue().inTransition()) {
        since.remove(e.getKey());
      }
    }
    dev.basalt.util.FaultPoints.hit(FAULT_AFTER_PERSIST);
  }

  private void persist(String name, RegionAssignment a) throws IOException {
    persist(Map.of(name, a));
  }

  private void dispatch(List<Command> send) {
    if (!closed) {
      sender.send(send);
    }
  }

  // ---- region servers' reports --------------------------------------------------------------

  /** A region server opened a region (its next sequence id is {@code seq}). */
  void opened(ServerName server, RegionInfo region, long seq) throws IOException {
    String name = region.getEncodedName();
    List<Command> send = new ArrayList<>();
    synchronized (this) {
      RegionAssignment a = states.get(name);
      if (a != null && a.state() == State.OPENING && server.equals(a.target())) {
        persist(name, a.open(server, seq));
        LOG.info("region {} is open on {} (sequence id {})", name, server, seq);
        checkWaiters();
      } else if (a != null && a.state() == State.OPEN && server.equals(a.location())) {
        return; // a repeated report
      } else {
        LOG.warn(
            "{} opened region {}, which the master placed {}: telling it to close the region",
            server,
            name,
            a == null ? "nowhere" : a);
        send.add(new Command(server, region, false, null, 0));
      }
    }
    dispatch(send);
    kick();
  }

  /** A region server closed a region; {@code lastSeq} is its last sequence id. */
  void closed(ServerName server, RegionInfo region, long lastSeq) throws IOException {
    String name = region.getEncodedName();
    List<Command> send = new ArrayList<>();
    synchronized (this) {
      RegionAssignment a = states.get(name);
      if (a != null && a.state() == State.OPEN && server.equals(a.location())) {
        // The server closed it on its own, flushed (a graceful stop that could not reach the
        // master): a clean close, and the region may open elsewhere.
        a = a.closing(a.op(), null, false);
      }
      if (a == null || a.state() != State.CLOSING || !server.equals(a.target())) {
        return; // a repeated report, or of a close the master did not ask for
      }
      if (lastSeq >= 0) {
        floors.computeIfAbsent(region.getTable(), k -> new HashMap<>()).put(name, lastSeq);
      }
      ClusterCatalog.TableEntry t = catalog.table(region.getTable());
      ServerName moveTo = a.moveTo();
      if (moveTo != null && t != null && t.enabled() && servers.isLive(moveTo)) {
        RegionAssignment next = a.closed().opening(moveTo, newOp());
        persist(name, next);
        send.add(new Command(moveTo, region, true, null, next.op()));
      } else {
        persist(name, a.closed());
        LOG.info("region {} is closed on {}", name, server);
      }
      checkWaiters();
    }
    dispatch(send);
    kick();
  }

  /** A region server could not open a region. */
  void failedOpen(ServerName server, RegionInfo region) throws IOException {
    String name = region.getEncodedName();
    synchronized (this) {
      RegionAssignment a = states.get(name);
      if (a == null || a.state() != State.OPENING || !server.equals(a.target())) {
        return;
      }
      boolean giveUp = a.failures() + 1 >= MAX_OPEN_FAILURES;
      persist(name, a.failedOpen(giveUp));
      if (giveUp) {
        LOG.error(
            "region {} failed to open {} times in a row; it stays FAILED_OPEN until assigned"
                + " (the region servers' logs say why)",
            name,
            MAX_OPEN_FAILURES);
        checkWaiters();
      }
    }
    kick();
  }

  // ---- operator requests --------------------------------------------------------------------

  /**
   * Moves an open region to {@code dest} (or the least loaded other server when null); the future
   * completes when it is open there.
   */
  CompletableFuture<Void> move(String encodedName, ServerName dest) throws IOException {
    List<Command> send = new ArrayList<>();
    ServerName to;
    synchronized (this) {
      RegionAssignment a = states.get(encodedName);
      RegionInfo info = infos.get(encodedName);
      if (a == null || info == null) {
        throw new BasaltIOException(
            "region " + encodedName + " does not exist",
            "org.apache.hadoop.hbase.UnknownRegionException",
            true);
      }
      if (a.state() != State.OPEN) {
        throw AssignmentRefusals.notOpen(encodedName, a, "it can move once open");
      }
      if (dest != null) {
        ServerName known = liveNamed(dest);
        if (known == null) {
          throw BasaltIOException.doNotRetry(
              "cannot move region " + encodedName + " to " + dest + ": no such live region server");
        }
        if (servers.decommissioned().contains(known)) {
          throw BasaltIOException.doNotRetry(
              "cannot move region " + encodedName + " to " + known + ": it is decommissioned");
        }
        to = known;
      } else {
        to = leastLoaded(loadByServer(), a.location());
        if (to == null) {
          throw BasaltIOException.doNotRetry(
              "cannot move region " + encodedName + ": no other region server to move it to");
        }
      }
      if (to.equals(a.location())) {
        return CompletableFuture.completedFuture(null);
      }
      RegionAssignment next = a.closing(newOp(), to, false);
      persist(encodedName, next);
      send.add(new Command(a.location(), info, false, to, next.op()));
    }
    dispatch(send);
    ServerName target = to;
    return await(
        am -> {
          RegionAssignment now = am.states.get(encodedName);
          return now == null
              || now.state() == State.ABNORMALLY_CLOSED
              || now.state() == State.FAILED_OPEN
              || (now.state() == State.OPEN && target.equals(now.location()))
              || (now.state() == State.OPEN && now.moveTo() == null && !now.inTransition());
        });
  }

  /**
   * A live server by name; a name without a start code (0) matches the live server at that address.
   */
  private ServerName liveNamed(ServerName name) {
    for (ServerName s : servers.liveServers().keySet()) {
      if (s.equals(name) || (name.startCode() == 0 && s.sameAddress(name))) {
        return s;
      }
    }
    return null;
  }

  /** Opens a region (clearing an unassign's hold and a failed open); completes when open. */
  CompletableFuture<Void> assign(String encodedName) throws IOException {
    synchronized (this) {
      RegionAssignment a = requireRegion(encodedName);
      if (a.state() == State.OPEN || a.inTransition()) {
        throw AssignmentRefusals.unexpectedState(encodedName, a, infos.get(encodedName));
      }
      if (a.state() == State.ABNORMALLY_CLOSED) {
        throw BasaltIOException.doNotRetry(
            "region "
                + encodedName
                + " waits for the recovery of its dead server's log; it cannot be assigned before");
      }
      persist(encodedName, a.assignable());
    }
    kick();
    return await(am -> am.stateOf(encodedName) == State.OPEN);
  }

  /** Closes a region and keeps it closed until assigned; completes when closed. */
  CompletableFuture<Void> unassign(String encodedName) throws IOException {
    List<Command> send = new ArrayList<>();
    synchronized (this) {
      RegionAssignment a = requireRegion(encodedName);
      if (a.state() != State.OPEN) {
        throw AssignmentRefusals.unexpectedState(encodedName, a, infos.get(encodedName));
      } else {
        RegionAssignment next = a.closing(newOp(), null, true);
        persist(encodedName, next);
        send.add(new Command(a.location(), infos.get(encodedName), false, null, next.op()));
      }
    }
    dispatch(send);
    return await(am -> !am.isServing(encodedName));
  }

  private RegionAssignment requireRegion(String encodedName) throws BasaltIOException {
    RegionAssignment a = states.get(encodedName);
    if (a == null || !infos.containsKey(encodedName)) {
      throw new BasaltIOException(
          "region " + encodedName + " does not exist",
          "org.apache.hadoop.hbase.UnknownRegionException",
          true);
    }
    return a;
  }

  /** Closes and opens again every open region of the table (after its descriptor changed). */
  CompletableFuture<Void> reopen(TableName table) {
    Set<String> names = new HashSet<>();
    synchronized (this) {
      for (Map.Entry<String, RegionInfo> e : infos.entrySet()) {
        RegionAssignment a = states.get(e.getKey());
        if (e.getValue().getTable().equals(table) && a != null && a.state() == State.OPEN) {
          toReopen.add(e.getKey());
          names.add(e.getKey());
        }
      }
    }
    kick();
    return await(
        am -> {
          for (String n : names) {
            RegionAssignment a = am.states.get(n);
            if (a != null
                && (am.toReopen.contains(n) || a.inTransition())
                && a.state() != State.ABNORMALLY_CLOSED) {
              return false;
            }
          }
          return true;
        });
  }

  // ---- splits and merges --------------------------------------------------------------------

  /**
   * Splits an open region at {@code row}: the region server that serves it hands it over to two
   * daughters, which open on that server; the future completes with them once they are open.
   */
  CompletableFuture<List<RegionInfo>> split(String encodedName, byte[] row) throws IOException {
    synchronized (this) {
      RegionAssignment a = requireOpen(encodedName);
      RegionInfo p = infos.get(encodedName);
      if (!p.containsRow(row) || Arrays.equals(row, p.getStartKey())) {
        throw BasaltIOException.doNotRetry(
            "split row '"
                + dev.basalt.cell.Bytes.toStringBinary(row)
                + "' is not strictly inside region "
                + p.getRegionNameAsString());
      }
      long id = catalog.nextRegionId();
      List<RegionInfo> news =
          List.of(
              RegionInfo.of(p.getTable(), p.getStartKey(), row, id),
              RegionInfo.of(p.getTable(), row, p.getEndKey(), id));
      return startPlan(
          RegionStateTransition.TransitionCode.READY_TO_SPLIT,
          List.of(encodedName),
          news,
          a.location(),
          State.SPLITTING);
    }
  }

  /**
   * Merges two adjacent open regions; the second moves to the first's server first when they are
   * apart. The future completes with the merged region once it is open.
   */
  CompletableFuture<List<RegionInfo>> merge(String encodedA, String encodedB) throws IOException {
    ServerName wanted;
    synchronized (this) {
      RegionAssignment a = requireOpen(encodedA);
      RegionAssignment b = requireOpen(encodedB);
      RegionInfo ia = infos.get(encodedA);
      RegionInfo ib = infos.get(encodedB);
      if (encodedA.equals(encodedB)) {
        throw AssignmentRefusals.mergeRefused("cannot merge region " + encodedA + " with itself");
      }
      if (dev.basalt.cell.Bytes.compareTo(ia.getStartKey(), ib.getStartKey()) > 0) {
        return merge(encodedB, encodedA);
      }
      if (!ia.getTable().equals(ib.getTable())
          || !Arrays.equals(ia.getEndKey(), ib.getStartKey())) {
        throw AssignmentRefusals.mergeRefused(
            "regions " + encodedA + " and " + encodedB + " are not adjacent regions of one table");
      }
      if (a.location().equals(b.location())) {
        RegionInfo merged =
            RegionInfo.of(ia.getTable(), ia.getStartKey(), ib.getEndKey(), catalog.nextRegionId());
        return startPlan(
            RegionStateTransition.TransitionCode.READY_TO_MERGE,
            List.of(encodedA, encodedB),
            List.of(merged),
            a.location(),
            State.MERGING);
      }
      wanted = a.location();
    }
    // Apart: bring the second to the first, then merge (HBase moves them together too).
    return move(encodedB, wanted)
        .thenCompose(
            moved -> {
              try {
                return merge(encodedA, encodedB);
              } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
              }
            });
  }

  private RegionAssignment requireOpen(String encodedName) throws BasaltIOException {
    RegionAssignment a = requireRegion(encodedName);
    if (a.state() != State.OPEN) {
      throw AssignmentRefusals.notOpen(encodedName, a, "it can split or merge once open");
    }
    if (!servers.isLive(a.location())) {
      throw AssignmentRefusals.onDeadServer(encodedName, a);
    }
    return a;
  }

  /** Persists the plan and the old regions' new state, then sends it (under the lock). */
  private CompletableFuture<List<RegionInfo>> startPlan(
      RegionStateTransition.TransitionCode code,
      List<String> olds,
      List<RegionInfo> news,
      ServerName server,
      State how)
      throws IOException {
    RegionStateTransition.Builder plan = RegionStateTransition.newBuilder().setTransitionCode(code);
    if (code == RegionStateTransition.TransitionCode.READY_TO_SPLIT) {
      plan.addRegionInfo(SchemaCodec.toProto(infos.get(olds.get(0))));
      news.forEach(n -> plan.addRegionInfo(SchemaCodec.toProto(n)));
    } else {
      plan.addRegionInfo(SchemaCodec.toProto(news.get(0)));
      olds.forEach(o -> plan.addRegionInfo(SchemaCodec.toProto(infos.get(o))));
    }
    long op = newOp();
    RegionStateTransition built = plan.build();
    store.putPlan(op, Base64.getEncoder().encodeToString(built.toByteArray()));
    Map<String, RegionAssignment> changes = new LinkedHashMap<>();
    for (String o : olds) {
      changes.put(o, states.get(o).handingOver(how, op));
    }
    persist(changes);
    plans.put(op, built);
    CompletableFuture<List<RegionInfo>> done = new CompletableFuture<>();
    planWaiters.put(op, done);
    LOG.info(
        "{}: {} -> {} on {}", how == State.SPLITTING ? "splitting" : "merging", olds, news, server);
    dispatch(List.of(Command.handOver(server, built, op)));
    return done;
  }

  /**
   * A region server handed regions over (SPLIT {@code [parent, a, b]} or MERGED {@code [merged, a,
   * b]}): the catalog switches to the new regions (the commit), which then open on that server.
   */
  void handedOver(
      ServerName server,
      RegionStateTransition.TransitionCode code,
      List<RegionInfo> regions,
      long floor)
      throws IOException {
    boolean split = code == RegionStateTransition.TransitionCode.SPLIT;
    List<RegionInfo> olds = split ? regions.subList(0, 1) : regions.subList(1, regions.size());
    List<RegionInfo> news = split ? regions.subList(1, regions.size()) : regions.subList(0, 1);
    List<Command> send = new ArrayList<>();
    synchronized (this) {
      long op = -1;
      for (RegionInfo o : olds) {
        RegionAssignment a = states.get(o.getEncodedName());
        if (a == null
            || (a.state() != State.SPLITTING && a.state() != State.MERGING)
            || !server.equals(a.target())) {
          return; // a repeated report
        }
        op = a.op();
      }
      List<String> oldNames = new ArrayList<>();
      olds.forEach(o -> oldNames.add(o.getEncodedName()));
      catalog.replaceRegions(olds.get(0).getTable(), oldNames, news, floor);
      store.deleteRegions(oldNames);
      for (String o : oldNames) {
        states.remove(o);
        infos.remove(o);
        since.remove(o);
      }
      Map<String, RegionAssignment> opening = new LinkedHashMap<>();
      for (RegionInfo n : news) {
        infos.put(n.getEncodedName(), n);
        RegionAssignment next = RegionAssignment.NEW.opening(server, newOp());
        opening.put(n.getEncodedName(), next);
        send.add(new Command(server, n, true, null, next.op()));
      }
      persist(opening);
      LOG.info("{} {} into {}", split ? "split" : "merged", oldNames, news);
      finishPlan(op, List.copyOf(news));
    }
    dispatch(send);
  }

  /** A region server could not hand regions over and serves them again. */
  void handOverReverted(ServerName server, List<RegionInfo> olds) throws IOException {
    synchronized (this) {
      long op = -1;
      Map<String, RegionAssignment> changes = new LinkedHashMap<>();
      for (RegionInfo o : olds) {
        RegionAssignment a = states.get(o.getEncodedName());
        if (a != null
            && (a.state() == State.SPLITTING || a.state() == State.MERGING)
            && server.equals(a.target())) {
          changes.put(o.getEncodedName(), a.reverted());
          op = a.op();
        }
      }
      if (changes.isEmpty()) {
        return;
      }
      persist(changes);
      LOG.warn("{} could not split or merge {} (see its log); they serve as before", server, olds);
      CompletableFuture<List<RegionInfo>> waiter = planWaiters.remove(op);
      plans.remove(op);
      store.deletePlan(op);
      if (waiter != null) {
        waiter.completeExceptionally(
            BasaltIOException.doNotRetry(
                "region server " + server + " could not split or merge " + olds + "; see its log"));
      }
    }
  }

  /**
   * Forgets the split or merge a dead server was carrying out (under the lock). The catalog switch
   * had not happened (it does only on the server's report), so the old regions open again as they
   * were, with their logs' edits; the new regions' directories are left to the janitor. Kept, the
   * plan held the table's janitor off for good.
   */
  private void abandonPlan(long op, ServerName server) {
    if (plans.remove(op) == null) {
      return; // the other region of a merge came first
    }
    LOG.warn(
        "the split or merge (op {}) of dead server {} is abandoned; its regions open as they were",
        op,
        server);
    try {
      store.deletePlan(op);
    } catch (IOException e) {
      LOG.warn("could not delete the abandoned plan {}; the next master drops it", op, e);
    }
    CompletableFuture<List<RegionInfo>> waiter = planWaiters.remove(op);
    if (waiter != null) {
      waiter.completeExceptionally(
          BasaltIOException.doNotRetry(
              "region server "
                  + server
                  + " died during the split or merge; its regions open again as they were"));
    }
  }

  /** Forgets a finished plan; its waiter completes once the new regions are open. */
  private void finishPlan(long op, List<RegionInfo> news) throws IOException {
    plans.remove(op);
    store.deletePlan(op);
    CompletableFuture<List<RegionInfo>> waiter = planWaiters.remove(op);
    if (waiter != null && news != null) {
      await(
              am -> {
                for (RegionInfo n : news) {
                  RegionAssignment a = am.states.get(n.getEncodedName());
                  if (a == null || (a.state() != State.OPEN && !stuck(a))) {
                    return false;
                  }
                }
                return true;
              })
          .whenComplete(
              (v, e) -> {
                if (e != null) {
                  waiter.completeExceptionally(e);
                } else {
                  waiter.complete(news);
                }
              });
    }
  }

  // ---- waiting ------------------------------------------------------------------------------

  /**
   * Completes when every region of the table is open (or can no longer open: failed, waiting
   * recovery).
   */
  CompletableFuture<Void> awaitOpen(TableName table) {
    kick();
    return await(am -> am.allOf(table, a -> a.state() == State.OPEN || stuck(a)));
  }

  /** Completes when no region of the table is served or in transition. */
  CompletableFuture<Void> awaitClosed(TableName table) {
    kick();
    return await(am -> am.allOf(table, a -> !a.inTransition() && a.state() != State.OPEN));
  }

  private static boolean stuck(RegionAssignment a) {
    return a.state() == State.FAILED_OPEN || a.state() == State.ABNORMALLY_CLOSED;
  }

  private boolean allOf(TableName table, Predicate<RegionAssignment> p) {
    ClusterCatalog.TableEntry t = catalog.table(table);
    if (t == null) {
      return true;
    }
    for (ClusterCatalog.RegionEntry r : t.regions()) {
      if (!p.test(states.getOrDefault(r.info().getEncodedName(), RegionAssignment.NEW))) {
        return false;
      }
    }
    return true;
  }

  private synchronized CompletableFuture<Void> await(Predicate<AssignmentManager> done) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    if (done.test(this)) {
      f.complete(null);
    } else {
      waiters.add(new Waiter(done, f));
    }
    return f;
  }

  private void checkWaiters() {
    waiters.removeIf(
        w -> {
          if (w.future().isDone()) {
            return true;
          }
          if (w.done().test(this)) {
            w.future().complete(null);
            return true;
          }
          return false;
        });
  }

  // ---- what others read ---------------------------------------------------------------------

  synchronized State stateOf(String encodedName) {
    RegionAssignment a = states.get(encodedName);
    return a == null ? State.OFFLINE : a.state();
  }

  private boolean isServing(String encodedName) {
    RegionAssignment a = states.get(encodedName);
    return a != null && (a.state() == State.OPEN || a.inTransition());
  }

  /** A copy of every record, by encoded name. */
  synchronized Map<String, RegionAssignment> snapshot() {
    return new HashMap<>(states);
  }

  /** The open regions of each live server (by encoded name). */
  synchronized Map<ServerName, List<String>> openByServer() {
    Map<ServerName, List<String>> out = new LinkedHashMap<>();
    for (ServerName s : servers.liveServers().keySet()) {
      out.put(s, new ArrayList<>());
    }
    for (Map.Entry<String, RegionAssignment> e : states.entrySet()) {
      RegionAssignment a = e.getValue();
      if (a.state() == State.OPEN && out.containsKey(a.location())) {
        out.get(a.location()).add(e.getKey());
      }
    }
    return out;
  }

  synchronized int inTransitionCount() {
    int n = 0;
    for (RegionAssignment a : states.values()) {
      if (a.inTransition()) {
        n++;
      }
    }
    return n;
  }

  /**
   * Stops reconciling and sending. Not by interrupting: a pass interrupted while it writes the
   * master store would close the store's log file under it (NIO channels close on interrupt), so
   * the running pass finishes first.
   */
  @Override
  public void close() {
    closed = true;
    ticker.shutdown();
    try {
      if (!ticker.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("an assignment pass did not finish within 10 s of the master stopping");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sender.close();
    synchronized (this) {
      for (Waiter w : waiters) {
        w.future().completeExceptionally(new IOException("the master is stopping"));
      }
      waiters.clear();
    }
  }
}
