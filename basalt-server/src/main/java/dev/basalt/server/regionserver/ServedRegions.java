package dev.basalt.server.regionserver;

import dev.basalt.db.RegionMetrics;
import dev.basalt.region.Region;
import dev.basalt.schema.TableName;
import java.util.List;

/**
 * The regions a region server serves, as its AdminService sees them: a standalone server's database
 * ({@link DatabaseRegions}) or a cluster region server's hosted regions.
 */
public interface ServedRegions extends RegionLookup {
  /** Figures of every region served here. */
  List<RegionMetrics> regionMetrics();

  /** Figures of the table's regions served here; empty when there are none. */
  List<RegionMetrics> regionMetrics(TableName table);

  /** The open region with this full region name, or null. */
  Region online(byte[] regionName);

  /** See {@link dev.basalt.db.Database#compactionsEnabled}. */
  boolean compactionsEnabled();

  /**
   * Switches background compactions off or on.
   *
   * @return whether they were on before
   */
  boolean switchCompactions(boolean on);

  /** Asks the write-ahead log to start a new segment. */
  void rollWal();
}
