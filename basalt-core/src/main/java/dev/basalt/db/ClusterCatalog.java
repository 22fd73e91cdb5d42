package dev.basalt.db;

import dev.basalt.fs.Storage;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.wal.WalSplitter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The catalog of a cluster, kept by its active master on the shared root directory: namespaces,
 * table descriptors and each table's region set (which regions exist, and whether the table is
 * enabled), in the same files and with the same crash-safe steps as the embedded {@link Database}
 * (docs/formats/catalog.md). Unlike the database it opens no region: where regions are served is
 * the master's business (region servers open them through {@link RegionHost}).
 *
 * <p>Only one process may change a root's catalog at a time; the master holds the root's lock while
 * it is active. Each change is one atomic file replacement; the in-memory view changes after it.
 * Thread-safe (changes are serialised).
 */
public final class ClusterCatalog {
  /** A region of the catalog and the sequence floor its set recorded for it. */
  public record RegionEntry(RegionInfo info, long sequenceFloor) {}

  /** A table as the catalog has it. */
  public record TableEntry(TableDescriptor descriptor, boolean enabled, List<RegionEntry> regions) {
    public TableName name() {
      return descriptor.getTableName();
    }

    /** The regions' infos, by start key. */
    public List<RegionInfo> regionInfos() {
      List<RegionInfo> out = new ArrayList<>(regions.size());
      for (RegionEntry r : regions) {
        out.add(r.info());
      }
      return out;
    }
  }

  private final Storage storage;
  private final Catalog catalog;
  private final UUID clusterId;
  private final boolean newVersionBehaviorDefault;
  private final Object ddl = new Object();
  private final NamespaceAdmin namespaces;
  private final Map<TableName, Entry> tables = new TreeMap<>();

  /** A table's descriptor and region set, replaced whole by each change. */
  private record Entry(TableDescriptor descriptor, RegionSet set) {
    TableEntry view() {
      List<RegionEntry> regions = new ArrayList<>(set.members().size());
      for (RegionSet.Member m : set.members()) {
        regions.add(new RegionEntry(m.info(), m.sequenceFloor()));
      }
      return new TableEntry(descriptor, set.isEnabled(), List.copyOf(regions));
    }
  }

  /**
   * Loads the catalog of {@code storage}'s root, creating the cluster id of a new root, and
   * finishes or undoes what a crash interrupted (as a database does when it opens).
   *
   * @param newVersionBehaviorDefault NEW_VERSION_BEHAVIOR of new families that do not say ({@link
   *     DatabaseSettings#NEW_VERSION_BEHAVIOR_DEFAULT})
   */
  public static ClusterCatalog open(Storage storage, Clock clock, boolean newVersionBehaviorDefault)
      throws IOException {
    return new ClusterCatalog(storage, clock, newVersionBehaviorDefault);
  }

  private ClusterCatalog(Storage storage, Clock clock, boolean newVersionBehaviorDefault)
      throws IOException {
    this.storage = storage;
    this.clusterId = Catalog.clusterId(storage, true);
    this.catalog = new Catalog(storage, clock);
    this.newVersionBehaviorDefault = newVersionBehaviorDefault;
    Catalog.Loaded loaded = catalog.load();
    for (Catalog.LoadedTable t : loaded.tables()) {
      tables.put(t.descriptor().getTableName(), new Entry(t.descriptor(), t.regions()));
    }
    this.namespaces =
        new NamespaceAdmin(
            catalog,
            () -> {
              synchronized (ddl) {
                return new ArrayList<>(tables.keySet());
              }
            },
            ddl,
            loaded.namespaces());
  }

  /** The cluster id of a root directory, which must exist (region servers check theirs). */
  public static UUID clusterIdOf(Storage storage) throws IOException {
    return Catalog.clusterId(storage, false);
  }

  /**
   * A table's descriptor as stored (region servers read it when they open one of its regions).
   *
   * @throws TableNotFoundException when the table has no descriptor
   */
  public static TableDescriptor readDescriptor(Storage storage, TableName name) throws IOException {
    String path = Catalog.tableDir(name) + "/" + CatalogFiles.TABLE_DESC;
    if (!storage.exists(path)) {
      throw new TableNotFoundException(name.getNameAsString());
    }
    TableDescriptor desc =
        CatalogFiles.decodeTable(CatalogFiles.readAll(storage, path), storage.describe(path));
    if (!desc.getTableName().equals(name)) {
      throw new IOException(
          storage.describe(path) + " describes table " + desc.getTableName() + ", not " + name);
    }
    return desc;
  }

  /**
   * The sequence floor the table's region set records for a region (what a region server opens it
   * with), or 0 when the set does not list it.
   */
  public static long readRegionFloor(Storage storage, RegionInfo info) throws IOException {
    String path = Catalog.tableDir(info.getTable()) + "/" + CatalogFiles.REGION_SET;
    if (!storage.exists(path)) {
      return 0;
    }
    RegionSet set =
        CatalogFiles.decodeRegionSet(CatalogFiles.readAll(storage, path), storage.describe(path));
    RegionSet.Member m = set.member(info.getEncodedName());
    return m == null ? 0 : m.sequenceFloor();
  }

