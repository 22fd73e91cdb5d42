package dev.basalt.server.regionserver;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.coordination.HBaseZnodes;
import dev.basalt.server.coordination.ZooKeeperSession;
import dev.basalt.server.rpc.RemoteCallException;
import dev.basalt.server.rpc.RpcClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameStringPair;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DecommissionRegionServersRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DecommissionRegionServersResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerReportRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerReportResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStatusService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.ReportRegionStateTransitionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.ReportRegionStateTransitionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region server's side of the master <-> region server protocol (docs/formats/cluster.md): finds
 * the active master in ZooKeeper ({@code <parent>/master}, "PBUF" + Master; the znode's czxid is
 * the master's epoch), registers with it (RegionServerStartup), reports the server's load every
 * interval (RegionServerReport) and the outcome of region commands (ReportRegionStateTransition),
 * and asks it to move this server's regions away before a graceful stop (DecommissionRegionServers
 * with offload). Calls go through Basalt's {@link RpcClient} to RegionServerStatusService and
 * MasterService on the master's port.
 *
 * <p>Failures and what follows:
 *
 * <pre>
 * call                  master absent, unreachable,      YouAreDeadException   other refusals
 *                       ServerNotRunningYet, PleaseHold
 * startup               retried every second             {@link Refused}        ClockOutOfSync or any
 *                                                                              do-not-retry error:
 *                                                                              {@link Refused}
 * load report           skipped (next interval)          abort                 logged
 * transition report     retried every second, in order   abort                 retried every second;
 *                                                                              an error_message
 *                                                                              answer is logged and
 *                                                                              the report dropped
 * </pre>
 *
 * The master's address is cached and read again from ZooKeeper when the znode changes (a watch) or
 * a call fails, so reports follow a new master. Every master seen raises {@link MasterEpochs}.
 *
 * <p>Threads: one for load reports, one delivering transition reports (one queue, so the master
 * gets them in the order they happened). Thread-safe.
 */
