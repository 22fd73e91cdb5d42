package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Region placement in a cluster: the balancer (region counts with slop, {@link
 * RegionCountBalancer}; its switch stored in the master store), moves, assigns and unassigns
 * through the {@link AssignmentManager}, and decommissioned servers (stored too; no new region goes
 * there, and with offload their regions move away). Each request returns when its regions got where
 * they were sent, or fails after {@link #WAIT_SECONDS} saying what is still moving. Thread-safe.
 */
final class ClusterPlacement implements RegionPlacement {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterPlacement.class);
  static final String BALANCER_SETTING = "balancer";
  static final String DECOMMISSIONED_SETTING = "decommissioned";
  private static final long WAIT_SECONDS = 60;

  private final AssignmentManager assignment;
  private final ServerManager servers;
  private final MasterStore store;
  private final double slop;
  private volatile boolean balancerOn;

  ClusterPlacement(
      AssignmentManager assignment, ServerManager servers, MasterStore store, double slop)
      throws IOException {
    this.assignment = assignment;
    this.servers = servers;
    this.store = store;
    this.slop = slop;
    String on = store.setting(BALANCER_SETTING);
    this.balancerOn = on == null || Boolean.parseBoolean(on);
    String decommissioned = store.setting(DECOMMISSIONED_SETTING);
    if (decommissioned != null) {
      for (String s : decommissioned.split(";")) {
        if (!s.isEmpty()) {
          servers.decommission(ServerName.parse(s));
        }
      }
    }
  }

  @Override
  public boolean balancerEnabled() {
    return balancerOn;
  }

  @Override
  public synchronized boolean setBalancerEnabled(boolean on) {
    boolean before = balancerOn;
    try {
      store.putSetting(BALANCER_SETTING, Boolean.toString(on));
    } catch (IOException e) {
      LOG.error("could not store the balancer switch; it stays {}", before, e);
      return before;
    }
    balancerOn = on;
    return before;
  }

  /**
   * Balances now, as HBase 2.6's master does: not with the switch off (a dry run still runs), not
   * while regions are in transition or a dead server's regions wait for its log.
   */
  @Override
  public synchronized BalanceResult balance(boolean dryRun) throws IOException {
    if (!balancerOn && !dryRun) {
      LOG.info("not balancing: the balancer is switched off");
      return new BalanceResult(false, 0, 0);
    }
    if (assignment.inTransitionCount() > 0) {
      LOG.info("not balancing: regions are in transition");
      return new BalanceResult(false, 0, 0);
    }
    if (!assignment.awaitingRecovery().isEmpty()) {
      LOG.info(
          "not balancing: the logs of dead servers {} are being recovered",
          assignment.awaitingRecovery());
      return new BalanceResult(false, 0, 0);
    }
    Map<ServerName, List<String>> open = assignment.openByServer();
    open.keySet().removeAll(servers.decommissioned());
    List<RegionCountBalancer.Move> moves = RegionCountBalancer.plan(open, slop);
    if (dryRun || moves.isEmpty()) {
      return new BalanceResult(true, moves.size(), 0);
    }
    LOG.info("balancing: {} moves", moves.size());
    List<CompletableFuture<Void>> running = new ArrayList<>();
    for (RegionCountBalancer.Move m : moves) {
      try {
        running.add(assignment.move(m.region(), m.to()));
      } catch (IOException e) {
        LOG.warn("balancer: could not move {} to {}: {}", m.region(), m.to(), e.getMessage());
      }
    }
    int done = 0;
    for (CompletableFuture<Void> f : running) {
      if (waitFor(f, "a balancer move")) {
        done++;
      }
    }
    return new BalanceResult(true, moves.size(), done);
  }

  /** Runs the balancer if its switch is on (the periodic chore). */
  void balanceIfOn() {
    if (!balancerOn) {
      return;
    }
    try {
      balance(false);
    } catch (IOException | RuntimeException e) {
      LOG.warn("periodic balancing failed", e);
    }
  }

  @Override
  public void move(String encodedRegionName, ServerName destination) throws IOException {
    if (encodedRegionName.equals(dev.basalt.server.meta.MetaTable.ENCODED_NAME)) {
      throw BasaltIOException.doNotRetry(
          "hbase:meta does not move: the active master serves it (it moves with mastership)");
    }
    waitOrFail(assignment.move(encodedRegionName, destination), "move of " + encodedRegionName);
  }

  @Override
  public void assign(byte[] regionName) throws IOException {
    String name = encodedName(regionName);
    waitOrFail(assignment.assign(name), "assign of " + name);
  }

  @Override
  public void unassign(byte[] regionName) throws IOException {
    String name = encodedName(regionName);
    waitOrFail(assignment.unassign(name), "unassign of " + name);
  }

  @Override
  public synchronized void decommission(List<ServerName> list, boolean offload) throws IOException {
    List<ServerName> targets = new ArrayList<>();
    for (ServerName s : list) {
      ServerName live = liveNamed(s);
      if (live == null) {
        throw BasaltIOException.doNotRetry(
            "cannot decommission " + s + ": no such live region server");
      }
      targets.add(live);
    }
    for (ServerName s : targets) {
      servers.decommission(s);
    }
    storeDecommissioned();
    if (!offload) {
      return;
    }
    List<CompletableFuture<Void>> moving = new ArrayList<>();
    Map<ServerName, List<String>> open = assignment.openByServer();
    for (ServerName s : targets) {
      for (String region : open.getOrDefault(s, List.of())) {
        moving.add(assignment.move(region, null));
      }
    }
    for (CompletableFuture<Void> f : moving) {
      waitOrFail(f, "moving regions off " + targets);
    }
  }

  @Override
  public List<ServerName> decommissioned() {
    return servers.decommissioned();
  }

  @Override
  public synchronized void recommission(ServerName server, List<byte[]> regions)
      throws IOException {
    ServerName live = liveNamed(server);
    servers.recommission(live != null ? live : server);
    storeDecommissioned();
    if (live == null) {
      return;
    }
    // As HBase: the regions named come back to the server.
    List<CompletableFuture<Void>> moving = new ArrayList<>();
    for (byte[] region : regions) {
      moving.add(assignment.move(encodedName(region), live));
    }
    for (CompletableFuture<Void> f : moving) {
      waitOrFail(f, "moving regions back to " + live);
    }
  }

  private void storeDecommissioned() throws IOException {
    StringBuilder b = new StringBuilder();
    for (ServerName s : servers.decommissioned()) {
      b.append(s).append(';');
    }
    store.putSetting(DECOMMISSIONED_SETTING, b.toString());
  }

  private ServerName liveNamed(ServerName name) {
    for (ServerName s : servers.liveServers().keySet()) {
      if (s.equals(name) || (name.startCode() <= 0 && s.sameAddress(name))) {
        return s;
      }
    }
    return null;
  }

  /** The encoded name of a full region name, or the name itself when it is an encoded one. */
  static String encodedName(byte[] regionName) {
    String s = new String(regionName, java.nio.charset.StandardCharsets.UTF_8);
    if (s.endsWith(".")) {
      int dot = s.lastIndexOf('.', s.length() - 2);
      if (dot >= 0) {
        return s.substring(dot + 1, s.length() - 1);
      }
    }
    return s;
  }

  private static boolean waitFor(CompletableFuture<Void> f, String what) {
    try {
      f.get(WAIT_SECONDS, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn("{} did not finish: {}", what, e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void waitOrFail(CompletableFuture<Void> f, String what) throws IOException {
    try {
      f.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(what + " failed", e);
    } catch (TimeoutException e) {
      throw new IOException(what + " did not finish within " + WAIT_SECONDS + " s; it goes on");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(what + " was interrupted");
    }
  }
}
