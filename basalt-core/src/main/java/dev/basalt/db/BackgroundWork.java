package dev.basalt.db;

import dev.basalt.region.Region;
import dev.basalt.region.RegionSplitPoint;
import java.io.IOException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database's side of background work ({@link Maintenance.Hooks}): automatic splits (a region
 * whose largest store passes the maximum file size splits at its split point, unless it still has
 * references or its table does not allow splits), archiving split and merge parents no reference
 * reads any more, and the archive cleaner. Thread-safe.
 */
final class BackgroundWork implements Maintenance.Hooks {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundWork.class);

  private final LiveTables tables;
  private final RegionTransitions transitions;
  private final Catalog catalog;
  private final ArchiveCleaner cleaner;
  private final Maintenance maintenance;
  private final long defaultMaxFileSize;
  private final BooleanSupplier closed;
  private final Object ddl;

  BackgroundWork(
      LiveTables tables,
      RegionTransitions transitions,
      Catalog catalog,
      ArchiveCleaner cleaner,
      Maintenance maintenance,
      long defaultMaxFileSize,
      BooleanSupplier closed,
      Object ddl) {
    this.tables = tables;
    this.transitions = transitions;
    this.catalog = catalog;
    this.cleaner = cleaner;
    this.maintenance = maintenance;
    this.defaultMaxFileSize = defaultMaxFileSize;
    this.closed = closed;
    this.ddl = ddl;
  }

  /** Whether the region is past its table's maximum file size and may split. */
  private boolean wantsSplit(Region region) {
    LiveTable t = tables.get(region.getRegionInfo().getTable());
    if (t == null || !t.isEnabled()) {
      return false;
    }
    return SplitPolicy.wantsSplit(region, t.descriptor(), defaultMaxFileSize);
  }

  @Override
  public void afterCompaction(Region region) {
    if (wantsSplit(region)) {
      maintenance.requestSplitCheck(region);
    }
    if (!region.hasReferences()) {
      archiveUnusedParents(region.getRegionInfo().getTable());
    }
  }

  @Override
  public void splitCheck(Region region) {
    if (closed.getAsBoolean() || !wantsSplit(region)) {
      return;
    }
    try {
      byte[] at = RegionSplitPoint.of(region);
      if (at != null) {
        transitions.split(
            region.getRegionInfo().getTable(),
            region.getRegionInfo().getStartKey(),
            at,
            region.getRegionInfo().getEncodedName());
      }
    } catch (IOException e) {
      LOG.warn("automatic split of {} did not happen: {}", region, e.getMessage());
    }
  }

  @Override
  public void chores() {
    if (closed.getAsBoolean()) {
      return;
    }
    for (LiveTable t : tables.all()) {
      archiveUnusedParents(t.name());
    }
    try {
      cleaner.run();
    } catch (IOException | RuntimeException e) {
      LOG.warn("archive cleaning failed; it runs again at the next chore", e);
    }
  }

  private void archiveUnusedParents(dev.basalt.schema.TableName table) {
    synchronized (ddl) {
      LiveTable t = tables.get(table);
      if (t == null || closed.getAsBoolean()) {
        return;
      }
      try {
        catalog.archiveUnusedRegions(t.regionSet());
      } catch (IOException | RuntimeException e) {
        LOG.warn("could not archive the unused regions of {} yet", table, e);
      }
    }
  }
}
