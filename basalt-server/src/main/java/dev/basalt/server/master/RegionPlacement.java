package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;
import java.io.IOException;
import java.util.List;

/**
 * Where regions are served, as operators steer it: the balancer and its switch, moves, assigns and
 * unassigns, and decommissioned region servers. A standalone server has one region server, so it
 * has nothing to place ({@link StandalonePlacement}); a cluster's master does it through its
 * assignment manager.
 */
public interface RegionPlacement {
  /** The outcome of a balancer run. */
  record BalanceResult(boolean ran, int movesCalculated, int movesExecuted) {}

  boolean balancerEnabled();

  /**
   * @return whether it was on before
   */
  boolean setBalancerEnabled(boolean on);

  /**
   * Runs the balancer now (whatever its switch says, as HBase's {@code Admin.balance()}).
   *
   * @param dryRun compute the moves without making them
   */
  BalanceResult balance(boolean dryRun) throws IOException;

  /**
   * Moves a region to {@code destination}, or to a server the master chooses when null; returns
   * when it is open there.
   *
   * @param encodedRegionName the region's encoded name
   */
  void move(String encodedRegionName, ServerName destination) throws IOException;

  /** Opens a region that is not open; one that is open is refused, as HBase refuses it. */
  void assign(byte[] regionName) throws IOException;

  /**
   * Closes a region; the master does not open it again until it is assigned. One that is not open
   * is refused, as HBase refuses it.
   */
  void unassign(byte[] regionName) throws IOException;

  /**
   * Marks region servers as decommissioned (no new region goes there), moving their regions away
   * when {@code offload}.
   */
  void decommission(List<ServerName> servers, boolean offload) throws IOException;

  List<ServerName> decommissioned();

  /** Takes a server off the decommissioned list and moves the regions named back onto it. */
  void recommission(ServerName server, List<byte[]> regions) throws IOException;
}
