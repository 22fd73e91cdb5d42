package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.region.Region;
import dev.basalt.region.RegionSplitPoint;
import dev.basalt.region.StoreFileReference;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.FaultPoints;
import dev.basalt.wal.Wal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits a region in two and merges two adjacent regions into one, without rewriting data: the new
 * regions get {@link StoreFileReference reference files} to the old regions' store files, and their
 * compactions rewrite them later.
 *
 * <p>Each transition switches the table's region set in one atomic file replacement (the commit
 * point), so at every step either the old region(s) or the new one(s) serve, never both and never
 * neither:
 *
 * <ol>
 *   <li>the old regions are flushed and closed (operations on them wait for the switch);
 *   <li>the new regions' directories are written: {@code .regioninfo} and one reference per store
 *       file of the old regions (fault point {@code *.afterNewRegionsWritten});
 *   <li>the region set lists the new regions instead of the old, with sequence floors past the old
 *       regions' last sequence ids (the commit; fault point {@code *.afterRegionSetSwitched});
 *   <li>the new regions open and serve (fault point {@code *.afterNewRegionsOpened}), and are asked
 *       to compact, which rewrites their references.
 * </ol>
 *
 * A failure before the commit reopens the old regions and archives the new directories; a crash
 * before it leaves the old regions listed, and opening the database archives the unlisted new
 * directories. After the commit the old regions are unlisted; their directories stay while a new
 * region's reference names them ({@link Catalog#archiveUnusedRegions}, run after compactions, by
 * the maintenance chores and on open). The region set is the transition's journal: its one record
 * decides which regions serve, and everything else is derived from it and the references.
 *
 * <p>A region that still has references cannot be split or merged again until compacted. Runs under
 * the database's DDL lock. Thread-safe.
 */
final class RegionTransitions {
  static final String FAULT_SPLIT_PARENT_CLOSED = "split.afterParentClosed";
  static final String FAULT_SPLIT_WRITTEN = "split.afterNewRegionsWritten";
  static final String FAULT_SPLIT_SWITCHED = "split.afterRegionSetSwitched";
  static final String FAULT_SPLIT_OPENED = "split.afterNewRegionsOpened";
  static final String FAULT_MERGE_PARENTS_CLOSED = "merge.afterParentsClosed";
  static final String FAULT_MERGE_WRITTEN = "merge.afterNewRegionsWritten";
  static final String FAULT_MERGE_SWITCHED = "merge.afterRegionSetSwitched";
  static final String FAULT_MERGE_OPENED = "merge.afterNewRegionsOpened";

  /** Every fault point of a split or merge, in order (for crash tests). */
  static final List<String> FAULT_POINTS =
      List.of(
          FAULT_SPLIT_PARENT_CLOSED,
          FAULT_SPLIT_WRITTEN,
          FAULT_SPLIT_SWITCHED,
          FAULT_SPLIT_OPENED,
          FAULT_MERGE_PARENTS_CLOSED,
          FAULT_MERGE_WRITTEN,
          FAULT_MERGE_SWITCHED,
          FAULT_MERGE_OPENED);

  private static final Logger LOG = LoggerFactory.getLogger(RegionTransitions.class);

  private final Catalog catalog;
  private final LiveTables tables;
  private final RegionOpener opener;
  private final Wal wal;
  private final Object ddl;
  private final Consumer<Region> requestCompaction;

  RegionTransitions(
      Catalog catalog,
      LiveTables tables,
      RegionOpener opener,
      Wal wal,
      Object ddl,
      Consumer<Region> requestCompaction) {
    this.catalog = catalog;
    this.tables = tables;
    this.opener = opener;
    this.wal = wal;
    this.ddl = ddl;
    this.requestCompaction = requestCompaction;
  }

  private static BasaltIOException refused(String message) {
    return BasaltIOException.doNotRetry(message);
  }

  private static boolean enabledAttribute(TableDescriptor d, String key) {
    String v = d.getValue(key);
    return v == null || Boolean.parseBoolean(v);
  }

  // ---- split ------------------------------------------------------------------------------

  /**
   * Splits the region of {@code table} holding {@code splitRow} at it (null: at its own split
   * point).
   *
   * @return the two new regions
   */
  List<RegionInfo> split(TableName table, byte[] row, byte[] splitRow) throws IOException {
    return split(table, row, splitRow, null);
  }

