package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.BasaltIOException;
import java.util.List;

/**
 * Region placement in standalone mode: one region server serves every region, so there is nothing
 * to balance (the balancer is off and a run moves nothing) and no other server to move a region to,
 * assign it on or decommission towards; those requests are refused with a message saying why.
 */
public final class StandalonePlacement implements RegionPlacement {
  @Override
  public boolean balancerEnabled() {
    return false;
  }

  @Override
  public boolean setBalancerEnabled(boolean on) {
    return false;
  }

  @Override
  public BalanceResult balance(boolean dryRun) {
    return new BalanceResult(false, 0, 0);
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
  public void recommission(ServerName server) throws BasaltIOException {
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
