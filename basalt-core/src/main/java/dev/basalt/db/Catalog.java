package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.Storage;
import dev.basalt.region.StoreFileReference;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.wal.WalSplitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database's catalog on storage (../shared/ARCHITECTURE.md section 5, docs/formats/catalog.md):
 *
 * <pre>
 * data/.maxregionid                         highest region id handed out
 * data/&lt;ns&gt;/.nsdesc                         a namespace (none for default and hbase)
 * data/&lt;ns&gt;/&lt;table&gt;/.tabledesc               a table exists exactly when this file does
 * data/&lt;ns&gt;/&lt;table&gt;/.regionset               its state and its current regions
 * data/&lt;ns&gt;/&lt;table&gt;/&lt;region&gt;/.regioninfo
 * data/&lt;ns&gt;/&lt;table&gt;/&lt;region&gt;/&lt;family&gt;/...   store files
 * archive/data/...                          files the table no longer uses, same relative paths
 * </pre>
 *
 * Every change is ordered so that one atomic file replacement decides it, and {@link #load}
 * finishes or forgets what a crash interrupted: a table directory without a descriptor is removed
 * (a creation or deletion did not finish); region directories the region set does not list are
 * archived (a creation or truncation did not finish, or finished but had not cleaned up); family
 * directories the descriptor does not list are archived (a schema change removed the family).
 *
 * <p>Thread-safe for {@link #nextRegionId}; callers serialize the other changes (the database's DDL
 * lock).
 */
final class Catalog {
  private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);
  private static final String MAX_REGION_ID_FILE = "data/.maxregionid";

  /** A table as found on storage. */
  record LoadedTable(TableDescriptor descriptor, RegionSet regions) {}

  /** Everything found on storage, after repairs. */
  record Loaded(List<NamespaceDescriptor> namespaces, List<LoadedTable> tables) {}

  private final Storage storage;
  private final Clock clock;
  private long maxRegionId;

  /** The file holding the cluster id (a UUID in text). */
  static final String CLUSTER_ID_FILE = "basalt.id";

  /**
   * The cluster id of the root directory.
   *
   * @param create whether to create one when the directory has none (a new database or cluster)
   * @throws IOException when there is none and {@code create} is false, or the file holds no id
   */
  static UUID clusterId(Storage storage, boolean create) throws IOException {
    if (storage.exists(CLUSTER_ID_FILE)) {
      String s = new String(CatalogFiles.readAll(storage, CLUSTER_ID_FILE), StandardCharsets.UTF_8);
      try {
        return UUID.fromString(s.trim());
      } catch (IllegalArgumentException e) {
        throw new IOException(storage.describe(CLUSTER_ID_FILE) + " does not hold a cluster id");
      }
    }
    if (!create) {
      throw new IOException(
          storage.describe("")
              + " holds no Basalt data ("
              + CLUSTER_ID_FILE
              + " is missing): not the root directory of a cluster");
    }
    UUID id = UUID.randomUUID();
    CatalogFiles.writeAtomically(
        storage, CLUSTER_ID_FILE, id.toString().getBytes(StandardCharsets.UTF_8));
    return id;
  }

  Catalog(Storage storage, Clock clock) throws IOException {
    this.storage = storage;
    this.clock = clock;
    this.maxRegionId =
        storage.exists(MAX_REGION_ID_FILE)
            ? Bytes.toLong(CatalogFiles.readAll(storage, MAX_REGION_ID_FILE))
            : 0;
  }

  Storage storage() {
    return storage;
  }

  static String namespaceDir(String namespace) {
    return "data/" + namespace;
  }

  static String tableDir(TableName name) {
    return namespaceDir(name.getNamespaceAsString()) + "/" + name.getQualifierAsString();
  }

  static String regionDir(RegionInfo info) {
    return tableDir(info.getTable()) + "/" + info.getEncodedName();
  }

  static String archiveOf(String path) {
    return "archive/" + path;
  }

  /** A region id never handed out before: the clock, or one more than the last id if later. */
  synchronized long nextRegionId() throws IOException {
    long id = Math.max(clock.currentTimeMillis(), maxRegionId + 1);
    CatalogFiles.writeAtomically(storage, MAX_REGION_ID_FILE, Bytes.toBytes(id));
    maxRegionId = id;
    return id;
  }

  private synchronized void sawRegionId(long id) {
    maxRegionId = Math.max(maxRegionId, id);
  }

  // ---- namespaces -------------------------------------------------------------------------

  void writeNamespace(NamespaceDescriptor ns) throws IOException {
    CatalogFiles.writeAtomically(
        storage,
        namespaceDir(ns.getName()) + "/" + CatalogFiles.NAMESPACE_DESC,
        CatalogFiles.encodeNamespace(ns));
  }

  /** Removes an empty namespace: its descriptor first (the commit), then its directory. */
  void deleteNamespace(String namespace) throws IOException {
    String dir = namespaceDir(namespace);
    storage.delete(dir + "/" + CatalogFiles.NAMESPACE_DESC);
    storage.delete(dir);
  }

  // ---- tables -----------------------------------------------------------------------------

  void writeDescriptor(TableDescriptor desc) throws IOException {
    CatalogFiles.writeAtomically(
        storage,
        tableDir(desc.getTableName()) + "/" + CatalogFiles.TABLE_DESC,
        CatalogFiles.encodeTable(desc));
  }

  void writeRegionSet(RegionSet set) throws IOException {
    CatalogFiles.writeAtomically(
        storage,
        tableDir(set.table()) + "/" + CatalogFiles.REGION_SET,
        CatalogFiles.encodeRegionSet(set));
  }

  /** Fresh regions, one per range between split keys, sharing one new region id. */
  List<RegionSet.Member> newRegions(TableName name, byte[][] splits) throws IOException {
    long id = nextRegionId();
    List<RegionSet.Member> out = new ArrayList<>(splits.length + 1);
    byte[] start = Bytes.EMPTY;
    for (int i = 0; i <= splits.length; i++) {
      byte[] end = i < splits.length ? splits[i] : Bytes.EMPTY;
      out.add(new RegionSet.Member(RegionInfo.of(name, start, end, id), 0));
      start = end;
    }
    return out;
  }

  /**
   * Writes a new table: its region directories, its region set, then its descriptor, which commits
   * it (a crash before that leaves directories that the next load removes).
   */
  void createTable(TableDescriptor desc, RegionSet set) throws IOException {
    clearTableDir(desc.getTableName());
    for (RegionSet.Member m : set.members()) {
      createRegion(m.info());
    }
    writeRegionSet(set);
    FaultPoints.hit(Database.FAULT_CREATE_BEFORE_DESCRIPTOR);
    writeDescriptor(desc);
  }

  /**
   * Writes the regions a split or merge hands the old regions' data to: each new region's directory
   * with its {@code .regioninfo}, and one reference file per store file of each old region, cut to
   * the new region's rows ({@link StoreFileReference}).
   *
   * @param files per old region (in the order of {@code olds}), its store file names by family
   */
  void writeHandOver(
      List<RegionInfo> news, List<RegionInfo> olds, List<Map<String, List<String>>> files)
      throws IOException {
    for (RegionInfo n : news) {
      createRegion(n);
      for (int i = 0; i < olds.size(); i++) {
        for (Map.Entry<String, List<String>> fam : files.get(i).entrySet()) {
          String familyDir = regionDir(n) + "/" + fam.getKey();
          for (String file : fam.getValue()) {
            new StoreFileReference(
                    olds.get(i).getEncodedName(), file, n.getStartKey(), n.getEndKey())
                .write(storage, familyDir);
          }
        }
      }
    }
  }

  /** Creates a region's directory with its {@code .regioninfo}. */
  void createRegion(RegionInfo info) throws IOException {
    String dir = regionDir(info);
    storage.delete(dir);
    CatalogFiles.writeAtomically(
        storage, dir + "/" + CatalogFiles.REGION_INFO, CatalogFiles.encodeRegion(info));
  }

  /** Deletes a table: its descriptor first (after that the table does not exist), then the rest. */
  void deleteTable(TableName name) throws IOException {
    String dir = tableDir(name);
    storage.delete(dir + "/" + CatalogFiles.TABLE_DESC);
    storage.delete(dir);
  }

  /**
   * How storage describes the files under a table's directory (the prefix of their block cache
   * keys), ending with a separator.
   */
  String describeTableFiles(TableName name) {
    return storage.describe(tableDir(name)) + "/";
  }

  /** Removes a table directory that may be left over from an earlier table of the same name. */
  void clearTableDir(TableName name) throws IOException {
    storage.delete(tableDir(name));
  }

  /**
   * Moves every file under {@code path} to the same path under {@code archive/}, then removes
   * {@code path}. A crash in between leaves some files in each place; running it again finishes.
   */
  void archive(String path) throws IOException {
    if (storage.isDirectory(path)) {
      for (String name : storage.list(path)) {
        archive(path + "/" + name);
      }
      storage.delete(path);
    } else if (storage.exists(path)) {
      storage.rename(path, archiveOf(path));
    }
  }

  // ---- loading ----------------------------------------------------------------------------

  /** Reads every namespace and table, finishing or undoing what a crash interrupted. */
  Loaded load() throws IOException {
    TreeMap<String, NamespaceDescriptor> namespaces = new TreeMap<>();
    namespaces.put(TableName.DEFAULT_NAMESPACE, NamespaceDescriptor.DEFAULT_NAMESPACE);
    namespaces.put(TableName.SYSTEM_NAMESPACE, NamespaceDescriptor.SYSTEM_NAMESPACE);
    List<LoadedTable> tables = new ArrayList<>();
    for (String ns : storage.list("data")) {
      String nsDir = namespaceDir(ns);
      if (!storage.isDirectory(nsDir)) {
        continue;
      }
      List<LoadedTable> inNamespace = new ArrayList<>();
      for (String t : storage.list(nsDir)) {
        if (storage.isDirectory(nsDir + "/" + t)) {
          TableName name;
          try {
            name = TableName.valueOf(ns, t);
          } catch (IllegalArgumentException e) {
            LOG.warn("ignoring {}: not a table directory ({})", nsDir + "/" + t, e.getMessage());
            continue;
          }
          LoadedTable lt = loadTable(name);
          if (lt != null) {
            inNamespace.add(lt);
          }
        }
      }
      String descPath = nsDir + "/" + CatalogFiles.NAMESPACE_DESC;
      if (storage.exists(descPath)) {
        namespaces.put(
            ns,
            CatalogFiles.decodeNamespace(
                CatalogFiles.readAll(storage, descPath), storage.describe(descPath)));
      } else if (!NamespaceDescriptor.isReserved(ns)) {
        if (inNamespace.isEmpty()) {
          LOG.warn(
              "removing {}: a namespace creation or deletion did not finish",
              storage.describe(nsDir));
          storage.delete(nsDir);
          continue;
        } else {
          // Tables exist only in namespaces that existed when they were created: the descriptor
          // was lost some other way. Keep the tables reachable.
          LOG.warn("namespace {} holds tables but has no descriptor; recreating it", ns);
          NamespaceDescriptor d = NamespaceDescriptor.create(ns).build();
          writeNamespace(d);
          namespaces.put(ns, d);
        }
      }
      tables.addAll(inNamespace);
    }
    return new Loaded(new ArrayList<>(namespaces.values()), tables);
  }

  private LoadedTable loadTable(TableName name) throws IOException {
    String tdir = tableDir(name);
    String descPath = tdir + "/" + CatalogFiles.TABLE_DESC;
    if (!storage.exists(descPath)) {
      LOG.warn("removing {}: a table creation or deletion did not finish", storage.describe(tdir));
      storage.delete(tdir);
      return null;
    }
    TableDescriptor desc =
        CatalogFiles.decodeTable(
            CatalogFiles.readAll(storage, descPath), storage.describe(descPath));
    if (!desc.getTableName().equals(name)) {
      throw new IOException(
          storage.describe(descPath) + " describes table " + desc.getTableName() + ", not " + name);
    }
    String setPath = tdir + "/" + CatalogFiles.REGION_SET;
    RegionSet set;
    if (storage.exists(setPath)) {
      set =
          CatalogFiles.decodeRegionSet(
              CatalogFiles.readAll(storage, setPath), storage.describe(setPath));
      if (!set.table().equals(name)) {
        throw new IOException(
            storage.describe(setPath) + " lists regions of " + set.table() + ", not " + name);
      }
    } else {
      set = adoptRegions(name);
    }
    for (RegionSet.Member m : set.members()) {
      RegionInfo info = m.info();
      sawRegionId(info.getRegionId());
      String infoPath = regionDir(info) + "/" + CatalogFiles.REGION_INFO;
      if (!storage.exists(infoPath)) {
        throw new IOException(
            storage.describe(setPath)
                + " lists region "
                + info.getEncodedName()
                + " but "
                + storage.describe(infoPath)
                + " does not exist");
      }
      archiveDroppedFamilies(info, desc);
    }
    archiveUnusedRegions(set);
    return new LoadedTable(desc, set);
  }

  /**
   * Archives the region directories of a table that its region set does not list and no listed
   * region refers to: left by a table change that did not finish (regions never switched to), or
   * that finished (regions switched away from) and whose files no reference still reads. Call under
   * the DDL lock (a split or merge in progress has unlisted regions of its own).
   *
   * @return the unlisted regions kept because listed regions still refer to them
   */
  Set<String> archiveUnusedRegions(RegionSet set) throws IOException {
    String tdir = tableDir(set.table());
    Set<String> listed = new HashSet<>();
    for (RegionSet.Member m : set.members()) {
      listed.add(m.info().getEncodedName());
    }
    List<String> unlisted = new ArrayList<>();
    for (String r : storage.list(tdir)) {
      if (!listed.contains(r) && storage.isDirectory(tdir + "/" + r)) {
        unlisted.add(r);
      }
    }
    if (unlisted.isEmpty()) {
      return Set.of();
    }
    Set<String> referenced = referencedRegions(set);
    Set<String> kept = new HashSet<>();
    for (String r : unlisted) {
      if (referenced.contains(r)) {
        kept.add(r);
        continue;
      }
      LOG.info(
          "archiving {}: not a region of {} (left by an unfinished or finished table change)",
          storage.describe(tdir + "/" + r),
          set.table());
      archive(tdir + "/" + r);
    }
    return kept;
  }

  /** Regions whose files the listed regions' reference files read (split or merge parents). */
  Set<String> referencedRegions(RegionSet set) throws IOException {
    Set<String> out = new HashSet<>();
    for (RegionSet.Member m : set.members()) {
      String dir = regionDir(m.info());
      for (String f : storage.list(dir)) {
        if (f.startsWith(".")
            || f.equals(WalSplitter.RECOVERED_EDITS_DIR) // not a family: edits to replay
            || !storage.isDirectory(dir + "/" + f)) {
          continue;
        }
        for (String file : storage.list(dir + "/" + f)) {
          if (StoreFileReference.isReference(file)) {
            out.add(StoreFileReference.parentRegionOf(file));
          }
        }
      }
    }
    return out;
  }

  /**
   * A table written before region sets existed has regions only as directories with a {@code
   * .regioninfo}; they become its region set (enabled).
   */
  private RegionSet adoptRegions(TableName name) throws IOException {
    String tdir = tableDir(name);
    TreeMap<byte[], RegionInfo> byStart = new TreeMap<>(Bytes.COMPARATOR);
    for (String r : storage.list(tdir)) {
      String infoPath = tdir + "/" + r + "/" + CatalogFiles.REGION_INFO;
      if (!storage.isDirectory(tdir + "/" + r) || !storage.exists(infoPath)) {
        continue;
      }
      RegionInfo info =
          CatalogFiles.decodeRegion(
              CatalogFiles.readAll(storage, infoPath), storage.describe(infoPath));
      byStart.put(info.getStartKey(), info);
    }
    List<RegionSet.Member> members = new ArrayList<>();
    for (RegionInfo info : byStart.values()) {
      members.add(new RegionSet.Member(info, 0));
    }
    RegionSet set;
    try {
      set = RegionSet.of(name, RegionSet.State.ENABLED, members);
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "table "
              + name
              + " has no region set and its region directories do not cover its rows: "
              + e.getMessage(),
          e);
    }
    LOG.info("recording the {} region(s) of {} in a region set", members.size(), name);
    writeRegionSet(set);
    return set;
  }

  /** Archives family directories of a region that its table no longer has. */
  private void archiveDroppedFamilies(RegionInfo info, TableDescriptor desc) throws IOException {
    String dir = regionDir(info);
    for (String f : storage.list(dir)) {
      if (f.startsWith(".")
          || f.equals(WalSplitter.RECOVERED_EDITS_DIR)
          || !storage.isDirectory(dir + "/" + f)) {
        continue;
      }
      if (!desc.hasColumnFamily(Bytes.toBytes(f))) {
        LOG.info(
            "archiving {}: family {} was removed from {}", dir + "/" + f, f, desc.getTableName());
        archive(dir + "/" + f);
      }
    }
  }
}