  /**
   * As {@link #split(TableName, byte[], byte[])}, only if the region holding {@code row} is still
   * {@code expected} (an encoded name; null for any): an automatic split decided on a region that a
   * table change has replaced meanwhile does nothing.
   *
   * @return the new regions, or none
   */
  List<RegionInfo> split(TableName table, byte[] row, byte[] splitRow, String expected)
      throws IOException {
    synchronized (ddl) {
      LiveTable t = tables.requireEnabled(table);
      if (expected != null && !t.regions().locate(row).info().getEncodedName().equals(expected)) {
        return List.of();
      }
      if (!enabledAttribute(t.descriptor(), TableDescriptor.SPLIT_ENABLED)) {
        throw refused(
            "table '" + table.getNameAsString() + "' does not allow splits (SPLIT_ENABLED)");
      }
      ServedRegion parent = t.regions().locate(row);
      RegionInfo p = parent.info();
      if (parent.region().hasReferences()) {
        throw refused(
            "region "
                + p.getEncodedName()
                + " still reads files of the region it came from; it can split once compacted");
      }
      byte[] at = splitRow != null ? splitRow : RegionSplitPoint.of(parent.region());
      if (at == null) {
        throw refused(
            "region " + p.getEncodedName() + " has no split point (too little data, or one row)");
      }
      if (Bytes.compareTo(at, p.getStartKey()) <= 0
          || (p.getEndKey().length > 0 && Bytes.compareTo(at, p.getEndKey()) >= 0)) {
        throw refused(
            "split row '"
                + Bytes.toStringBinary(at)
                + "' is not strictly inside region "
                + p.getEncodedName()
                + " ['"
                + Bytes.toStringBinary(p.getStartKey())
                + "', '"
                + Bytes.toStringBinary(p.getEndKey())
                + "')");
      }
      long id = catalog.nextRegionId();
      RegionInfo a = RegionInfo.of(table, p.getStartKey(), at, id);
      RegionInfo b = RegionInfo.of(table, at, p.getEndKey(), id);
      LOG.info(
          "splitting region {} of {} at '{}'", p.getEncodedName(), table, Bytes.toStringBinary(at));
      List<RegionInfo> made = transition(t, List.of(parent), List.of(a, b), true);
      return made;
    }
  }

  // ---- merge ------------------------------------------------------------------------------

  /**
   * Merges two adjacent regions of one table (in either order).
   *
   * @return the new region
   */
  RegionInfo merge(TableName table, String encodedA, String encodedB) throws IOException {
    synchronized (ddl) {
      LiveTable t = tables.requireEnabled(table);
      if (!enabledAttribute(t.descriptor(), TableDescriptor.MERGE_ENABLED)) {
        throw refused(
            "table '" + table.getNameAsString() + "' does not allow merges (MERGE_ENABLED)");
      }
      if (encodedA.equals(encodedB)) {
        throw new MergeRegionException("cannot merge region " + encodedA + " with itself");
      }
      ServedRegion ra = find(t, encodedA);
      ServedRegion rb = find(t, encodedB);
      if (Bytes.compareTo(ra.info().getStartKey(), rb.info().getStartKey()) > 0) {
        ServedRegion x = ra;
        ra = rb;
        rb = x;
      }
      if (!Bytes.equals(ra.info().getEndKey(), rb.info().getStartKey())) {
        throw new MergeRegionException(
            "regions "
                + ra.info().getEncodedName()
                + " and "
                + rb.info().getEncodedName()
                + " of "
                + table
                + " are not adjacent");
      }
      for (ServedRegion r : List.of(ra, rb)) {
        if (r.region().hasReferences()) {
          throw new MergeRegionException(
              "region "
                  + r.info().getEncodedName()
                  + " still reads files of the region it came from; merge it once compacted");
        }
      }
      RegionInfo m =
          RegionInfo.of(
              table, ra.info().getStartKey(), rb.info().getEndKey(), catalog.nextRegionId());
      LOG.info(
          "merging regions {} and {} of {}",
          ra.info().getEncodedName(),
          rb.info().getEncodedName(),
          table);
      return transition(t, List.of(ra, rb), List.of(m), false).get(0);
    }
  }

  private static ServedRegion find(LiveTable t, String encoded) throws IOException {
    for (ServedRegion r : t.regions().all()) {
      if (r.info().getEncodedName().equals(encoded)) {
        return r;
      }
    }
    throw new UnknownRegionException("table " + t.name() + " has no region " + encoded);
  }

  // ---- the transition ---------------------------------------------------------------------

