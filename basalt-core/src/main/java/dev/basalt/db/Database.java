package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.Storage;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.sstable.BlockCache;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalReplay;
import dev.basalt.wal.WalSettings;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Basalt database in one directory: tables, their regions and the shared write-ahead log. Opening
 * it replays the log, so every acknowledged write survives a crash; the directory is locked against
 * a second process.
 *
 * <p>Files (ARCHITECTURE.md section 5): {@code basalt.id} (cluster id), {@code
 * data/<ns>/<table>/.tabledesc}, {@code data/<ns>/<table>/<region>/.regioninfo}, {@code
 * WALs/<server>/wal-*}, {@code oldWALs/}. A table exists exactly when its {@code .tabledesc}
 * exists: creation writes it last and deletion removes it first, and opening removes table
 * directories without one (left by a crash in between).
 *
 * <p>Thread-safe.
 */
public final class Database implements Closeable {
  /** Fault point: a new table's region is written but its descriptor is not. */
  public static final String FAULT_CREATE_BEFORE_DESCRIPTOR = "db.createTable.beforeDescriptor";

  static final String SERVER_ID = "local";
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  private static final String CLUSTER_ID_FILE = "basalt.id";
  private static final String MAX_REGION_ID_FILE = "data/.maxregionid";

  private final Storage storage;
  private final Config config;
  private final Clock clock;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final UUID clusterId;
  private final Wal wal;
  private final BlockCache blockCache;
  private final Maintenance maintenance;
  private final RegionServices services;
  private final ConcurrentHashMap<TableName, Region> tables = new ConcurrentHashMap<>();
  private final Object ddl = new Object();
  private long maxRegionId;
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
   */
  public static Database open(Path dir, Config config, Clock clock) throws IOException {
    LocalStorage storage = new LocalStorage(dir);
    FileChannel ch =
        FileChannel.open(
            storage.root().resolve("LOCK"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      ch.close();
      throw new IOException("database " + storage.root() + " is already open in this process");
    }
    if (lock == null) {
      ch.close();
      throw new IOException("database " + storage.root() + " is open in another process");
    }
    try {
      return new Database(storage, config, clock, ch, lock);
    } catch (IOException | RuntimeException e) {
      lock.release();
      ch.close();
      throw e;
    }
  }

  private Database(Storage storage, Config config, Clock clock, FileChannel ch, FileLock lock)
      throws IOException {
    this.storage = storage;
    this.config = config;
    this.clock = clock;
    this.lockChannel = ch;
    this.lock = lock;
    this.clusterId = readOrCreateClusterId();
    this.maxRegionId =
        storage.exists(MAX_REGION_ID_FILE)
            ? Bytes.toLong(CatalogFiles.readAll(storage, MAX_REGION_ID_FILE))
            : 0;
    Map<String, TableDescriptor> descByRegion = new HashMap<>();
    Map<String, RegionInfo> infoByRegion = new HashMap<>();
    loadCatalog(descByRegion, infoByRegion);

    Map<String, List<KeyValue>> replayed = new HashMap<>();
    List<Wal.Segment> recovered =
        WalReplay.replay(
            storage,
            SERVER_ID,
            config.get(WalSettings.SKIP_REPLAY_ERRORS),
            e -> {
              if (infoByRegion.containsKey(e.region())) {
                replayed.computeIfAbsent(e.region(), r -> new ArrayList<>()).addAll(e.cells());
              }
            });
    this.wal = new Wal(storage, SERVER_ID, config, clock, recovered);
    this.blockCache =
        new BlockCache(
            (long)
                (Runtime.getRuntime().maxMemory()
                    * config.get(DatabaseSettings.BLOCK_CACHE_FRACTION)));
    this.maintenance = new Maintenance(tables::values, config, clock);
    maintenance.scheduleCleaner(
        ArchiveCleaner.forDatabase(
            storage,
            config.get(CleanerSettings.WAL_TTL),
            config.get(CleanerSettings.FILE_TTL),
            clock),
        config.get(CleanerSettings.INTERVAL));
    this.services =
        RegionServices.of(
            clock, config, new WalEditLog(wal, clusterId, clock), blockCache, maintenance);
    List<Region> toFlush = new ArrayList<>();
    for (Map.Entry<String, RegionInfo> e : infoByRegion.entrySet()) {
      RegionInfo info = e.getValue();
      Region region = openRegion(info, descByRegion.get(e.getKey()));
      int applied = region.replay(replayed.getOrDefault(e.getKey(), List.of()));
      tables.put(info.getTable(), region);
      if (applied > 0) {
        LOG.info("recovered {} cells of {} from the WAL", applied, info.getTable());
        toFlush.add(region);
      } else {
        wal.markPersisted(info.getEncodedName(), region.getLastSequenceId());
      }
    }
    // Recovered edits go to store files at once, so the old WAL segments can be archived.
    for (Region r : toFlush) {
      r.flush();
    }
    for (Wal.Segment s : recovered) {
      for (String region : s.maxSeqByRegion().keySet()) {
        if (!infoByRegion.containsKey(region)) {
          wal.forgetRegion(region); // its table was dropped
        }
      }
    }
  }

  private Region openRegion(RegionInfo info, TableDescriptor desc) throws IOException {
    String dir = tableDir(info.getTable()) + "/" + info.getEncodedName();
    return Region.open(info, desc, services, storage, dir, "archive/" + dir);
  }

  private UUID readOrCreateClusterId() throws IOException {
    if (storage.exists(CLUSTER_ID_FILE)) {
      String s = new String(CatalogFiles.readAll(storage, CLUSTER_ID_FILE), StandardCharsets.UTF_8);
      try {
        return UUID.fromString(s.trim());
      } catch (IllegalArgumentException e) {
        throw new IOException(storage.describe(CLUSTER_ID_FILE) + " does not hold a cluster id");
      }
    }
    UUID id = UUID.randomUUID();
    CatalogFiles.writeAtomically(
        storage, CLUSTER_ID_FILE, id.toString().getBytes(StandardCharsets.UTF_8));
    return id;
  }

  private void loadCatalog(
      Map<String, TableDescriptor> descByRegion, Map<String, RegionInfo> infoByRegion)
      throws IOException {
    for (String ns : storage.list("data")) {
      if (!storage.isDirectory("data/" + ns)) {
        continue;
      }
      for (String t : storage.list("data/" + ns)) {
        String tdir = "data/" + ns + "/" + t;
        if (!storage.isDirectory(tdir)) {
          continue;
        }
        String descPath = tdir + "/" + CatalogFiles.TABLE_DESC;
        if (!storage.exists(descPath)) {
          LOG.warn(
              "removing {}: a table creation or deletion did not finish", storage.describe(tdir));
          storage.delete(tdir);
          continue;
        }
        TableDescriptor desc =
            CatalogFiles.decodeTable(
                CatalogFiles.readAll(storage, descPath), storage.describe(descPath));
        for (String r : storage.list(tdir)) {
          String infoPath = tdir + "/" + r + "/" + CatalogFiles.REGION_INFO;
          if (!storage.isDirectory(tdir + "/" + r)) {
            continue;
          }
          if (!storage.exists(infoPath)) {
            LOG.warn("removing {}: it has no region info", storage.describe(tdir + "/" + r));
            storage.delete(tdir + "/" + r);
            continue;
          }
          RegionInfo info =
              CatalogFiles.decodeRegion(
                  CatalogFiles.readAll(storage, infoPath), storage.describe(infoPath));
          infoByRegion.put(info.getEncodedName(), info);
          descByRegion.put(info.getEncodedName(), desc);
          maxRegionId = Math.max(maxRegionId, info.getRegionId());
        }
      }
    }
  }

  static String tableDir(TableName name) {
    return "data/" + name.getNamespaceAsString() + "/" + name.getQualifierAsString();
  }

  /** This database's cluster id (stamped on its WAL edits). */
  public UUID getClusterId() {
    return clusterId;
  }

  /**
   * Creates a table with one region covering all rows.
   *
   * @throws TableExistsException when the name is taken
   * @throws NamespaceNotFoundException for a namespace other than {@code default}
   */
  public void createTable(TableDescriptor desc) throws IOException {
    checkOpen();
    TableName name = desc.getTableName();
    if (!TableName.DEFAULT_NAMESPACE.equals(name.getNamespaceAsString())) {
      throw new NamespaceNotFoundException(
          "namespace '"
              + name.getNamespaceAsString()
              + "' does not exist; only the 'default' namespace holds user tables");
    }
    synchronized (ddl) {
      if (tables.containsKey(name)) {
        throw new TableExistsException(name.getNameAsString());
      }
      long regionId = Math.max(clock.currentTimeMillis(), maxRegionId + 1);
      CatalogFiles.writeAtomically(storage, MAX_REGION_ID_FILE, Bytes.toBytes(regionId));
      maxRegionId = regionId;
      RegionInfo info = RegionInfo.of(name, Bytes.EMPTY, Bytes.EMPTY, regionId);
      String tdir = tableDir(name);
      storage.delete(tdir);
      CatalogFiles.writeAtomically(
          storage,
          tdir + "/" + info.getEncodedName() + "/" + CatalogFiles.REGION_INFO,
          CatalogFiles.encodeRegion(info));
      FaultPoints.hit(FAULT_CREATE_BEFORE_DESCRIPTOR);
      CatalogFiles.writeAtomically(
          storage, tdir + "/" + CatalogFiles.TABLE_DESC, CatalogFiles.encodeTable(desc));
      tables.put(name, openRegion(info, desc));
    }
  }

  /**
   * Deletes a table and all its data.
   *
   * @throws TableNotFoundException when it does not exist
   */
  public void deleteTable(TableName name) throws IOException {
    checkOpen();
    synchronized (ddl) {
      Region region = tables.get(name);
      if (region == null) {
        throw new TableNotFoundException(name.getNameAsString());
      }
      region.close(); // waits for running operations, refuses new ones
      tables.remove(name);
      String tdir = tableDir(name);
      storage.delete(tdir + "/" + CatalogFiles.TABLE_DESC);
      storage.delete(tdir);
      wal.forgetRegion(region.getRegionInfo().getEncodedName());
    }
  }

  public boolean tableExists(TableName name) {
    return tables.containsKey(name);
  }

  /** Descriptors of every table, by name. */
  public List<TableDescriptor> listTables() {
    List<TableDescriptor> out = new ArrayList<>();
    for (Region r : tables.values()) {
      out.add(r.getTableDescriptor());
    }
    out.sort((a, b) -> a.getTableName().compareTo(b.getTableName()));
    return out;
  }

  public TableDescriptor getDescriptor(TableName name) throws TableNotFoundException {
    return region(name).getTableDescriptor();
  }

  /** A handle for reading and writing a table; cheap, and valid while the table exists. */
  public Table getTable(TableName name) throws TableNotFoundException {
    region(name);
    return new Table(this, name);
  }

  Region region(TableName name) throws TableNotFoundException {
    Region r = tables.get(name);
    if (r == null) {
      throw new TableNotFoundException(name.getNameAsString());
    }
    return r;
  }

  /** Writes every memstore of the table to store files. */
  public void flush(TableName name) throws IOException {
    checkOpen();
    region(name).flush();
  }

  /** Compacts the table's stores that need it (a minor compaction). */
  public void compact(TableName name) throws IOException {
    checkOpen();
    region(name).compact(false);
  }

  /** Rewrites every store file of the table into one per family, dropping what is dead. */
  public void majorCompact(TableName name) throws IOException {
    checkOpen();
    region(name).compact(true);
  }

  /** The block cache shared by every store (for tests and metrics). */
  public BlockCache getBlockCache() {
    return blockCache;
  }

  /** The write-ahead log (for tests and tools). */
  public Wal getWal() {
    return wal;
  }

  private void checkOpen() throws IOException {
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
      if (config.get(DatabaseSettings.FLUSH_ON_CLOSE)) {
        for (Region r : tables.values()) {
          try {
            r.flush();
          } catch (IOException | RuntimeException e) {
            LOG.error("could not flush {} on close; the WAL keeps its edits", r, e);
          }
        }
      }
      for (Region r : tables.values()) {
        r.close();
      }
      wal.close();
    } finally {
      lock.release();
      lockChannel.close();
    }
  }
}
