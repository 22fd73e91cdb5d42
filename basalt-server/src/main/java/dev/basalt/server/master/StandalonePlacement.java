package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.BasaltIOException;
import java.util.List;

/**
 * Region placement in standalone mode: one region server serves every region, so there is nothing
 * to balance (a run moves nothing; the switch is kept for tools that set and read it) and no other
 * server to move a region to, assign it on or decommission towards; those requests are refused with
 * a message saying why.
 */
public final class StandalonePlacement implements RegionPlacement {
  /** The switch is kept (tools set it and read it back), though there is nothing to balance. */
  private volatile boolean balancerOn;

  @Override
  public boolean balancerEnabled() {
    return balancerOn;
  }

  @Override
  public synchronized boolean setBalancerEnabled(boolean on) {
    boolean before = balancerOn;
    balancerOn = on;
    return before;
  }

  @Override
  public BalanceResult balance(boolean dryRun) {
    // as HBase's master: a run with the switch off does not run (a dry run always does); one that
    // runs finds nothing to move on a single server
    return new BalanceResult(balancerOn || dryRun, 0, 0);
  }

  @Override
  public void move(String encodedRegionName, ServerName destination) throws BasaltIOException {
    throw oneServer("move region " + encodedRegionName);
  }

  @Override
  public void assign(byte[] regionName) throws BasaltIOException {
    throw oneServer("assign regions");
  }

  @Override
  public void unassign(byte[] regionName) throws BasaltIOException {
    throw oneServer("unassign regions");
  }

  @Override
  public void decommission(List<ServerName> servers, boolean offload) throws BasaltIOException {
    throw oneServer("decommission region servers");
  }

  @Override
  public List<ServerName> decommissioned() {
    return List.of();
  }

  @Override
  public void recommission(ServerName server, List<byte[]> regions) throws BasaltIOException {
    throw oneServer("recommission region servers");
  }

  private static BasaltIOException oneServer(String what) {
    return BasaltIOException.doNotRetry(
        "cannot "
            + what
            + ": a standalone server has one region server, which serves every region (run a"
            + " cluster: bin/basalt local-cluster)");
  }
}
