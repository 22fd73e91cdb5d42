package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.region.RegionSplitPoint;
import dev.basalt.region.RowCache;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.sstable.BlockCache;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.LogTakeover;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalEntry;
import dev.basalt.wal.WalReplay;
import dev.basalt.wal.WalSettings;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Basalt database in one directory (the embedded API; {@link Basalt#open} opens one): namespaces,
 * tables of one or more regions, and the write-ahead log they share. Opening it replays the log
 * into every region of every table, so every acknowledged write survives a crash; the directory is
 * locked against a second process.
 *
 * <p>Table and namespace changes (create, delete, enable, disable, modify, truncate) are done by
 * {@link TableAdmin} and {@link NamespaceAdmin}, one at a time; their files and the order that
 * makes each one atomic are described by {@link Catalog} (docs/formats/catalog.md). Reads and
 * writes go through {@link Table} handles, which route rows to regions.
 *
 * <p>Thread-safe.
 */
public final class Database implements Closeable {
  /** Fault point: a new table's regions are written but its descriptor is not. */
  public static final String FAULT_CREATE_BEFORE_DESCRIPTOR =
      TableAdmin.FAULT_CREATE_BEFORE_DESCRIPTOR;

  static final String SERVER_ID = "local";

  /** The name of the database's log: its directory under {@code WALs/}. */
  public static final String LOG_NAME = SERVER_ID;

  private static final String LOCK_FILE = "LOCK";
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);

  private final Storage storage;
  private final Config config;

  /** The root's LOCK file, held while open: one process at a time opens a database. */
  private final Closeable lock;

  /** The lock of the log's directory (WALs/local), held while open ({@link LogTakeover}). */
  private final Closeable logLock;

  private final UUID clusterId;
  private final Wal wal;
  private final BlockCache blockCache;
  private final RowCache rowCache; // null when turned off
  private final Maintenance maintenance;
  private final List<RecoveredNonce> recoveredNonces;

  /**
   * An operation the client tagged with a nonce (an increment or append it may retry), found in the
   * edit log this open replayed.
   *
   * @param writeTime when the edit was logged, ms since epoch
   */
  public record RecoveredNonce(long nonceGroup, long nonce, long writeTime) {}

  private final LiveTables tables;
  private final TableAdmin tableAdmin;
  private final NamespaceAdmin namespaceAdmin;
  private final RegionTransitions transitions;
  private final Catalog catalog;
  private final Object ddl = new Object();
  private volatile boolean closed;

  /** Opens (creating if needed) the database in {@code dir} with default settings. */
  public static Database open(Path dir) throws IOException {
    return open(dir, Config.defaults(), Clock.system());
  }

  public static Database open(Path dir, Config config) throws IOException {
    return open(dir, config, Clock.system());
  }

  /**
   * Opens (creating if needed) the database in {@code dir}.
   *
   * @throws IOException when another process has it open, or its files cannot be recovered
   * @throws IllegalArgumentException when settings contradict each other (see SettingsTogether)
   */
  public static Database open(Path dir, Config config, Clock clock) throws IOException {
    SettingsTogether.check(config); // before the directory is created
    return open(new LocalStorage(dir), config, clock);
  }

  /**
   * Opens (creating if needed) the database at the root of {@code storage} (a local directory, or
   * one on HDFS), which the caller closes after the database. The root's {@code LOCK} keeps a
   * second process out; then the log directory is taken over from the previous holder ({@link
   * LogTakeover}: on HDFS, a process that lost the lock while paused loses its log files too).
   *
   * @throws IOException when another process has it open, or its files cannot be recovered
   * @throws IllegalArgumentException when settings contradict each other (see SettingsTogether)
   */
  public static Database open(Storage storage, Config config, Clock clock) throws IOException {
    SettingsTogether.check(config);
    String self = LockHolder.current().format();
    Closeable lock = storage.tryLockFile(LOCK_FILE, self);
    if (lock == null) {
      String holder = storage.lockFileHolder(LOCK_FILE);
      LockHolder h = LockHolder.parse(holder);
      boolean here = h != null && h.equals(LockHolder.current());
      throw new IOException(
          "database "
              + storage.describe("")
              + (here
                  ? " is already open in this process"
                  : " is open in another process" + (holder == null ? "" : " (" + holder + ")")));
    }
    Closeable logLock = null;
    try {
      logLock = LogTakeover.take(storage, Wal.DIR + "/" + SERVER_ID, self, config);
      return new Database(storage, config, clock, lock, logLock);
    } catch (IOException | RuntimeException e) {
      if (logLock != null) {
        logLock.close();
      }
      lock.close();
      throw e;
    }
  }

  private Database(Storage storage, Config config, Clock clock, Closeable lock, Closeable logLock)
      throws IOException {
    this.storage = storage;
    this.config = config;
    this.lock = lock;
    this.logLock = logLock;
    this.clusterId = Catalog.clusterId(storage, true);
    this.catalog = new Catalog(storage, clock);
    Catalog.Loaded loaded = catalog.load();

    // Which table and region set member each region of the WAL belongs to.
    Map<String, Catalog.LoadedTable> tableOf = new HashMap<>();
    for (Catalog.LoadedTable t : loaded.tables()) {
      for (RegionSet.Member m : t.regions().members()) {
        tableOf.put(m.info().getEncodedName(), t);
      }
    }
    Map<String, List<KeyValue>> replayed = new HashMap<>();
    List<RecoveredNonce> nonces = new ArrayList<>();
    List<Wal.Segment> recovered =
        WalReplay.replay(
            storage,
            SERVER_ID,
            config.get(WalSettings.SKIP_REPLAY_ERRORS),
            e -> {
              if (e.nonce() != WalEntry.NO_NONCE) {
                // Also for edits the stores already hold: the operation was applied either way.
                nonces.add(new RecoveredNonce(e.nonceGroup(), e.nonce(), e.writeTime()));
              }
              Catalog.LoadedTable t = tableOf.get(e.region());
              if (t != null) {
                List<KeyValue> cells = replayable(t, e.region(), e.cells());
                if (!cells.isEmpty()) {
                  replayed.computeIfAbsent(e.region(), r -> new ArrayList<>()).addAll(cells);
                }
              }
            });
    this.wal = new Wal(storage, SERVER_ID, config, clock, recovered);
    this.recoveredNonces = List.copyOf(nonces);
    this.blockCache =
        new BlockCache(
            (long)
                (Runtime.getRuntime().maxMemory()
                    * config.get(DatabaseSettings.BLOCK_CACHE_FRACTION)));
    this.tables = new LiveTables(clock, config.get(DatabaseSettings.TRANSITION_WAIT));
    this.maintenance = new Maintenance(tables::openRegions, config, clock);
    double rowCacheShare = config.get(DatabaseSettings.ROW_CACHE_FRACTION);
    this.rowCache =
        rowCacheShare == 0
            ? null
            : new RowCache((long) (Runtime.getRuntime().maxMemory() * rowCacheShare));
    RegionServices services =
        RegionServices.of(
                clock, config, new WalEditLog(wal, clusterId, clock), blockCache, maintenance)
            .withRowCache(rowCache);
    RegionOpener opener = new RegionOpener(storage, services);
    this.namespaceAdmin = new NamespaceAdmin(catalog, tables::names, ddl, loaded.namespaces());
    this.tableAdmin =
        new TableAdmin(
            catalog,
            tables,
            opener,
            wal,
            ddl,
            namespaceAdmin,
            blockCache,
            config.get(DatabaseSettings.NEW_VERSION_BEHAVIOR_DEFAULT));
    this.transitions =
        new RegionTransitions(catalog, tables, opener, wal, ddl, maintenance::requestCompaction);
    maintenance.setHooks(
        new BackgroundWork(
            tables,
            transitions,
            catalog,
            ArchiveCleaner.forDatabase(
                storage,
                config.get(CleanerSettings.WAL_TTL),
                config.get(CleanerSettings.FILE_TTL),
                clock,
                config.get(CleanerSettings.REPLICATION_RETAINED_WARN)),
            maintenance,
            config.get(DatabaseSettings.MAX_FILESIZE),
            () -> closed,
            ddl));
    try {
      for (Catalog.LoadedTable t : loaded.tables()) {
        recoverTable(t, opener, replayed);
      }
      for (Wal.Segment s : recovered) {
        for (String region : s.maxSeqByRegion().keySet()) {
          if (!tableOf.containsKey(region)) {
            wal.forgetRegion(region); // its table was dropped or truncated
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      for (Region r : tables.openRegions()) {
        r.close();
      }
      maintenance.stop();
      wal.close();
      throw e;
    }
  }

  /** The cells of a WAL entry that a region must still replay ({@link ReplayFilter}). */
  private static List<KeyValue> replayable(
      Catalog.LoadedTable t, String region, List<KeyValue> cells) {
    return ReplayFilter.replayable(
        t.descriptor(), t.regions().member(region).sequenceFloor(), cells);
  }

  /**
   * Opens an enabled table's regions with their recovered edits, flushing those (so the old WAL
   * segments can be archived); a disabled table's regions stay closed, except that one with edits
   * in the WAL opens just long enough to replay and flush them.
   */
  private void recoverTable(
      Catalog.LoadedTable t, RegionOpener opener, Map<String, List<KeyValue>> replayed)
      throws IOException {
    TableDescriptor desc = t.descriptor();
    RegionSet set = t.regions();
    List<ServedRegion> open = new ArrayList<>();
    try {
      for (RegionSet.Member m : set.members()) {
        String name = m.info().getEncodedName();
        List<KeyValue> cells = replayed.getOrDefault(name, List.of());
        if (!set.isEnabled() && cells.isEmpty()) {
          continue;
        }
        Region region = opener.open(m.info(), desc, m.sequenceFloor());
        if (set.isEnabled()) {
          open.add(new ServedRegion(region));
        }
        int applied = region.replay(cells);
        if (applied > 0) {
          LOG.info(
              "recovered {} cells of region {} of {} from the WAL",
              applied,
              name,
              desc.getTableName());
          region.flush(); // also tells the WAL what is persisted
        } else {
          wal.markPersisted(name, region.getLastSequenceId());
        }
        if (!set.isEnabled()) {
          region.close();
        }
      }
    } catch (IOException | RuntimeException e) {
      for (ServedRegion r : open) {
        r.region().close();
      }
      throw e;
    }
    tables.publish(
        set.isEnabled()
            ? LiveTable.enabled(desc, set, new RegionMap(open))
            : LiveTable.disabled(desc, set));
  }

  static String tableDir(TableName name) {
    return Catalog.tableDir(name);
  }

  LiveTables liveTables() {
    return tables;
  }

  /** This database's cluster id (stamped on its WAL edits). */
  /** The storage under the database's root (replication keeps its peers and queues there). */
  public Storage storage() {
    return storage;
  }

  public UUID getClusterId() {
    return clusterId;
  }

  // ---- namespaces -------------------------------------------------------------------------

  /**
   * @throws NamespaceExistException when it exists (default and hbase always do)
   */
  public void createNamespace(NamespaceDescriptor ns) throws IOException {
    checkOpen();
    namespaceAdmin.create(ns);
  }

  /** Replaces a namespace's configuration. */
  public void modifyNamespace(NamespaceDescriptor ns) throws IOException {
    checkOpen();
    namespaceAdmin.modify(ns);
  }

  /**
   * Removes an empty namespace.
   *
   * @throws ConstraintException when it holds tables or is default or hbase
   * @throws NamespaceNotFoundException when it does not exist
   */
  public void deleteNamespace(String name) throws IOException {
    checkOpen();
    namespaceAdmin.delete(name);
  }

  public NamespaceDescriptor getNamespaceDescriptor(String name) throws IOException {
    return namespaceAdmin.get(name);
  }

  /** Every namespace, by name. */
  public List<NamespaceDescriptor> listNamespaceDescriptors() {
    return namespaceAdmin.list();
  }

  /** Names of every namespace, sorted. */
  public List<String> listNamespaces() {
    List<String> out = new ArrayList<>();
    for (NamespaceDescriptor d : namespaceAdmin.list()) {
      out.add(d.getName());
    }
    return out;
  }

  // ---- table changes ----------------------------------------------------------------------

  /**
   * Creates an enabled table with one region covering all rows.
   *
   * @throws TableExistsException when the name is taken
   * @throws NamespaceNotFoundException when its namespace does not exist
   * @throws ConstraintException for a table in the system namespace {@code hbase}
   */
  public void createTable(TableDescriptor desc) throws IOException {
    createTable(desc, null);
  }

  /**
   * Creates an enabled table with a region per range between the split keys (none: one region).
   *
   * @throws IllegalArgumentException for an empty or repeated split key
   */
  public void createTable(TableDescriptor desc, byte[][] splitKeys) throws IOException {
    checkOpen();
    tableAdmin.create(desc, SplitKeys.check(splitKeys));
  }

  /**
   * Creates an enabled table of {@code numRegions} regions: the first ends at {@code startKey}, the
   * last starts at {@code endKey}, and the keys between are evenly spaced (HBase's rule).
   *
   * @throws IllegalArgumentException for fewer than 3 regions or {@code startKey >= endKey}
   */
  public void createTable(TableDescriptor desc, byte[] startKey, byte[] endKey, int numRegions)
      throws IOException {
    createTable(desc, SplitKeys.between(startKey, endKey, numRegions));
  }

  /**
   * Deletes a disabled table and all its data.
   *
   * @throws TableNotFoundException when it does not exist
   * @throws TableNotDisabledException when it is enabled
   */
  public void deleteTable(TableName name) throws IOException {
    checkOpen();
    tableAdmin.delete(name);
  }

  /**
   * Removes every row of a disabled table, which comes back enabled: with its current region
   * boundaries when {@code preserveSplits}, else as one region.
   *
   * @throws TableNotDisabledException when it is enabled
   */
  public void truncateTable(TableName name, boolean preserveSplits) throws IOException {
    checkOpen();
    tableAdmin.truncate(name, preserveSplits);
  }

  /**
   * Flushes and closes the table's regions; until enabled again every read and write of it fails
   * with {@link TableNotEnabledException}.
   *
   * @throws TableNotEnabledException when it is already disabled
   */
  public void disableTable(TableName name) throws IOException {
    checkOpen();
    tableAdmin.disable(name);
  }

  /**
   * Opens the regions of a disabled table again.
   *
   * @throws TableNotDisabledException when it is already enabled
   */
  public void enableTable(TableName name) throws IOException {
    checkOpen();
    tableAdmin.enable(name);
  }

  public boolean isTableEnabled(TableName name) throws TableNotFoundException {
    return tables.require(name).isEnabled();
  }

  public boolean isTableDisabled(TableName name) throws TableNotFoundException {
    return tables.require(name).phase() == LiveTable.Phase.DISABLED;
  }

  /**
   * Replaces a table's descriptor: families added, removed (their data archived) or altered, table
   * attributes changed. An enabled table's regions are flushed and reopened; operations meanwhile
   * wait.
   *
   * @throws TableNotFoundException when it does not exist
   */
  public void modifyTable(TableDescriptor desc) throws IOException {
    checkOpen();
    tableAdmin.modify(desc);
  }

  /**
   * @throws InvalidFamilyOperationException when the family exists
   */
  public void addColumnFamily(TableName name, ColumnFamilyDescriptor family) throws IOException {
    checkOpen();
    tableAdmin.addFamily(name, family);
  }

  /**
   * Removes a family and archives its data.
   *
   * @throws InvalidFamilyOperationException when it does not exist or is the table's only family
   */
  public void deleteColumnFamily(TableName name, byte[] family) throws IOException {
    checkOpen();
    tableAdmin.deleteFamily(name, family);
  }

  /**
   * @throws InvalidFamilyOperationException when the family does not exist
   */
  public void modifyColumnFamily(TableName name, ColumnFamilyDescriptor family) throws IOException {
    checkOpen();
    tableAdmin.modifyFamily(name, family);
  }

  // ---- splits and merges ------------------------------------------------------------------

  /**
   * Splits the region holding {@code splitRow} at that row (HBase's {@code Admin.split(table,
   * splitPoint)}): the daughters refer to the parent's files until their compactions rewrite them,
   * so this takes no longer than a flush.
   *
   * @return the two new regions
   * @throws BasaltIOException (DoNotRetryIOException) when the row is a region's start row, the
   *     region still has references, or the table does not allow splits
   */
  public List<RegionInfo> split(TableName name, byte[] splitRow) throws IOException {
    checkOpen();
    if (splitRow == null || splitRow.length == 0) {
      throw new IllegalArgumentException("split row cannot be empty");
    }
    return transitions.split(name, splitRow, splitRow);
  }

  /**
   * Splits every region of the table that has a split point (the middle row of its largest store
   * file) and no references.
   *
   * @return the new regions
   */
  public List<RegionInfo> split(TableName name) throws IOException {
    checkOpen();
    List<RegionInfo> out = new ArrayList<>();
    for (ServedRegion r : tables.requireEnabled(name).regions().all()) {
      if (!r.region().hasReferences() && RegionSplitPoint.of(r.region()) != null) {
        out.addAll(
            transitions.split(name, r.info().getStartKey(), null, r.info().getEncodedName()));
      }
    }
    return out;
  }

  /**
   * Splits one region at its split point.
   *
   * @param regionName the region's full name or its encoded name
   * @throws UnknownRegionException when no table has such a region
   */
  public List<RegionInfo> splitRegion(byte[] regionName) throws IOException {
    checkOpen();
    RegionInfo r = findRegion(regionName);
    List<RegionInfo> out =
        transitions.split(r.getTable(), r.getStartKey(), null, r.getEncodedName());
    if (out.isEmpty()) {
      throw new UnknownRegionException(
          "region " + r.getEncodedName() + " was replaced while it was being split");
    }
    return out;
  }

  /**
   * Merges two adjacent regions of one table into one (HBase's {@code Admin.mergeRegions}): the new
   * region refers to both regions' files until its compaction rewrites them.
   *
   * @param regionA a region's full or encoded name
   * @param regionB the other's
   * @return the new region
   * @throws MergeRegionException when they are the same, of different tables, not adjacent, or
   *     still have references
   * @throws UnknownRegionException when no table has one of them
   */
  public RegionInfo mergeRegions(byte[] regionA, byte[] regionB) throws IOException {
    checkOpen();
    RegionInfo a = findRegion(regionA);
    RegionInfo b = findRegion(regionB);
    if (!a.getTable().equals(b.getTable())) {
      throw new MergeRegionException(
          "regions "
              + a.getEncodedName()
              + " and "
              + b.getEncodedName()
              + " belong to different tables ("
              + a.getTable()
              + ", "
              + b.getTable()
              + ")");
    }
    return transitions.merge(a.getTable(), a.getEncodedName(), b.getEncodedName());
  }

  /** The region with this full or encoded name, in any table. */
  private RegionInfo findRegion(byte[] name) throws UnknownRegionException {
    String asString = new String(name, StandardCharsets.ISO_8859_1);
    for (LiveTable t : tables.all()) {
      for (RegionInfo r : t.regionSet().regions()) {
        if (r.getEncodedName().equals(asString)
            || java.util.Arrays.equals(r.getRegionName(), name)) {
          return r;
        }
      }
    }
    throw new UnknownRegionException("no table has a region named " + Bytes.toStringBinary(name));
  }

  // ---- tables -----------------------------------------------------------------------------

  public boolean tableExists(TableName name) {
    return tables.get(name) != null;
  }

  /** Descriptors of every table, by name. */
  public List<TableDescriptor> listTables() {
    List<TableDescriptor> out = new ArrayList<>();
    for (LiveTable t : tables.all()) {
      out.add(t.descriptor());
    }
    out.sort((a, b) -> a.getTableName().compareTo(b.getTableName()));
    return out;
  }

  /** Names of every table, sorted. */
  public List<TableName> listTableNames() {
    List<TableName> out = new ArrayList<>();
    for (TableDescriptor d : listTables()) {
      out.add(d.getTableName());
    }
    return out;
  }

  /**
   * Descriptors of the tables of one namespace, by name.
   *
   * @throws NamespaceNotFoundException when it does not exist
   */
  public List<TableDescriptor> listTablesByNamespace(String namespace) throws IOException {
    namespaceAdmin.get(namespace);
    List<TableDescriptor> out = new ArrayList<>();
    for (TableDescriptor d : listTables()) {
      if (d.getTableName().getNamespaceAsString().equals(namespace)) {
        out.add(d);
      }
    }
    return out;
  }

  /**
   * The open region with this full region name (as hbase:meta and HBase's client name it), for a
   * server that routes requests by region: the table is the part before the first comma, the start
   * key the part up to the last (a region id and encoded name hold none), so one search of that
   * table's regions by start key finds it. A request names its region every time, so this runs once
   * per call.
   *
   * @throws BasaltIOException named NotServingRegionException when no enabled table serves it (the
   *     client then re-reads hbase:meta)
   */
  public Region onlineRegion(byte[] regionName) throws BasaltIOException {
    int firstComma = Bytes.indexOf(regionName, (byte) ',', 0);
    int lastComma = Bytes.lastIndexOf(regionName, (byte) ',');
    LiveTable t =
        firstComma > 0 && lastComma > firstComma ? tableNamed(regionName, firstComma) : null;
    if (t != null && t.isEnabled() && !t.regions().isEmpty()) {
      ServedRegion r = t.regions().locate(regionName, firstComma + 1, lastComma - firstComma - 1);
      if (r.info().hasRegionName(regionName) && !r.region().isClosed()) {
        return r.region();
      }
    }
    throw new BasaltIOException(
        "region " + Bytes.toStringBinary(regionName) + " is not online on this server",
        "org.apache.hadoop.hbase.NotServingRegionException",
        false);
  }

  /** The table whose name is {@code regionName[0, length)}, or null. */
  private LiveTable tableNamed(byte[] regionName, int length) {
    for (LiveTable t : tables.all()) {
      if (t.isNamed(regionName, length)) {
        return t;
      }
    }
    return null;
  }

  public TableDescriptor getDescriptor(TableName name) throws TableNotFoundException {
    return tables.require(name).descriptor();
  }

  /** The table's regions, by start key (enabled or not). */
  public List<RegionInfo> getRegions(TableName name) throws TableNotFoundException {
    return tables.require(name).regionSet().regions();
  }

  /**
   * A handle for reading and writing a table; cheap, and valid while the table exists.
   *
   * @throws TableNotFoundException when it does not exist
   */
  public Table getTable(TableName name) throws TableNotFoundException {
    tables.require(name);
    return new Table(this, name);
  }

  /** The open region holding {@code row} (for tests and tools). */
  Region region(TableName name, byte[] row) throws IOException {
    return tables.requireEnabled(name).regions().locate(row).region();
  }

  /** The first open region of the table (for tests and tools of one-region tables). */
  Region region(TableName name) throws IOException {
    return region(name, new byte[0]);
  }

  // ---- maintenance and figures ------------------------------------------------------------

  /** Writes every memstore of the table to store files. */
  public void flush(TableName name) throws IOException {
    checkOpen();
    for (ServedRegion r : tables.requireEnabled(name).regions().all()) {
      r.region().flush();
    }
  }

  /**
   * Compacts the table's stores that need it (a minor compaction; stores with references to a split
   * or merge parent compact all their files), then archives parents no longer referenced.
   */
  public void compact(TableName name) throws IOException {
    compact(name, false);
  }

  /** Rewrites every store file of the table into one per family, dropping what is dead. */
  public void majorCompact(TableName name) throws IOException {
    compact(name, true);
  }

  private void compact(TableName name, boolean major) throws IOException {
    checkOpen();
    for (ServedRegion r : tables.requireEnabled(name).regions().all()) {
      r.region().compact(major);
    }
    synchronized (ddl) {
      LiveTable t = tables.get(name);
      if (t != null) {
        catalog.archiveUnusedRegions(t.regionSet());
      }
    }
  }

  /**
   * The client nonces of the operations in the edit log this open replayed (increments and appends
   * a client may retry), for the server to remember; see {@link dev.basalt.ops.Mutation#setNonce}.
   */
  public List<RecoveredNonce> recoveredNonces() {
    return recoveredNonces;
  }

  /**
   * Switches background compactions off or on (HBase's CompactionSwitch): while off, none is queued
   * or started, and writes are not held for stores with too many files. {@link #compact} and {@link
   * #majorCompact} still run when asked. Switching on queues the compactions regions need.
   *
   * @return whether compactions were on before
   */
  public boolean switchCompactions(boolean on) {
    return maintenance.switchCompactions(on);
  }

  /** Whether background compactions are switched on. */
  public boolean compactionsEnabled() {
    return maintenance.compactionsEnabled();
  }

  /** Figures of every open region of the table, by start key. */
  public List<RegionMetrics> getRegionMetrics(TableName name) throws TableNotFoundException {
    List<RegionMetrics> out = new ArrayList<>();
    for (ServedRegion r : tables.require(name).regions().all()) {
      out.add(metrics(r));
    }
    return out;
  }

  /** Figures of every open region of every table. */
  public List<RegionMetrics> getRegionMetrics() {
    List<RegionMetrics> out = new ArrayList<>();
    for (TableName name : listTableNames()) {
      LiveTable t = tables.get(name);
      if (t != null) {
        for (ServedRegion r : t.regions().all()) {
          out.add(metrics(r));
        }
      }
    }
    return out;
  }

  private RegionMetrics metrics(ServedRegion r) {
    Region region = r.region();
    return new RegionMetrics(
        region.getRegionInfo(),
        region.getReadRequestCount(),
        region.getWriteRequestCount(),
        region.getStoreFileCount(),
        region.getStoreFileSize(),
        region.getMemstoreSize(),
        maintenance.compactionQueueLength(region));
  }

  /** The block cache shared by every store (for tests and metrics). */
  public BlockCache getBlockCache() {
    return blockCache;
  }

  /** The write-ahead log (for tests and tools). */
  public Wal getWal() {
    return wal;
  }

  void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("database " + storage.describe("") + " is closed");
    }
  }

  /**
   * Stops background work, flushes the memstores (unless {@code basalt.flush.on.close} is false),
   * closes the regions and the log, and releases the directory.
   */
  @Override
  public void close() throws IOException {
    synchronized (ddl) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      maintenance.stop();
      List<LiveTable> all = new ArrayList<>(tables.all());
      if (config.get(DatabaseSettings.FLUSH_ON_CLOSE)) {
        for (LiveTable t : all) {
          for (ServedRegion r : t.regions().all()) {
            try {
              r.region().flush();
            } catch (IOException | RuntimeException e) {
              LOG.error("could not flush {} on close; the WAL keeps its edits", r, e);
            }
          }
        }
      }
      for (LiveTable t : all) {
        for (ServedRegion r : t.regions().all()) {
          r.region().close();
        }
        tables.remove(t.name()); // wakes operations waiting for a table change
      }
      wal.close();
    } finally {
      try {
        logLock.close();
      } finally {
        lock.close();
      }
    }
  }
}