  /**
   * Replaces {@code olds} (adjacent, in key order) by {@code news} (covering the same rows, in key
   * order), committing by switching the region set.
   */
  private List<RegionInfo> transition(
      LiveTable t, List<ServedRegion> olds, List<RegionInfo> news, boolean split)
      throws IOException {
    long floor = 0;
    List<Map<String, List<String>>> files = new ArrayList<>();
    try {
      for (ServedRegion r : olds) {
        r.region().flush(); // most of the data, while operations still run
      }
      for (ServedRegion r : olds) {
        files.add(r.region().closeForHandOver()); // the rest; operations now wait
        floor = Math.max(floor, r.region().getLastSequenceId());
      }
      FaultPoints.hit(split ? FAULT_SPLIT_PARENT_CLOSED : FAULT_MERGE_PARENTS_CLOSED);
      List<RegionInfo> oldInfos = new ArrayList<>();
      for (ServedRegion r : olds) {
        oldInfos.add(r.info());
      }
      catalog.writeHandOver(news, oldInfos, files);
      FaultPoints.hit(split ? FAULT_SPLIT_WRITTEN : FAULT_MERGE_WRITTEN);
    } catch (IOException | RuntimeException e) {
      rollBack(t, olds, news);
      throw e;
    }
    List<RegionSet.Member> members = new ArrayList<>();
    for (RegionSet.Member m : t.regionSet().members()) {
      String name = m.info().getEncodedName();
      if (name.equals(olds.get(0).info().getEncodedName())) {
        for (RegionInfo n : news) {
          members.add(new RegionSet.Member(n, floor));
        }
      } else if (olds.stream().noneMatch(o -> o.info().getEncodedName().equals(name))) {
        members.add(m);
      }
    }
    RegionSet set = t.regionSet().withMembers(members);
    try {
      catalog.writeRegionSet(set);
    } catch (IOException | RuntimeException e) {
      rollBack(t, olds, news);
      throw e;
    }
    // Committed: whatever fails from here on, the new regions are the table's.
    Exception afterCommit = null;
    try {
      FaultPoints.hit(split ? FAULT_SPLIT_SWITCHED : FAULT_MERGE_SWITCHED);
      for (ServedRegion r : olds) {
        wal.forgetRegion(r.info().getEncodedName()); // every edit of it is in its files
      }
    } catch (IOException | RuntimeException e) {
      afterCommit = e;
    }
    List<ServedRegion> opened = new ArrayList<>();
    try {
      for (RegionInfo n : news) {
        opened.add(new ServedRegion(opener.open(n, t.descriptor(), floor)));
      }
    } catch (IOException | RuntimeException e) {
      // The new regions are the table's; it stays unavailable until enabled again.
      for (ServedRegion r : opened) {
        r.region().close();
      }
      tables.publish(LiveTable.disabled(t.descriptor(), set.withState(RegionSet.State.DISABLED)));
      throw e;
    }
    List<ServedRegion> map = new ArrayList<>();
    for (ServedRegion r : t.regions().all()) {
      if (r == olds.get(0)) {
        map.addAll(opened);
      } else if (!olds.contains(r)) {
        map.add(r);
      }
    }
    tables.publish(LiveTable.enabled(t.descriptor(), set, new RegionMap(map)));
    for (ServedRegion r : opened) {
      requestCompaction.accept(r.region());
    }
    if (afterCommit instanceof IOException) {
      throw (IOException) afterCommit;
    } else if (afterCommit != null) {
      throw (RuntimeException) afterCommit;
    }
    FaultPoints.hit(split ? FAULT_SPLIT_OPENED : FAULT_MERGE_OPENED);
    return news;
  }

  /** Before the commit: the old regions serve again, the new directories go. */
  private void rollBack(LiveTable t, List<ServedRegion> olds, List<RegionInfo> news) {
    for (RegionInfo n : news) {
      try {
        catalog.archive(Catalog.regionDir(n));
      } catch (IOException e) {
        LOG.warn("could not remove {} yet; the next open will", Catalog.regionDir(n), e);
      }
    }
    List<ServedRegion> map = new ArrayList<>();
    try {
      for (ServedRegion r : t.regions().all()) {
        if (olds.contains(r) && r.region().isClosed()) {
          RegionSet.Member m = t.regionSet().member(r.info().getEncodedName());
          long floor = Math.max(m.sequenceFloor(), r.region().getLastSequenceId());
          map.add(new ServedRegion(opener.open(r.info(), t.descriptor(), floor)));
        } else {
          map.add(r);
        }
      }
      tables.publish(LiveTable.enabled(t.descriptor(), t.regionSet(), new RegionMap(map)));
    } catch (IOException | RuntimeException e) {
      LOG.error("could not reopen the regions of {} after a failed split or merge", t.name(), e);
      tables.publish(LiveTable.disabled(t.descriptor(), t.regionSet()));
    }
  }
}
