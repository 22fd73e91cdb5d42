package dev.basalt.server.master;

/**
 * How long a master that just became active waits for region servers before it places regions, as
 * HBase's {@code ServerManager.waitForRegionServers}: until at least {@code minToStart} servers are
 * live and none has joined for {@code intervalMillis}, or {@code timeoutMillis} have passed.
 * Without it, the first server to register after a cluster starts would get every region. Regions
 * already open stay where they are meanwhile; only new placements wait. Immutable.
 */
record RegionServerWait(long timeoutMillis, long intervalMillis, int minToStart) {
  /** No waiting (tests that start their servers before the master). */
  static final RegionServerWait NONE = new RegionServerWait(0, 0, 0);

  /**
   * @param startedMillis when the master became active
   * @param lastJoinedMillis when the latest live server joined (registered, or was found live)
   */
  boolean settled(long nowMillis, long startedMillis, int live, long lastJoinedMillis) {
    if (nowMillis - startedMillis >= timeoutMillis) {
      return true;
    }
    return live >= minToStart && nowMillis - lastJoinedMillis >= intervalMillis;
  }
}
