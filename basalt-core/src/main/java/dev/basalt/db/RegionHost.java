package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.region.RegionSplitPoint;
import dev.basalt.region.RowCache;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.sstable.BlockCache;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalSettings;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a region server of a cluster runs: the regions the master gave it, opened from the shared
 * root directory, with one write-ahead log of its own under {@code WALs/<server>/}, one block cache
 * and row cache for all of them, and the background flushes and compactions they need. It opens and
 * closes regions when told; which regions it should serve, and the catalog, are the master's
 * ({@link ClusterCatalog}).
 *
 * <p>A region is closed with a final flush, so that the next server to open it finds every edit it
 * acknowledged in its store files; its last sequence id is returned for the master to keep as the
 * region's sequence floor, and the log forgets the region.
 *
 * <p>Splits and merges ({@link #split}, {@link #merge}) hand a region's data to new regions through
 * reference files, as the embedded database does; the master then switches the catalog.
 *
 * <p>Crash recovery: the host holds the lock of its log directory ({@link Storage#lockDirectory})
 * from start to close, so a master can tell a live writer from a dead one (the OS drops the lock
 * when the process dies); the master splits a dead server's log into recovered edits per region
 * ({@link dev.basalt.wal.WalSplitter}), which {@link #open} replays before the region serves.
 * Thread-safe.
 */
public final class RegionHost implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionHost.class);

  /** Fault point: a split's or merge's old regions are closed, the new ones not yet written. */
  public static final String FAULT_HANDOVER_CLOSED = "regionhost.handover.afterClosed";

  /** Fault point: an opening region's recovered edits are flushed, their files not yet deleted. */
  public static final String FAULT_RECOVERED_EDITS_FLUSHED = "regionhost.open.recoveredFlushed";

  private final Storage storage;
  private final Config config;
  private final Closeable walLock;
  private final Wal wal;
  private final BlockCache blockCache;
  private final Maintenance maintenance;
  private final HostSplitChecks splitChecks;
  private final RegionOpener opener;
  private final Catalog files;
  private final ConcurrentHashMap<String, Region> online = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private volatile Consumer<List<Database.RecoveredNonce>> recoveredNonces = n -> {};
  private volatile RegionLifecycle lifecycle = RegionLifecycle.NONE;

  /**
   * Starts a host with a new, empty log, holding the lock of its directory {@code WALs/<serverId>}
   * (the lock file names this process: {@link LockHolder}) until {@link #close} or {@link #abort}.
   *
   * @param serverId the server's name, HBase's {@code host,port,startcode}: its log directory
   * @throws IOException when the root is not a cluster's (no cluster id), or the log directory
   *     already holds segments (another server of that name, or a life of this one whose log must
   *     be recovered first), or another process (or host) holds its lock
   */
  public static RegionHost start(Storage storage, String serverId, Config config, Clock clock)
      throws IOException {
    SettingsTogether.check(config);
    UUID clusterId = ClusterCatalog.clusterIdOf(storage);
    String walDir = Wal.DIR + "/" + serverId;
    Closeable lock = storage.lockDirectory(walDir, LockHolder.current().format());
    try {
      for (String name : storage.list(walDir)) {
        if (Wal.isSegment(name)) {
          throw new IOException(
              storage.describe(walDir)
                  + " already holds a write-ahead log: another server named "
                  + serverId
                  + " ran on this root");
        }
      }
      return new RegionHost(storage, serverId, clusterId, config, clock, lock);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  private RegionHost(
      Storage storage,
      String serverId,
      UUID clusterId,
      Config config,
      Clock clock,
      Closeable walLock)
      throws IOException {
    this.storage = storage;
    this.config = config;
    this.walLock = walLock;
    this.wal = new Wal(storage, serverId, config, clock, List.of(), true);
    this.blockCache =
        new BlockCache(
            (long)
                (Runtime.getRuntime().maxMemory()
                    * config.get(DatabaseSettings.BLOCK_CACHE_FRACTION)));
    this.maintenance = new Maintenance(this::regions, config, clock);
    double rowCacheShare = config.get(DatabaseSettings.ROW_CACHE_FRACTION);
    RowCache rowCache =
        rowCacheShare == 0
            ? null
            : new RowCache((long) (Runtime.getRuntime().maxMemory() * rowCacheShare));
    RegionServices services =
        RegionServices.of(
                clock, config, new WalEditLog(wal, clusterId, clock), blockCache, maintenance)
            .withRowCache(rowCache);
    this.opener = new RegionOpener(storage, services);
    this.files = new Catalog(storage, clock); // for region directories only; the master owns it
    this.splitChecks =
        new HostSplitChecks(maintenance, config.get(DatabaseSettings.MAX_FILESIZE), clock);
    maintenance.setHooks(splitChecks);
  }

  /**
   * Receives each region that outgrew its maximum size (HBase's {@code hbase.hregion.max.filesize}
   * or the table's MAX_FILESIZE), with the row to split it at, found after a compaction; the server
   * asks the master to split it. Without a listener regions grow unsplit. Set once.
   */
  public void onSplitWanted(BiConsumer<Region, byte[]> listener) {
    splitChecks.setListener(listener);
  }

  /**
   * Receives the client nonces of the edits each open replays from recovered edits, so that the
   * server refuses a retried increment or append that was applied before its previous server died.
   * Set once, before regions open.
   */
  public void onRecoveredNonces(Consumer<List<Database.RecoveredNonce>> consumer) {
    this.recoveredNonces = consumer;
  }

  /**
   * Hears each region open (before it serves) and close (after its last edit is in the log), for
   * serial replication's barriers. Set once, before regions open.
   */
  public void onRegionLifecycle(RegionLifecycle listener) {
    this.lifecycle = listener;
  }

  /**
   * Opens a region and serves it; a region already open here is returned as it is.
   *
   * <p>A region with recovered edits (a dead server's log split for it) replays them first: the
   * cells above {@code max(sequenceFloor, its stores' persisted ids)} of families the table still
   * has, which are then flushed before the files are deleted, and whose nonces go to {@link
   * #onRecoveredNonces}; the region's sequence continues after every replayed id.
   *
   * @param sequenceFloor the highest sequence id the region used before (its new edits get higher
   *     ones)
   * @throws dev.basalt.wal.WalCorruptionException naming file and offset when a recovered-edits
   *     file is damaged (unless {@code hbase.hregion.edits.replay.skip.errors}); the region is then
   *     not opened
   */
  public synchronized Region open(RegionInfo info, TableDescriptor desc, long sequenceFloor)
      throws IOException {
    checkOpen();
    String name = info.getEncodedName();
    Region already = online.get(name);
    if (already != null && !already.isClosed()) {
      return already;
    }
    Region region = opener.open(info, desc, sequenceFloor);
    // Before any edit: a close here made the log forget the region, which would let segments
    // holding its new edits be archived before those are flushed.
    wal.regionOpened(name, region.getLastSequenceId());
    RecoveredEditsReplay.Outcome replayed;
    try {
      replayed =
          RecoveredEditsReplay.replay(
              storage,
              region,
              Catalog.regionDir(info),
              sequenceFloor,
              config.get(WalSettings.SKIP_REPLAY_ERRORS));
    } catch (IOException | RuntimeException e) {
      region.close();
      throw e;
    }
    wal.markPersisted(name, region.getLastSequenceId());
    if (replayed.files() > 0) {
      recoveredNonces.accept(replayed.nonces());
    }
    try {
      lifecycle.opened(info, desc, region.getLastSequenceId() + 1);
    } catch (IOException | RuntimeException e) {
      region.close();
      throw e;
    }
    online.put(name, region);
    return region;
  }

  /**
   * Stops serving a region after a final flush (see the class comment).
   *
   * @return the region's last sequence id, or -1 when it was not open here
   * @throws IOException when the flush fails; the region then stays open
   */
  public long close(String encodedName) throws IOException {
    Region region = online.get(encodedName);
    if (region == null) {
      return -1;
    }
    region.flush(); // most of the data, while operations still run
    region.close(true); // the rest, with operations held off
    online.remove(encodedName, region);
    closedInLog(region);
    wal.forgetRegion(encodedName);
    splitChecks.forget(encodedName);
    return region.getLastSequenceId();
  }

  /**
   * What a split or merge handed over: the new regions (their directories written, with references
   * to the old regions' store files; not yet listed in the catalog, which the master switches) and
   * the old regions' highest last sequence id (the new regions' sequence floor).
   */
  public record HandOver(List<RegionInfo> regions, long lastSequenceId) {}

  /**
   * Splits an open region in two at {@code splitRow} (null: at its own split point) without
   * rewriting data: the region is flushed and closed, and its two daughters' directories are
   * written with references to its store files. The daughters are not served here: the master lists
   * them in the catalog and assigns them. If writing them fails the region opens again and the
   * partial directories go to the archive.
   *
   * @param newRegionId the daughters' region id (the master's, so that ids stay unique)
   * @throws BasaltIOException (DoNotRetryIOException) when the region still reads a parent's files,
   *     has no split point, or the row is not strictly inside it
   */
  public HandOver split(String encodedName, byte[] splitRow, long newRegionId) throws IOException {
    Region region = requireOnline(encodedName);
    RegionInfo p = region.getRegionInfo();
    if (region.hasReferences()) {
      throw BasaltIOException.doNotRetry(
          "region "
              + encodedName
              + " still reads files of the region it came from; it can split once compacted");
    }
    byte[] at = splitRow != null ? splitRow : RegionSplitPoint.of(region);
    if (at == null) {
      throw BasaltIOException.doNotRetry(
          "region " + encodedName + " has no split point (too little data, or one row)");
    }
    if (!p.containsRow(at) || Bytes.equals(at, p.getStartKey())) {
      throw BasaltIOException.doNotRetry(
          "split row '"
              + Bytes.toStringBinary(at)
              + "' is not strictly inside region "
              + p.getRegionNameAsString());
    }
    List<RegionInfo> news =
        List.of(
            RegionInfo.of(p.getTable(), p.getStartKey(), at, newRegionId),
            RegionInfo.of(p.getTable(), at, p.getEndKey(), newRegionId));
    return handOverRegions(List.of(region), news);
  }

  /**
   * Merges two adjacent open regions (in either order) into one, as {@link #split} splits.
   *
   * @throws BasaltIOException when they are not adjacent regions of one table, or one still reads a
   *     parent's files
   */
  public HandOver merge(String encodedA, String encodedB, long newRegionId) throws IOException {
    Region a = requireOnline(encodedA);
    Region b = requireOnline(encodedB);
    if (encodedA.equals(encodedB)) {
      throw new MergeRegionException("cannot merge region " + encodedA + " with itself");
    }
    if (Bytes.compareTo(a.getRegionInfo().getStartKey(), b.getRegionInfo().getStartKey()) > 0) {
      Region x = a;
      a = b;
      b = x;
    }
    RegionInfo ia = a.getRegionInfo();
    RegionInfo ib = b.getRegionInfo();
    if (!ia.getTable().equals(ib.getTable()) || !Bytes.equals(ia.getEndKey(), ib.getStartKey())) {
      throw new MergeRegionException(
          "regions " + encodedA + " and " + encodedB + " are not adjacent regions of one table");
    }
    for (Region r : List.of(a, b)) {
      if (r.hasReferences()) {
        throw new MergeRegionException(
            "region "
                + r.getRegionInfo().getEncodedName()
                + " still reads files of the region it came from; merge it once compacted");
      }
    }
    RegionInfo merged = RegionInfo.of(ia.getTable(), ia.getStartKey(), ib.getEndKey(), newRegionId);
    return handOverRegions(List.of(a, b), List.of(merged));
  }

  /**
   * Hands open regions over to new ones, as planned by the master: a split ({@code olds} one
   * region, {@code news} two) or a merge ({@code olds} two adjacent regions, {@code news} one). The
   * new regions must cover exactly the old ones' rows; no old region may still read a parent's
   * files.
   */
  public HandOver handOver(List<String> olds, List<RegionInfo> news) throws IOException {
    List<Region> regions = new ArrayList<>();
    for (String name : olds) {
      Region r = requireOnline(name);
      if (r.hasReferences()) {
        throw BasaltIOException.doNotRetry(
            "region "
                + name
                + " still reads files of the region it came from; it can split or merge once"
                + " compacted");
      }
      regions.add(r);
    }
    regions.sort(
        (x, y) ->
            Bytes.compareTo(x.getRegionInfo().getStartKey(), y.getRegionInfo().getStartKey()));
    byte[] start = regions.get(0).getRegionInfo().getStartKey();
    byte[] end = regions.get(regions.size() - 1).getRegionInfo().getEndKey();
    byte[] at = start;
    for (Region r : regions) {
      if (!Bytes.equals(r.getRegionInfo().getStartKey(), at)) {
        throw new MergeRegionException("regions " + olds + " are not adjacent");
      }
      at = r.getRegionInfo().getEndKey();
    }
    at = start;
    for (RegionInfo n : news) {
      if (!n.getTable().equals(regions.get(0).getRegionInfo().getTable())
          || !Bytes.equals(n.getStartKey(), at)
          || (n.getEndKey().length > 0 && Bytes.compareTo(n.getEndKey(), n.getStartKey()) <= 0)) {
        throw BasaltIOException.doNotRetry(
            "the new regions " + news + " do not cover the rows of " + olds + " in order");
      }
      at = n.getEndKey();
    }
    if (!Bytes.equals(at, end)) {
      throw BasaltIOException.doNotRetry(
          "the new regions " + news + " do not cover the rows of " + olds);
    }
    return handOverRegions(regions, news);
  }

  /** Tells the lifecycle listener where the log ends after a closed region's last edit. */
  private void closedInLog(Region region) {
    try {
      lifecycle.closed(region.getRegionInfo(), region.getTableDescriptor(), wal.endPosition());
    } catch (IOException | RuntimeException e) {
      LOG.error(
          "could not record where region {} ended in the log; serial replication peers may wait"
              + " for it",
          region.getRegionInfo().getEncodedName(),
          e);
    }
  }

  private Region requireOnline(String encodedName) throws BasaltIOException {
    Region r = region(encodedName);
    if (r == null) {
      throw new BasaltIOException(
          "region " + encodedName + " is not online here",
          "org.apache.hadoop.hbase.NotServingRegionException",
          false);
    }
    return r;
  }

  private synchronized HandOver handOverRegions(List<Region> olds, List<RegionInfo> news)
      throws IOException {
    checkOpen();
    for (Region r : olds) {
      r.flush(); // most of the data, while operations still run
    }
    List<Map<String, List<String>>> files = new ArrayList<>();
    List<RegionInfo> oldInfos = new ArrayList<>();
    long floor = 0;
    for (Region r : olds) {
      files.add(r.closeForHandOver()); // the rest; operations now fail over to the master
      oldInfos.add(r.getRegionInfo());
      floor = Math.max(floor, r.getLastSequenceId());
    }
    try {
      FaultPoints.hit(FAULT_HANDOVER_CLOSED);
      this.files.writeHandOver(news, oldInfos, files);
    } catch (IOException | RuntimeException e) {
      for (RegionInfo n : news) {
        try {
          this.files.archive(Catalog.regionDir(n));
        } catch (IOException archiveFailed) {
          LOG.warn("could not remove {} yet", Catalog.regionDir(n), archiveFailed);
        }
      }
      for (Region r : olds) {
        online.remove(r.getRegionInfo().getEncodedName(), r);
        open(r.getRegionInfo(), r.getTableDescriptor(), floor);
      }
      throw e;
    }
    for (Region r : olds) {
      String name = r.getRegionInfo().getEncodedName();
      online.remove(name, r);
      closedInLog(r);
      wal.forgetRegion(name); // every edit of it is in its files
    }
    return new HandOver(news, floor);
  }

  /** The open region with this encoded name, or null. */
  public Region region(String encodedName) {
    Region r = online.get(encodedName);
    return r == null || r.isClosed() ? null : r;
  }

  /** Every region open here. */
  public Collection<Region> regions() {
    return new ArrayList<>(online.values());
  }

  /** Figures of every open region. */
  public List<RegionMetrics> getRegionMetrics() {
    List<RegionMetrics> out = new ArrayList<>();
    for (Region region : online.values()) {
      out.add(
          new RegionMetrics(
              region.getRegionInfo(),
              region.getReadRequestCount(),
              region.getWriteRequestCount(),
              region.getStoreFileCount(),
              region.getStoreFileSize(),
              region.getMemstoreSize(),
              maintenance.compactionQueueLength(region)));
    }
    return out;
  }

  /** See {@link Database#switchCompactions}. */
  public boolean switchCompactions(boolean on) {
    return maintenance.switchCompactions(on);
  }

  public boolean compactionsEnabled() {
    return maintenance.compactionsEnabled();
  }

  public Storage storage() {
    return storage;
  }

  public Wal getWal() {
    return wal;
  }

  public BlockCache getBlockCache() {
    return blockCache;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("region host on " + storage.describe("") + " is closed");
    }
  }

  /**
   * Stops background work, closes every region (flushed first unless {@code basalt.flush.on.close}
   * is false) and the log. Regions that cannot be flushed are closed anyway: their edits stay in
   * the log for recovery.
   */
  @Override
  public void close() throws IOException {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    maintenance.stop();
    boolean flush = config.get(DatabaseSettings.FLUSH_ON_CLOSE);
    for (Region region : regions()) {
      if (flush) {
        try {
          region.flush();
        } catch (IOException | RuntimeException e) {
          LOG.error("could not flush {} on close; the WAL keeps its edits", region, e);
        }
      }
      region.close();
    }
    online.clear();
    try {
      wal.close();
    } finally {
      walLock.close(); // last: until the log is closed, this process may still write to it
    }
  }

  /**
   * Stops serving at once, without flushing: for a server that has lost its claim to its regions
   * (its coordination session expired), whose regions may already be opening elsewhere. Every
   * acknowledged edit is in the log, which the cluster recovers.
   */
  public void abort() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    for (Region region : regions()) {
      region.close();
    }
    online.clear();
    try {
      maintenance.stop();
    } catch (IOException e) {
      LOG.warn("background work did not stop cleanly", e);
    }
    try {
      wal.close();
    } catch (IOException e) {
      LOG.warn("the log did not close cleanly", e);
    }
    try {
      walLock.close(); // the log is recovered by whoever takes it next
    } catch (IOException e) {
      LOG.warn("could not release the lock of the log directory", e);
    }
  }
}