public final class MasterLink implements TransitionReporter, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MasterLink.class);

  /** Startup reply entry: the host name the master saw this server connect from. */
  public static final String SEEN_HOSTNAME = "hbase.regionserver.hostname.seen.by.master";

  /** Startup reply entry: the cluster id, which must be the root directory's {@code basalt.id}. */
  public static final String CLUSTER_ID = "basalt.cluster.id";

  static final long RETRY_MILLIS = 1000;

  private static final String YOU_ARE_DEAD = "org.apache.hadoop.hbase.YouAreDeadException";
  private static final String CLOCK_OUT_OF_SYNC = "org.apache.hadoop.hbase.ClockOutOfSyncException";

  /** The active master as ZooKeeper names it, and its epoch (the master znode's czxid). */
  public record ActiveMaster(ServerName name, long epoch) {
    InetSocketAddress address() {
      return InetSocketAddress.createUnresolved(name.host(), name.port());
    }
  }

  /** The master refused to take this server in; the server must not run. */
  public static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    public Refused(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final ZooKeeperSession zk;
  private final String masterPath;
  private final String backupMastersPath;
  private final RpcClient rpc;
  private final MasterEpochs epochs;
  private final Supplier<ServerName> self;
  private final Duration callTimeout;
  private final Consumer<String> abort;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final LinkedBlockingQueue<RegionStateTransition> transitions =
      new LinkedBlockingQueue<>();
  private final Object undeliveredLock = new Object();
  private final Thread sender;
  private final AtomicInteger masterGeneration = new AtomicInteger();
  private final Watcher masterWatch;
  private int undelivered; // guarded by undeliveredLock
  private volatile ActiveMaster cached;
  private volatile ScheduledExecutorService reports;
  private int reportFailures; // report thread only

  /**
   * @param parent the cluster's parent znode ({@code zookeeper.znode.parent})
   * @param self this server's name, asked on each call
   * @param abort what to do when the master declares this server dead (with the reason)
   */
  public MasterLink(
      ZooKeeperSession zk,
      String parent,
      RpcClient rpc,
      MasterEpochs epochs,
      Supplier<ServerName> self,
      Duration callTimeout,
      Consumer<String> abort) {
    this.zk = Objects.requireNonNull(zk, "zk");
    this.masterPath = child(parent, HBaseZnodes.MASTER);
    this.backupMastersPath = child(parent, "backup-masters");
    this.rpc = Objects.requireNonNull(rpc, "rpc");
    this.epochs = Objects.requireNonNull(epochs, "epochs");
    this.self = Objects.requireNonNull(self, "self");
    this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
    this.abort = Objects.requireNonNull(abort, "abort");
    // one watcher object: ZooKeeper keeps one registration of it however often it is set again
    this.masterWatch =
        event -> {
          masterGeneration.incrementAndGet();
          cached = null;
        };
    this.sender = new Thread(this::deliverTransitions, "basalt-rs-transitions");
    sender.setDaemon(true);
    sender.start();
  }

  /** {@code parent + "/" + name}, for the root parent too. */
  public static String child(String parent, String name) {
    return parent.endsWith("/") ? parent + name : parent + "/" + name;
  }

  // ---- the active master --------------------------------------------------------------------

  /** The active master, or null when there is none now. */
  public ActiveMaster activeMaster() throws IOException {
    ActiveMaster m = cached;
    if (m != null) {
      return m;
    }
    int generation = masterGeneration.get();
    Stat stat = zk.exists(masterPath, masterWatch);
    byte[] data = stat == null ? null : zk.getData(masterPath);
    if (data == null) {
      return null;
    }
    ZooKeeperProtos.Master p = ZooKeeperProtos.Master.parseFrom(HBaseZnodes.stripMagic(data));
    m =
        new ActiveMaster(
            new ServerName(
                p.getMaster().getHostName(), p.getMaster().getPort(), p.getMaster().getStartCode()),
            stat.getCzxid());
    epochs.saw(m.epoch());
    if (masterGeneration.get() == generation) {
      cached = m; // else the znode changed meanwhile: read it again next time
    }
    return m;
  }

  /**
   * The standby masters ZooKeeper lists ({@code <parent>/backup-masters/<host,port,startcode>}).
   */
  public List<ServerName> backupMasters() throws IOException {
    List<ServerName> out = new ArrayList<>();
    for (String child : zk.children(backupMastersPath, null)) {
      ServerName sn = parseOrNull(child);
      if (sn != null) {
        out.add(sn);
      }
    }
    return out;
  }

  private static ServerName parseOrNull(String child) {
    try {
      return ServerName.parse(child);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  // ---- startup ------------------------------------------------------------------------------

  /**
   * Registers this server with the active master, waiting (retrying every second) while there is
   * none or it is not ready.
   *
   * @param hostname the host name to be known by ({@code use_this_hostname_instead}), or null to
   *     take the one the master sees
   * @return the master's reply entries ({@link #SEEN_HOSTNAME}, {@link #CLUSTER_ID}, ...)
   * @throws Refused when the master refuses this server
   * @throws IOException when the link is closed while waiting
   */
  public Map<String, String> startup(int port, long startCode, String hostname) throws IOException {
    RegionServerStartupRequest.Builder req =
        RegionServerStartupRequest.newBuilder().setPort(port).setServerStartCode(startCode);
    if (hostname != null) {
      req.setUseThisHostnameInstead(hostname);
    }
    for (int attempt = 1; ; attempt++) {
      String problem;
      ActiveMaster m = null;
      try {
        m = activeMaster();
        if (m == null) {
          problem = "no active master at " + masterPath;
        } else {
          RegionServerStartupResponse resp =
              rpc.call(
                  m.address(),
                  RegionServerStatusService.getDescriptor(),
                  "RegionServerStartup",
                  req.setServerCurrentTime(System.currentTimeMillis()).build(),
                  RegionServerStartupResponse.getDefaultInstance(),
                  callTimeout);
          Map<String, String> entries = new LinkedHashMap<>();
          for (NameStringPair p : resp.getMapEntriesList()) {
            entries.put(p.getName(), p.getValue());
          }
          LOG.info("registered with master {} (epoch {})", m.name(), m.epoch());
          return entries;
        }
      } catch (RemoteCallException e) {
        if (e.is(YOU_ARE_DEAD) || e.is(CLOCK_OUT_OF_SYNC) || (e.doNotRetry() && !isNotReady(e))) {
          throw new Refused(
              "master " + m.name() + " refused this region server: " + e.getMessage(), e);
        }
        cached = null;
        problem = "master " + m.name() + " is not ready (" + e.exceptionClass() + ")";
      } catch (IOException e) {
        cached = null;
        problem = (m == null ? "ZooKeeper: " : "master " + m.name() + ": ") + e.getMessage();
      }
      if (attempt == 1 || attempt % 30 == 0) {
        LOG.info("waiting to register with the master ({}); retrying every second", problem);
      }
      if (pause()) {
        throw new IOException(
            "stopped while waiting to register with the master (" + problem + ")");
      }
    }
  }

  private static boolean isNotReady(RemoteCallException e) {
    return e.is("org.apache.hadoop.hbase.ipc.ServerNotRunningYetException")
        || e.is("org.apache.hadoop.hbase.PleaseHoldException")
        || e.is("org.apache.hadoop.hbase.MasterNotRunningException")
        || e.is("org.apache.hadoop.hbase.CallQueueTooBigException");
  }

  /** Waits a second; true when the link was closed meanwhile. */
  private boolean pause() {
    try {
      return closing.await(RETRY_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  // ---- load reports -------------------------------------------------------------------------

  /** Reports {@code load} to the master every {@code intervalMillis}, starting now. */
  public synchronized void startReports(Supplier<ServerLoad> load, long intervalMillis) {
    if (reports != null || closing.getCount() == 0) {
      return;
    }
    reports =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "basalt-rs-report");
              t.setDaemon(true);
              return t;
            });
    reports.scheduleWithFixedDelay(
        () -> reportLoad(load), 0, intervalMillis, TimeUnit.MILLISECONDS);
  }

  private void reportLoad(Supplier<ServerLoad> load) {
    ActiveMaster m = null;
    try {
      m = activeMaster();
      if (m == null) {
        return;
      }
      rpc.call(
          m.address(),
          RegionServerStatusService.getDescriptor(),
          "RegionServerReport",
          RegionServerReportRequest.newBuilder()
              .setServer(self.get().toProto())
              .setLoad(load.get())
              .build(),
          RegionServerReportResponse.getDefaultInstance(),
          callTimeout);
      reportFailures = 0;
    } catch (RemoteCallException e) {
      if (e.is(YOU_ARE_DEAD)) {
        abort.accept("master " + m.name() + " declared this server dead: " + e.getMessage());
        return;
      }
      cached = null;
      logReportFailure(m, e);
    } catch (IOException | RuntimeException e) {
      cached = null;
      logReportFailure(m, e);
    }
  }

  private void logReportFailure(ActiveMaster m, Exception e) {
    if (reportFailures++ % 30 == 0 && closing.getCount() > 0) {
      LOG.warn(
          "could not report load to master {}: {}", m == null ? "?" : m.name(), e.getMessage());
    }
  }

  // ---- transition reports -------------------------------------------------------------------

  @Override
  public void report(RegionStateTransition transition) {
    synchronized (undeliveredLock) {
      undelivered++;
    }
    transitions.add(transition);
  }

  /**
   * Waits until every queued transition report was delivered (or dropped by the master's error
   * answer).
   *
   * @return false when some remain after {@code timeout}
   */
  public boolean drain(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (undeliveredLock) {
      while (undelivered > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(undeliveredLock, left);
      }
      return true;
    }
  }

  private void deliverTransitions() {
    while (closing.getCount() > 0) {
      RegionStateTransition t;
      try {
        t = transitions.poll(RETRY_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (t == null) {
        continue;
      }
      deliver(t);
      synchronized (undeliveredLock) {
        undelivered--;
        undeliveredLock.notifyAll();
      }
    }
  }

  /** Sends one report until the master answers it (or the link closes). */
  private void deliver(RegionStateTransition t) {
    ReportRegionStateTransitionRequest req =
        ReportRegionStateTransitionRequest.newBuilder()
            .setServer(self.get().toProto())
            .addTransition(t)
            .build();
    for (int attempt = 1; closing.getCount() > 0; attempt++) {
      ActiveMaster m = null;
      String problem;
      try {
        m = activeMaster();
        if (m == null) {
          problem = "no active master";
        } else {
          ReportRegionStateTransitionResponse resp =
              rpc.call(
                  m.address(),
                  RegionServerStatusService.getDescriptor(),
                  "ReportRegionStateTransition",
                  req,
                  ReportRegionStateTransitionResponse.getDefaultInstance(),
                  callTimeout);
          if (resp.hasErrorMessage()) {
            LOG.warn(
                "master {} did not accept the report {} of region {}: {}",
                m.name(),
                t.getTransitionCode(),
                encodedName(t),
                resp.getErrorMessage());
          }
          return;
        }
      } catch (RemoteCallException e) {
        if (e.is(YOU_ARE_DEAD)) {
          abort.accept("master " + m.name() + " declared this server dead: " + e.getMessage());
          return;
        }
        cached = null;
        problem = "master " + m.name() + ": " + e.getMessage();
      } catch (IOException | RuntimeException e) {
        cached = null;
        problem = (m == null ? "ZooKeeper: " : "master " + m.name() + ": ") + e.getMessage();
      }
      if (attempt == 1 || attempt % 30 == 0) {
        LOG.warn(
            "could not report {} of region {} ({}); retrying every second",
            t.getTransitionCode(),
            encodedName(t),
            problem);
      }
      if (pause()) {
        LOG.warn(
            "stopped before the master got the report {} of region {} ({})",
            t.getTransitionCode(),
            encodedName(t),
            problem);
        return;
      }
    }
  }

  private static String encodedName(RegionStateTransition t) {
    try {
      return dev.basalt.server.protocol.SchemaCodec.toRegionInfo(t.getRegionInfo(0))
          .getEncodedName();
    } catch (IOException e) {
      return "?";
    }
  }

  // ---- graceful stop ------------------------------------------------------------------------

  /** What became of a request to move this server's regions away. */
  public enum Offload {
    /** The master moves them. */
    ACCEPTED,
    /** The master answered but cannot (e.g. no other region server). */
    REFUSED,
    /** There is no active master, or it cannot be reached. */
    UNREACHABLE
  }

  /**
   * Asks the active master to move this server's regions away and take none (HBase's decommission
   * with offload).
   */
  public Offload decommissionSelf() {
    ActiveMaster m = null;
    try {
      m = activeMaster();
      if (m == null) {
        LOG.warn("no active master to move this server's regions away");
        return Offload.UNREACHABLE;
      }
      rpc.call(
          m.address(),
          MasterService.getDescriptor(),
          "DecommissionRegionServers",
          DecommissionRegionServersRequest.newBuilder()
              .addServerName(self.get().toProto())
              .setOffload(true)
              .build(),
          DecommissionRegionServersResponse.getDefaultInstance(),
          callTimeout);
      LOG.info("master {} is moving this server's regions away", m.name());
      return Offload.ACCEPTED;
    } catch (RemoteCallException e) {
      LOG.warn("master {} cannot move this server's regions away: {}", m.name(), e.getMessage());
      return Offload.REFUSED;
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "could not ask master {} to move this server's regions away: {}",
          m == null ? "?" : m.name(),
          e.getMessage());
      return Offload.UNREACHABLE;
    }
  }

  /** Stops reporting; undelivered transition reports are dropped. Idempotent. */
  @Override
  public void close() {
    closing.countDown();
    ScheduledExecutorService r;
    synchronized (this) {
      r = reports;
    }
    if (r != null) {
      r.shutdownNow();
    }
    sender.interrupt();
    try {
      sender.join(TimeUnit.SECONDS.toMillis(5));
      if (r != null) {
        r.awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
