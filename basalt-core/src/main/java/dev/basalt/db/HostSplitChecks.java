package dev.basalt.db;

import dev.basalt.region.Region;
import dev.basalt.region.RegionSplitPoint;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region server's side of automatic splits ({@link Maintenance.Hooks} of a {@link RegionHost}):
 * after a compaction, a region past its maximum size ({@link SplitPolicy}) is checked on the split
 * thread, and its split point handed to the listener, which asks the master (in a cluster the
 * master plans every split, so that the catalog and assignment change together). A region is asked
 * for at most once a minute, while the master's split of it runs. Archives and logs are cleaned by
 * the master, so there are no chores here. Thread-safe.
 */
final class HostSplitChecks implements Maintenance.Hooks {
  private static final Logger LOG = LoggerFactory.getLogger(HostSplitChecks.class);
  private static final long REPEAT_MILLIS = 60_000;

  private final Maintenance maintenance;
  private final long defaultMaxFileSize;
  private final Clock clock;
  private final Map<String, Long> asked = new ConcurrentHashMap<>();
  private volatile BiConsumer<Region, byte[]> listener;

  HostSplitChecks(Maintenance maintenance, long defaultMaxFileSize, Clock clock) {
    this.maintenance = maintenance;
    this.defaultMaxFileSize = defaultMaxFileSize;
    this.clock = clock;
  }

  void setListener(BiConsumer<Region, byte[]> listener) {
    this.listener = listener;
  }

  private boolean wantsSplit(Region region) {
    return listener != null
        && SplitPolicy.wantsSplit(region, region.getTableDescriptor(), defaultMaxFileSize);
  }

  @Override
  public void afterCompaction(Region region) {
    if (wantsSplit(region)) {
      maintenance.requestSplitCheck(region);
    }
  }

  @Override
  public void splitCheck(Region region) {
    BiConsumer<Region, byte[]> l = listener;
    if (l == null || !wantsSplit(region)) {
      return;
    }
    String name = region.getRegionInfo().getEncodedName();
    long now = clock.currentTimeMillis();
    Long last = asked.get(name);
    if (last != null && now - last < REPEAT_MILLIS) {
      return;
    }
    try {
      byte[] at = RegionSplitPoint.of(region);
      if (at != null) {
        asked.put(name, now);
        l.accept(region, at);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not find where to split {}: {}", region, e.getMessage());
    }
  }

  /** Forgets a region that closed here (a later life of it may ask again at once). */
  void forget(String encodedName) {
    asked.remove(encodedName);
  }

  @Override
  public void chores() {}
}