  public UUID clusterId() {
    return clusterId;
  }

  public Storage storage() {
    return storage;
  }

  // ---- namespaces ---------------------------------------------------------------------------

  public void createNamespace(NamespaceDescriptor ns) throws IOException {
    namespaces.create(ns);
  }

  public void modifyNamespace(NamespaceDescriptor ns) throws IOException {
    namespaces.modify(ns);
  }

  /**
   * @throws ConstraintException for a reserved namespace or one that still holds tables
   */
  public void deleteNamespace(String name) throws IOException {
    namespaces.delete(name);
  }

  public NamespaceDescriptor getNamespaceDescriptor(String name) throws IOException {
    return namespaces.get(name);
  }

  public List<NamespaceDescriptor> listNamespaceDescriptors() {
    return namespaces.list();
  }

  // ---- tables -------------------------------------------------------------------------------

  public List<TableEntry> tables() {
    synchronized (ddl) {
      List<TableEntry> out = new ArrayList<>(tables.size());
      for (Entry e : tables.values()) {
        out.add(e.view());
      }
      return out;
    }
  }

  /** The table, or null when it does not exist. */
  public TableEntry table(TableName name) {
    synchronized (ddl) {
      Entry e = tables.get(name);
      return e == null ? null : e.view();
    }
  }

  /**
   * @throws TableNotFoundException when it does not exist
   */
  public TableEntry requireTable(TableName name) throws TableNotFoundException {
    TableEntry t = table(name);
    if (t == null) {
      throw new TableNotFoundException(name.getNameAsString());
    }
    return t;
  }

  /**
   * Creates an enabled table of one region per range between the split keys (checked and sorted as
   * the database does, {@link SplitKeys}); its families get the default delete semantics when they
   * do not say.
   *
   * @throws TableExistsException when it exists
   * @throws NamespaceNotFoundException when its namespace does not
   */
  public TableEntry createTable(TableDescriptor requested, byte[][] splitKeys) throws IOException {
    byte[][] splits = SplitKeys.check(splitKeys);
    TableName name = requested.getTableName();
    synchronized (ddl) {
      namespaces.requireUserNamespace(name);
      if (tables.containsKey(name)) {
        throw new TableExistsException(name.getNameAsString());
      }
      TableDescriptor desc =
          TableAdmin.withDeleteSemantics(requested, null, newVersionBehaviorDefault);
      RegionSet set = RegionSet.of(name, RegionSet.State.ENABLED, catalog.newRegions(name, splits));
      catalog.createTable(desc, set);
      return put(desc, set);
    }
  }

  /**
   * Marks the table enabled or disabled (its region set's state); the master then opens or closes
   * its regions.
   *
   * @param floors the sequence floors to record with the change (by encoded name; regions not named
   *     keep theirs), e.g. what the region servers reported when they closed the regions
   */
  public TableEntry setEnabled(TableName name, boolean enabled, Map<String, Long> floors)
      throws IOException {
    return rewriteSet(name, enabled, floors);
  }

  /**
   * Records the sequence floors region servers reported when they closed regions of the table (by
   * encoded name; a floor lower than the recorded one changes nothing), so that the next server to
   * open a region continues its sequence ids.
   */
  public TableEntry recordFloors(TableName name, Map<String, Long> floors) throws IOException {
    synchronized (ddl) {
      return rewriteSet(name, require(name).set().isEnabled(), floors);
    }
  }

  private TableEntry rewriteSet(TableName name, boolean enabled, Map<String, Long> floors)
      throws IOException {
    synchronized (ddl) {
      Entry e = require(name);
      List<RegionSet.Member> members = new ArrayList<>(e.set().members().size());
      for (RegionSet.Member m : e.set().members()) {
        Long floor = floors.get(m.info().getEncodedName());
        members.add(
            floor == null || floor <= m.sequenceFloor()
                ? m
                : new RegionSet.Member(m.info(), floor));
      }
      RegionSet set =
          RegionSet.of(name, enabled ? RegionSet.State.ENABLED : RegionSet.State.DISABLED, members);
      catalog.writeRegionSet(set);
      return put(e.descriptor(), set);
    }
  }

  /**
   * Replaces the table's descriptor (tables cannot be renamed); a family that does not say keeps
   * its delete semantics.
   */
  public TableEntry modifyTable(TableDescriptor requested) throws IOException {
    TableName name = requested.getTableName();
    synchronized (ddl) {
      Entry e = require(name);
      TableDescriptor desc =
          TableAdmin.withDeleteSemantics(requested, e.descriptor(), newVersionBehaviorDefault);
      catalog.writeDescriptor(desc);
      return put(desc, e.set());
    }
  }

