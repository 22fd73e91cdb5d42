package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.region.Region;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.sstable.BlockCache;
import dev.basalt.util.FaultPoints;
import dev.basalt.wal.Wal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table changes: create, delete, enable, disable, modify, truncate. One runs at a time (the
 * database's DDL lock). Each is ordered so that a single atomic file replacement commits it and a
 * crash before or after leaves the old or the new table (see {@link Catalog}):
 *
 * <ul>
 *   <li>create: region directories, then the region set, then the descriptor (the commit);
 *   <li>delete (disabled tables only): the descriptor first (the commit), then the directory;
 *   <li>disable: every region flushed and closed, then the region set says DISABLED;
 *   <li>enable: the regions opened, then the region set says ENABLED;
 *   <li>modify: an enabled table's regions flushed and closed; the region set records each region's
 *       sequence floor (so edits of a removed family are never replayed, even into a family of the
 *       same name added later); the new descriptor (the commit); removed families' directories
 *       archived; the regions reopened;
 *   <li>truncate (disabled tables only): new empty regions, then the region set listing them (the
 *       commit), then the old regions archived; the table comes back enabled.
 * </ul>
 *
 * Operations on an enabled table's regions wait while a change closes and reopens them ({@link
 * LiveTables#awaitChange}); a table being disabled refuses new ones at once. Thread-safe.
 */
final class TableAdmin {
  /** Fault point: a new table's regions are written but its descriptor is not. */
  static final String FAULT_CREATE_BEFORE_DESCRIPTOR = "db.createTable.beforeDescriptor";

  /** Fault point: a truncated table's new regions exist but the region set still lists the old. */
  static final String FAULT_TRUNCATE_BEFORE_SWITCH = "db.truncateTable.beforeRegionSet";

  /** Fault point: a modified table's regions are closed but its new descriptor is not written. */
  static final String FAULT_MODIFY_BEFORE_DESCRIPTOR = "db.modifyTable.beforeDescriptor";

  private static final Logger LOG = LoggerFactory.getLogger(TableAdmin.class);

  private final Catalog catalog;
  private final LiveTables tables;
  private final RegionOpener opener;
  private final Wal wal;
  private final Object ddl;
  private final NamespaceAdmin namespaces;
  private final BlockCache blockCache;
  private final boolean newVersionBehaviorDefault;

  /**
   * @param newVersionBehaviorDefault NEW_VERSION_BEHAVIOR of a new family that does not say ({@link
   *     DatabaseSettings#NEW_VERSION_BEHAVIOR_DEFAULT})
   */
  TableAdmin(
      Catalog catalog,
      LiveTables tables,
      RegionOpener opener,
      Wal wal,
      Object ddl,
      NamespaceAdmin namespaces,
      BlockCache blockCache,
      boolean newVersionBehaviorDefault) {
    this.blockCache = blockCache;
    this.newVersionBehaviorDefault = newVersionBehaviorDefault;
    this.catalog = catalog;
    this.tables = tables;
    this.opener = opener;
    this.wal = wal;
    this.ddl = ddl;
    this.namespaces = namespaces;
  }

  /**
   * @param splits checked and sorted split keys ({@link SplitKeys})
   */
  void create(TableDescriptor requested, byte[][] splits) throws IOException {
    TableName name = requested.getTableName();
    TableDescriptor desc = withDeleteSemantics(requested, null);
    synchronized (ddl) {
      namespaces.requireUserNamespace(name);
      if (tables.get(name) != null) {
        throw new TableExistsException(name.getNameAsString());
      }
      RegionSet set = RegionSet.of(name, RegionSet.State.ENABLED, catalog.newRegions(name, splits));
      catalog.createTable(desc, set);
      tables.publish(LiveTable.enabled(desc, set, opener.openAll(desc, set)));
    }
  }

  void delete(TableName name) throws IOException {
    synchronized (ddl) {
      LiveTable t = requireDisabled(name, "deleted");
      catalog.deleteTable(name);
      tables.remove(name);
      blockCache.invalidateFilesUnder(catalog.describeTableFiles(name));
      for (RegionSet.Member m : t.regionSet().members()) {
        wal.forgetRegion(m.info().getEncodedName());
      }
    }
  }

  private LiveTable requireDisabled(TableName name, String toBe) throws IOException {
    LiveTable t = tables.require(name);
    if (t.phase() != LiveTable.Phase.DISABLED) {
      throw new TableNotDisabledException(
          "table '" + name.getNameAsString() + "' is enabled; disable it before it can be " + toBe);
    }
    return t;
  }

  void disable(TableName name) throws IOException {
    synchronized (ddl) {
      LiveTable t = tables.require(name);
      if (t.phase() != LiveTable.Phase.ENABLED) {
        throw new TableNotEnabledException(
            "table '" + name.getNameAsString() + "' is already disabled");
      }
      tables.publish(t.disabling()); // new operations fail from here on
      List<RegionSet.Member> floors;
      try {
        floors = closeAll(t);
      } catch (IOException | RuntimeException e) {
        reopen(t, t.descriptor());
        throw e;
      }
      RegionSet set = RegionSet.of(name, RegionSet.State.DISABLED, floors);
      try {
        catalog.writeRegionSet(set);
      } catch (IOException | RuntimeException e) {
        reopen(t, t.descriptor());
        throw e;
      }
      tables.publish(LiveTable.disabled(t.descriptor(), set));
    }
  }

  /**
   * Flushes and closes every region of the table; returns the members with their sequence floor
   * (every edit up to it is in the region's store files).
   */
  private List<RegionSet.Member> closeAll(LiveTable t) throws IOException {
    List<RegionSet.Member> out = new ArrayList<>();
    for (ServedRegion r : t.regions().all()) {
      Region region = r.region();
      region.flush(); // most of the data, while operations still run
      region.close(true); // the rest, with operations held off
      out.add(new RegionSet.Member(region.getRegionInfo(), region.getLastSequenceId()));
    }
    return out;
  }

  /**
   * After a failed change: the table serves again with {@code desc}, its closed regions reopened
   * from storage (closing flushed them, so nothing is lost), the others as they were.
   */
  private void reopen(LiveTable t, TableDescriptor desc) {
    List<ServedRegion> open = new ArrayList<>();
    try {
      for (ServedRegion r : t.regions().all()) {
        if (r.region().isClosed()) {
          RegionSet.Member m = t.regionSet().member(r.info().getEncodedName());
          long floor = Math.max(m.sequenceFloor(), r.region().getLastSequenceId());
          open.add(new ServedRegion(opener.open(r.info(), desc, floor)));
        } else {
          open.add(r);
        }
      }
      tables.publish(LiveTable.enabled(desc, t.regionSet(), new RegionMap(open)));
    } catch (IOException | RuntimeException e) {
      LOG.error("could not reopen the regions of {} after a failed change", t.name(), e);
      for (ServedRegion r : open) {
        r.region().close();
      }
      tables.publish(LiveTable.disabled(desc, t.regionSet()));
    }
  }

  void enable(TableName name) throws IOException {
    synchronized (ddl) {
      LiveTable t = tables.require(name);
      if (t.phase() != LiveTable.Phase.DISABLED) {
        throw new TableNotDisabledException(
            "table '" + name.getNameAsString() + "' is already enabled");
      }
      RegionSet set = t.regionSet().withState(RegionSet.State.ENABLED);
      RegionMap regions = opener.openAll(t.descriptor(), set);
      try {
        catalog.writeRegionSet(set);
      } catch (IOException | RuntimeException e) {
        for (ServedRegion r : regions.all()) {
          r.region().close();
        }
        throw e;
      }
      tables.publish(LiveTable.enabled(t.descriptor(), set, regions));
    }
  }

  /**
   * The descriptor with NEW_VERSION_BEHAVIOR stored in every family: a family that does not say
   * keeps what it had ({@code old}'s family of that name; a family stored before the attribute was
   * always written had Basalt's default, deterministic history), and a new one gets the database's
   * default. Stored, the semantics of a family never change with the setting.
   */
  private TableDescriptor withDeleteSemantics(TableDescriptor desc, TableDescriptor old) {
    return withDeleteSemantics(desc, old, newVersionBehaviorDefault);
  }

  /**
   * See {@link #withDeleteSemantics(TableDescriptor, TableDescriptor)}; for the cluster catalog.
   */
  static TableDescriptor withDeleteSemantics(
      TableDescriptor desc, TableDescriptor old, boolean newVersionBehaviorDefault) {
    TableDescriptorBuilder b = null;
    for (ColumnFamilyDescriptor f : desc.getColumnFamilies()) {
      if (f.getValues().containsKey(ColumnFamilyDescriptor.NEW_VERSION_BEHAVIOR)) {
        continue;
      }
      boolean nvb =
          old != null && old.hasColumnFamily(f.getName())
              ? old.getColumnFamily(f.getName()).isNewVersionBehavior()
              : newVersionBehaviorDefault;
      if (b == null) {
        b = TableDescriptorBuilder.newBuilder(desc);
      }
      b.modifyColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(f).setNewVersionBehavior(nvb).build());
    }
    return b == null ? desc : b.build();
  }

  void addFamily(TableName name, ColumnFamilyDescriptor family) throws IOException {
    synchronized (ddl) {
      TableDescriptor old = tables.require(name).descriptor();
      if (old.hasColumnFamily(family.getName())) {
        throw new InvalidFamilyOperationException(
            "column family '"
                + family.getNameAsString()
                + "' in table '"
                + name.getNameAsString()
                + "' already exists so cannot be added");
      }
      modify(TableDescriptorBuilder.newBuilder(old).setColumnFamily(family).build());
    }
  }

  void deleteFamily(TableName name, byte[] family) throws IOException {
    synchronized (ddl) {
      TableDescriptor old = tables.require(name).descriptor();
      if (!old.hasColumnFamily(family)) {
        throw new InvalidFamilyOperationException(
            "column family '"
                + Bytes.toStringBinary(family)
                + "' does not exist in table '"
                + name.getNameAsString()
                + "', so it cannot be deleted");
      }
      if (old.getColumnFamilyCount() == 1) {
        throw new InvalidFamilyOperationException(
            "column family '"
                + Bytes.toStringBinary(family)
                + "' is the only column family of table '"
                + name.getNameAsString()
                + "', so it cannot be deleted");
      }
      modify(TableDescriptorBuilder.newBuilder(old).removeColumnFamily(family).build());
    }
  }

  void modifyFamily(TableName name, ColumnFamilyDescriptor family) throws IOException {
    synchronized (ddl) {
      TableDescriptor old = tables.require(name).descriptor();
      if (!old.hasColumnFamily(family.getName())) {
        throw new InvalidFamilyOperationException(
            "column family '"
                + family.getNameAsString()
                + "' does not exist in table '"
                + name.getNameAsString()
                + "', so it cannot be modified");
      }
      modify(TableDescriptorBuilder.newBuilder(old).modifyColumnFamily(family).build());
    }
  }

  void modify(TableDescriptor requested) throws IOException {
    TableName name = requested.getTableName();
    synchronized (ddl) {
      LiveTable t = tables.require(name);
      TableDescriptor desc = withDeleteSemantics(requested, t.descriptor());
      if (t.phase() == LiveTable.Phase.DISABLING) {
        throw new TableNotEnabledException(
            "table '" + name.getNameAsString() + "' is being disabled; modify it afterwards");
      }
      TableDescriptor old = t.descriptor();
      boolean enabled = t.isEnabled();
      RegionSet set;
      try {
        List<RegionSet.Member> members = enabled ? closeAll(t) : t.regionSet().members();
        set = RegionSet.of(name, t.regionSet().state(), members);
        catalog.writeRegionSet(set); // the floors: harmless whether or not the change commits
        FaultPoints.hit(FAULT_MODIFY_BEFORE_DESCRIPTOR);
        catalog.writeDescriptor(desc);
      } catch (IOException | RuntimeException e) {
        if (enabled) {
          reopen(t, old);
        }
        throw e;
      }
      for (ColumnFamilyDescriptor f : old.getColumnFamilies()) {
        if (!desc.hasColumnFamily(f.getName())) {
          for (RegionSet.Member m : set.members()) {
            try {
              catalog.archive(Catalog.regionDir(m.info()) + "/" + f.getNameAsString());
            } catch (IOException e) {
              // Committed already; the next open archives what is left.
              LOG.warn("could not archive family {} of {} yet", f.getNameAsString(), name, e);
            }
          }
        }
      }
      if (enabled) {
        RegionMap regions;
        try {
          regions = opener.openAll(desc, set);
        } catch (IOException | RuntimeException e) {
          tables.publish(LiveTable.disabled(desc, set.withState(RegionSet.State.DISABLED)));
          throw e;
        }
        tables.publish(LiveTable.enabled(desc, set, regions));
      } else {
        tables.publish(LiveTable.disabled(desc, set));
      }
    }
  }

  void truncate(TableName name, boolean preserveSplits) throws IOException {
    synchronized (ddl) {
      LiveTable t = requireDisabled(name, "truncated");
      List<RegionSet.Member> old = t.regionSet().members();
      byte[][] splits = new byte[preserveSplits ? old.size() - 1 : 0][];
      for (int i = 0; i < splits.length; i++) {
        splits[i] = old.get(i + 1).info().getStartKey();
      }
      RegionSet set = RegionSet.of(name, RegionSet.State.ENABLED, catalog.newRegions(name, splits));
      for (RegionSet.Member m : set.members()) {
        catalog.createRegion(m.info());
      }
      FaultPoints.hit(FAULT_TRUNCATE_BEFORE_SWITCH);
      catalog.writeRegionSet(set);
      for (RegionSet.Member m : old) {
        wal.forgetRegion(m.info().getEncodedName());
        try {
          catalog.archive(Catalog.regionDir(m.info()));
        } catch (IOException e) {
          LOG.warn("could not archive region {} of {} yet", m.info().getEncodedName(), name, e);
        }
      }
      // The new regions' files are not written yet, so only the old ones' blocks go.
      blockCache.invalidateFilesUnder(catalog.describeTableFiles(name));
      RegionMap regions;
      try {
        regions = opener.openAll(t.descriptor(), set);
      } catch (IOException | RuntimeException e) {
        tables.publish(LiveTable.disabled(t.descriptor(), set.withState(RegionSet.State.DISABLED)));
        throw e;
      }
      tables.publish(LiveTable.enabled(t.descriptor(), set, regions));
    }
  }
}
