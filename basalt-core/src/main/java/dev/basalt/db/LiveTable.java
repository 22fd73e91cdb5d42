package dev.basalt.db;

import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import java.util.Arrays;

/**
 * A table as the database serves it at one moment: its descriptor, its persisted region set, its
 * open regions (none unless enabled) and its phase. Immutable: every table change publishes a new
 * one ({@link LiveTables}), so an operation routes with one consistent view.
 */
final class LiveTable {
  /** Whether the table serves; DISABLING refuses new operations while its regions close. */
  enum Phase {
    ENABLED,
    DISABLING,
    DISABLED
  }

  private final TableDescriptor descriptor;
  private final RegionSet regionSet;
  private final RegionMap regions;
  private final Phase phase;
  private final byte[] nameBytes; // as region names begin

  private LiveTable(
      TableDescriptor descriptor, RegionSet regionSet, RegionMap regions, Phase phase) {
    this.descriptor = descriptor;
    this.regionSet = regionSet;
    this.regions = regions;
    this.phase = phase;
    this.nameBytes = descriptor.getTableName().getName();
  }

  static LiveTable enabled(TableDescriptor descriptor, RegionSet regionSet, RegionMap regions) {
    return new LiveTable(descriptor, regionSet, regions, Phase.ENABLED);
  }

  static LiveTable disabled(TableDescriptor descriptor, RegionSet regionSet) {
    return new LiveTable(descriptor, regionSet, RegionMap.EMPTY, Phase.DISABLED);
  }

  /** The same table refusing new operations while it is being disabled. */
  LiveTable disabling() {
    return new LiveTable(descriptor, regionSet, regions, Phase.DISABLING);
  }

  TableName name() {
    return descriptor.getTableName();
  }

  /** Whether bytes {@code [0, length)} of {@code b} are this table's name, as in a region name. */
  boolean isNamed(byte[] b, int length) {
    return Arrays.equals(nameBytes, 0, nameBytes.length, b, 0, length);
  }

  TableDescriptor descriptor() {
    return descriptor;
  }

  RegionSet regionSet() {
    return regionSet;
  }

  /** The open regions; empty unless the table is enabled (or being disabled). */
  RegionMap regions() {
    return regions;
  }

  Phase phase() {
    return phase;
  }

  boolean isEnabled() {
    return phase == Phase.ENABLED;
  }

  /**
   * @throws TableNotEnabledException unless the table is enabled
   */
  LiveTable requireEnabled() throws TableNotEnabledException {
    if (phase != Phase.ENABLED) {
      throw new TableNotEnabledException(
          "table '"
              + name().getNameAsString()
              + "' is "
              + (phase == Phase.DISABLING ? "being disabled" : "disabled")
              + "; enable it first");
    }
    return this;
  }

  @Override
  public String toString() {
    return "LiveTable(" + name() + ", " + phase + ", " + regions.size() + " open regions)";
  }
}