  /**
   * Deletes a disabled table whose regions no server serves any more: its descriptor first (after
   * that the table does not exist), then its files.
   *
   * @throws TableNotDisabledException when it is enabled
   */
  public void deleteTable(TableName name) throws IOException {
    synchronized (ddl) {
      Entry e = require(name);
      if (e.set().isEnabled()) {
        throw new TableNotDisabledException(
            "table '"
                + name.getNameAsString()
                + "' is enabled; disable it before it can be deleted");
      }
      catalog.deleteTable(name);
      tables.remove(name);
    }
  }

  /**
   * Replaces a disabled table's regions with new, empty ones (the same split points when {@code
   * preserveSplits}) and enables it; the old regions' files go to the archive.
   *
   * @throws TableNotDisabledException when it is enabled
   */
  public TableEntry truncateTable(TableName name, boolean preserveSplits) throws IOException {
    synchronized (ddl) {
      Entry e = require(name);
      if (e.set().isEnabled()) {
        throw new TableNotDisabledException(
            "table '"
                + name.getNameAsString()
                + "' is enabled; disable it before it can be truncated");
      }
      List<RegionSet.Member> old = e.set().members();
      byte[][] splits = new byte[preserveSplits ? old.size() - 1 : 0][];
      for (int i = 0; i < splits.length; i++) {
        splits[i] = old.get(i + 1).info().getStartKey();
      }
      RegionSet set = RegionSet.of(name, RegionSet.State.ENABLED, catalog.newRegions(name, splits));
      for (RegionSet.Member m : set.members()) {
        catalog.createRegion(m.info());
      }
      catalog.writeRegionSet(set);
      for (RegionSet.Member m : old) {
        catalog.archive(Catalog.regionDir(m.info()));
      }
      return put(e.descriptor(), set);
    }
  }

  /**
   * Where a dead server's logged edits of a region go when its log is split ({@link
   * WalSplitter#split}): the region's directory and sequence floor when the catalog lists the
   * region (in any table, enabled or disabled), else null (its edits are dropped: the region was
   * split, merged, truncated or dropped after it closed with a final flush).
   */
  public WalSplitter.Target recoveryTarget(String encodedRegionName) {
    synchronized (ddl) {
      for (Entry e : tables.values()) {
        RegionSet.Member m = e.set().member(encodedRegionName);
        if (m != null) {
          return new WalSplitter.Target(Catalog.regionDir(m.info()), m.sequenceFloor());
        }
      }
      return null;
    }
  }

  /** A region id never handed out before (for the regions a split or merge makes). */
  public long nextRegionId() throws IOException {
    return catalog.nextRegionId();
  }

  /**
   * Commits a split or merge: the table's region set lists {@code news} (whose directories a region
   * server wrote, with references to the old regions' files) instead of the old regions, with
   * {@code floor} as their sequence floor. One atomic file replacement; before it the old regions
   * are the table's (and the unlisted new directories are removed by the next load), after it the
   * new ones.
   *
   * @throws IllegalArgumentException when the old regions are not all the table's, or the new ones
   *     do not cover exactly their rows
   */
  public TableEntry replaceRegions(
      TableName name, List<String> oldEncodedNames, List<RegionInfo> news, long floor)
      throws IOException {
    synchronized (ddl) {
      Entry e = require(name);
      List<RegionSet.Member> members = new ArrayList<>();
      boolean placed = false;
      int found = 0;
      for (RegionSet.Member m : e.set().members()) {
        if (oldEncodedNames.contains(m.info().getEncodedName())) {
          found++;
          if (!placed) {
            for (RegionInfo n : news) {
              members.add(new RegionSet.Member(n, floor));
            }
            placed = true;
          }
        } else {
          members.add(m);
        }
      }
      if (found != oldEncodedNames.size()) {
        throw new IllegalArgumentException(
            "table " + name + " does not list every region of " + oldEncodedNames);
      }
      RegionSet set = e.set().withMembers(members); // checks that the regions tile the table
      catalog.writeRegionSet(set);
      return put(e.descriptor(), set);
    }
  }

  /**
   * Archives the directories of the table's regions that its region set no longer lists and no
   * listed region refers to any more (split and merge parents whose daughters compacted their
   * references away, leftovers of unfinished changes): HBase's catalog janitor. The caller makes
   * sure no split or merge of the table is writing its new, still unlisted, regions meanwhile.
   */
  public void archiveUnusedRegions(TableName name) throws IOException {
    synchronized (ddl) {
      Entry e = tables.get(name);
      if (e != null) {
        catalog.archiveUnusedRegions(e.set());
      }
    }
  }

  private Entry require(TableName name) throws TableNotFoundException {
    Entry e = tables.get(name);
    if (e == null) {
      throw new TableNotFoundException(name.getNameAsString());
    }
    return e;
  }

  private TableEntry put(TableDescriptor desc, RegionSet set) {
    Entry e = new Entry(desc, set);
    tables.put(desc.getTableName(), e);
    return e.view();
  }
}
