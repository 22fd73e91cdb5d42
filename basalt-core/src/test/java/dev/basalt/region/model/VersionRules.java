package dev.basalt.region.model;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.TimeRange;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.KeepDeletedCells;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The read rules of docs/SEMANTICS.md for one column, written as literally as possible: section 4
 * (deterministic history, by replay), section 5 (classic HBase) and section 6 (raw scans). Every
 * method takes the whole stored history of the column and recomputes the answer from scratch; no
 * attempt is made to be fast.
 *
 * <p>Stateless; all methods are pure functions of their arguments.
 */
final class VersionRules {
  private VersionRules() {}

  /** The family settings and the read's options that decide what one column returns. */
  record ReadRules(ColumnFamilyDescriptor family, TimeRange timeRange, int maxVersions, long now) {

    int familyVersions() {
      return family.getMaxVersions();
    }

    int minVersions() {
      return family.getMinVersions();
    }

    /** Section 3: with TTL t seconds a cell is expired when {@code ts < now - t*1000}. */
    boolean isExpired(long ts) {
      if (family.getTimeToLive() == ColumnFamilyDescriptor.FOREVER) {
        return false;
      }
      long ttlMillis = family.getTimeToLive() * 1000L;
      return ts < now - ttlMillis;
    }

    boolean keepDeletedCells() {
      return family.getKeepDeletedCells() != KeepDeletedCells.FALSE;
    }

    /**
     * Section 3, per-cell TTL: a put whose own TTL has run out ({@code ts + ttl < now}) is never
     * shown, whatever MIN_VERSIONS says, but keeps its place among the versions (raw scans skip it
     * altogether).
     */
    boolean isCellExpired(StoredCell c) {
      return c.hasTtl() && saturatingSum(c.ts(), c.ttl()) < now;
    }
  }

  /** {@code a + b}, held at the long range's ends instead of wrapping. */
  static long saturatingSum(long a, long b) {
    long s = a + b;
    if (((a ^ s) & (b ^ s)) < 0) {
      return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
    return s;
  }

  /** The history without the puts whose per-cell TTL has run out (raw scans). */
  private static List<StoredCell> unexpired(List<StoredCell> history, ReadRules rules) {
    List<StoredCell> out = new ArrayList<>(history.size());
    for (StoredCell c : history) {
      if (!rules.isCellExpired(c)) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * The visible versions of one column, newest first, after the time range and {@code
   * min(maxVersions, VERSIONS)} (section 3).
   *
   * @param history the puts of the column and every delete marker of the row that can cover it
   *     (Delete/DeleteColumn markers of the column, DeleteFamily/DeleteFamilyVersion markers of the
   *     family), in any order
   */
  static List<KeyValue> visibleVersions(List<StoredCell> history, ReadRules rules) {
    int limit = Math.min(rules.maxVersions(), rules.familyVersions());
    return rules.family().isNewVersionBehavior()
        ? deterministic(history, rules, limit)
        : classic(history, rules, limit);
  }

  // ---- section 4 ------------------------------------------------------------------------------

  private static List<KeyValue> deterministic(
      List<StoredCell> history, ReadRules rules, int limit) {
    List<StoredCell> bySeq = new ArrayList<>(history);
    bySeq.sort(Comparator.comparingLong(StoredCell::order));

    // Replay in sequence-id order, one mutation (one sequence id) per step.
    TreeMap<Long, StoredCell> live = new TreeMap<>();
    int i = 0;
    while (i < bySeq.size()) {
      long seq = bySeq.get(i).seq();
      List<StoredCell> step = new ArrayList<>();
      while (i < bySeq.size() && bySeq.get(i).seq() == seq) {
        step.add(bySeq.get(i++));
      }
      boolean puts = step.stream().anyMatch(StoredCell::isPut);
      boolean markers = step.stream().anyMatch(c -> !c.isPut());
      if (puts && markers) {
        throw new IllegalStateException("a mutation wrote both puts and markers: " + step);
      }
      if (puts) {
        // 1. live[ts] = cell, the last added of one mutation winning; then trim once.
        for (StoredCell put : step) {
          live.put(put.ts(), put);
        }
        while (live.size() > rules.familyVersions()) {
          live.pollFirstEntry(); // pushed out for good
        }
      } else {
        // 2./3. effective markers remove what they cover from live; others are ignored.
        for (StoredCell marker : step) {
          if (!deterministicMarkerEffective(marker, rules)) {
            continue;
          }
          CellType type = marker.type();
          if (type == CellType.DELETE || type == CellType.DELETE_FAMILY_VERSION) {
            live.remove(marker.ts());
          } else if (type == CellType.DELETE_COLUMN || type == CellType.DELETE_FAMILY) {
            live.headMap(marker.ts(), true).clear();
          } else {
            throw new IllegalStateException("unexpected marker " + marker);
          }
        }
      }
    }

    // Candidates newest first, without those whose own TTL has run out (section 3: never shown,
    // not counted); c_i is visible when not expired or i <= MIN_VERSIONS.
    List<StoredCell> candidates = new ArrayList<>();
    for (StoredCell c : live.descendingMap().values()) {
      if (!rules.isCellExpired(c)) {
        candidates.add(c);
      }
    }
    List<StoredCell> visible = new ArrayList<>();
    for (int n = 1; n <= candidates.size(); n++) {
      StoredCell c = candidates.get(n - 1);
      if (!rules.isExpired(c.ts()) || n <= rules.minVersions()) {
        visible.add(c);
      }
    }
    // Then the time range and maxVersions (section 3).
    List<KeyValue> out = new ArrayList<>();
    for (StoredCell c : visible) {
      if (out.size() >= limit) {
        break;
      }
      if (rules.timeRange().withinTimeRange(c.ts())) {
        out.add(c.cell());
      }
    }
    return out;
  }

  private static boolean deterministicMarkerEffective(StoredCell marker, ReadRules rules) {
    if (!rules.keepDeletedCells()) {
      return true;
    }
    return rules.timeRange().withinTimeRange(marker.ts());
  }

  // ---- section 5 ------------------------------------------------------------------------------

  private static List<KeyValue> classic(List<StoredCell> history, ReadRules rules, int limit) {
    TimeRange tr = rules.timeRange();
    List<StoredCell> markers = new ArrayList<>();
    // For each distinct timestamp keep only the put with the highest sequence id (the last added
    // one between cells of one mutation).
    TreeMap<Long, StoredCell> versions = new TreeMap<>();
    for (StoredCell c : history) {
      if (c.isPut()) {
        StoredCell prev = versions.get(c.ts());
        if (prev == null || prev.order() < c.order()) {
          versions.put(c.ts(), c);
        }
      } else if (classicMarkerEffective(c, rules)) {
        markers.add(c);
      }
    }
    List<KeyValue> out = new ArrayList<>();
    int n = 0;
    int position = 0; // among every version, deleted ones included
    int places = 0; // among the counted versions and those whose own TTL has run out
    for (Map.Entry<Long, StoredCell> e : versions.descendingMap().entrySet()) {
      long ts = e.getKey();
      position++;
      if (rules.keepDeletedCells() && position > rules.familyVersions()) {
        break; // deleted versions kept by KEEP_DELETED_CELLS count toward VERSIONS
      }
      if (isDeletedClassic(ts, markers)) {
        continue;
      }
      if (ts >= tr.getMax()) {
        continue;
      }
      if (ts < tr.getMin()) {
        break;
      }
      // Section 3: a version whose own TTL has run out keeps its place among VERSIONS, unseen.
      if (++places > rules.familyVersions()) {
        break;
      }
      if (rules.isCellExpired(e.getValue())) {
        continue;
      }
      n++;
      if (n <= limit && (n <= rules.minVersions() || !rules.isExpired(ts))) {
        out.add(e.getValue().cell());
      } else {
        break;
      }
    }
    return out;
  }

  private static boolean classicMarkerEffective(StoredCell marker, ReadRules rules) {
    if (!rules.keepDeletedCells()) {
      return marker.ts() >= rules.timeRange().getMin();
    }
    return rules.timeRange().withinTimeRange(marker.ts());
  }

  private static boolean isDeletedClassic(long ts, List<StoredCell> effectiveMarkers) {
    for (StoredCell m : effectiveMarkers) {
      CellType type = m.type();
      if ((type == CellType.DELETE_FAMILY || type == CellType.DELETE_COLUMN) && m.ts() >= ts) {
        return true;
      }
      if ((type == CellType.DELETE || type == CellType.DELETE_FAMILY_VERSION) && m.ts() == ts) {
        return true;
      }
    }
    return false;
  }

  // ---- section 7, classic ---------------------------------------------------------------------

  /**
   * What a major compaction keeps of one row's cells of a classic family (NEW_VERSION_BEHAVIOR=
   * false), SEMANTICS.md section 7:
   *
   * <blockquote>
   *
   * with KEEP_DELETED_CELLS=FALSE, drop puts masked by a marker (section 5 rule 2, every marker
   * applying) and every marker; then, walking the remaining puts newest first (one per timestamp),
   * keep the n-th when {@code n <= VERSIONS} and ({@code n <= MIN_VERSIONS} or not expired). With
   * KEEP_DELETED_CELLS=TRUE, puts older than the newest VERSIONS timestamps (deleted ones counted)
   * are dropped; the deleted puts among the rest and the markers are kept, and the version and TTL
   * rules apply to the puts that are not deleted; with TTL, the same until a marker expires.
   *
   * </blockquote>
   *
   * <p>Per-cell TTLs (section 3): a put whose own TTL has run out keeps its place: walking the puts
   * that are not deleted, the n-th with a place is kept when {@code n <= VERSIONS}, a put whose TTL
   * ran out always (it is never shown, but older versions must stay hidden), the others when
   * counted among the rest as above.
   *
   * <p>Readings where the text leaves a choice:
   *
   * <ul>
   *   <li>"one per timestamp": of several puts of one version only the latest written (highest
   *       sequence id) is walked; the others are dropped, deleted or not. No read can tell (reads
   *       and raw scans return only the latest write of a version, and raw scans skip it when its
   *       per-cell TTL ran out, showing none), and HBase drops them too.
   *   <li>KEEP_DELETED_CELLS=TTL, "markers and the puts they mask are dropped once expired": a
   *       marker is dropped once its own timestamp is expired, and with it every put it masks (such
   *       a put is expired too); a put masked only by markers that are not expired yet is kept,
   *       expired or not. This is HBase's reading ("deleted cells are retained until the delete
   *       marker expires due to TTL"; its compaction matcher tracks only expired markers).
   *   <li>KEEP_DELETED_CELLS=TRUE keeps markers and deleted puts whatever their age, as written
   *       (HBase would drop expired ones when MIN_VERSIONS=0; no read can tell the difference then,
   *       as every read skips expired cells when MIN_VERSIONS=0).
   * </ul>
   *
   * @param cells the row's cells of the family that the compaction rewrites (those in store files)
   * @param now the clock when the compaction runs, for TTL
   * @return the cells kept (by identity)
   */
  static Set<StoredCell> classicMajorCompaction(
      List<StoredCell> cells, ColumnFamilyDescriptor family, long now) {
    ReadRules rules = new ReadRules(family, TimeRange.allTime(), Integer.MAX_VALUE, now);
    KeepDeletedCells kdc = family.getKeepDeletedCells();
    Set<StoredCell> keep = Collections.newSetFromMap(new IdentityHashMap<>());
    List<StoredCell> markers = new ArrayList<>();
    Map<byte[], List<StoredCell>> putsByQualifier = new TreeMap<>(Bytes.COMPARATOR);
    for (StoredCell c : cells) {
      if (c.isPut()) {
        putsByQualifier.computeIfAbsent(c.qualifier(), q -> new ArrayList<>()).add(c);
      } else {
        markers.add(c);
        boolean kept =
            kdc == KeepDeletedCells.TRUE
                || (kdc == KeepDeletedCells.TTL && !rules.isExpired(c.ts()));
        if (kept) {
          keep.add(c);
        }
      }
    }
    for (Map.Entry<byte[], List<StoredCell>> e : putsByQualifier.entrySet()) {
      byte[] qualifier = e.getKey();
      List<StoredCell> covering = new ArrayList<>();
      for (StoredCell m : markers) {
        if (m.isFamilyMarker() || m.hasQualifier(qualifier)) {
          covering.add(m);
        }
      }
      List<StoredCell> expiredCovering = new ArrayList<>();
      for (StoredCell m : covering) {
        if (rules.isExpired(m.ts())) {
          expiredCovering.add(m);
        }
      }
      // One put per timestamp, the latest written; the others are dropped, deleted or not.
      TreeMap<Long, StoredCell> latest = new TreeMap<>();
      for (StoredCell p : e.getValue()) {
        StoredCell prev = latest.get(p.ts());
        if (prev == null || prev.order() < p.order()) {
          latest.put(p.ts(), p);
        }
      }
      // KEEP_DELETED_CELLS: puts older than the newest VERSIONS timestamps go, deleted or not.
      long oldestCounted = Long.MIN_VALUE;
      if (kdc != KeepDeletedCells.FALSE && latest.size() > rules.familyVersions()) {
        oldestCounted = new ArrayList<>(latest.descendingKeySet()).get(rules.familyVersions() - 1);
      }
      // The puts that are not deleted.
      TreeMap<Long, StoredCell> versions = new TreeMap<>();
      for (StoredCell p : latest.values()) {
        if (p.ts() < oldestCounted) {
          continue;
        }
        if (isDeletedClassic(p.ts(), covering)) {
          boolean kept =
              kdc == KeepDeletedCells.TRUE
                  || (kdc == KeepDeletedCells.TTL && !isDeletedClassic(p.ts(), expiredCovering));
          if (kept) {
            keep.add(p);
          }
          continue;
        }
        versions.put(p.ts(), p);
      }
      int n = 0;
      int places = 0;
      for (StoredCell p : versions.descendingMap().values()) {
        if (++places > rules.familyVersions()) {
          break;
        }
        if (rules.isCellExpired(p)) {
          keep.add(p); // its own TTL ran out: unseen, but it keeps its place
          continue;
        }
        n++;
        if (n <= rules.minVersions() || !rules.isExpired(p.ts())) {
          keep.add(p);
        }
      }
    }
    return keep;
  }

  // ---- section 6 ------------------------------------------------------------------------------

  /**
   * What a raw scan returns of one column, in cell order.
   *
   * <p>Reading of section 6 where it does not fix the order of its checks (the same order as
   * HBase's raw scan matcher): for each cell, an expired cell ends the column when MIN_VERSIONS=0;
   * then the time range (newer: skipped, older: ends the column); then duplicates of (timestamp,
   * type) are dropped; then a put is counted ("the count so far" includes the cell itself when it
   * is a put) and ends the column when the count exceeds {@code maxVersions}; finally the cell is
   * returned when the count is at most MIN_VERSIONS or it is not expired, and otherwise ends the
   * column. Cells skipped by the time range or as duplicates are not counted.
   *
   * @param cells every stored cell of the column: its puts and markers, and for the empty qualifier
   *     also the family markers of the family
   * @param maxVersions the scan's value, not capped by VERSIONS
   */
  static List<KeyValue> raw(List<StoredCell> cells, ReadRules rules, int maxVersions) {
    List<StoredCell> sorted = unexpired(cells, rules);
    // Cell order within a column: timestamp desc, type desc, sequence id desc (later write first).
    sorted.sort(
        Comparator.comparingLong(StoredCell::ts)
            .reversed()
            .thenComparing(
                Comparator.comparingInt((StoredCell c) -> c.type().code() & 0xff).reversed())
            .thenComparing(Comparator.comparingLong(StoredCell::order).reversed()));
    // Of cells with equal timestamp and type only the highest sequence id is returned.
    List<StoredCell> distinct = new ArrayList<>();
    for (StoredCell c : sorted) {
      StoredCell last = distinct.isEmpty() ? null : distinct.get(distinct.size() - 1);
      if (last != null && last.ts() == c.ts() && last.type() == c.type()) {
        continue;
      }
      distinct.add(c);
    }
    TimeRange tr = rules.timeRange();
    List<KeyValue> out = new ArrayList<>();
    int count = 0;
    for (StoredCell c : distinct) {
      if (rules.minVersions() == 0 && rules.isExpired(c.ts())) {
        break;
      }
      if (c.ts() >= tr.getMax()) {
        continue;
      }
      if (c.ts() < tr.getMin()) {
        break;
      }
      if (c.isPut()) {
        count++;
      }
      if (count > maxVersions) {
        break;
      }
      if (count <= rules.minVersions() || !rules.isExpired(c.ts())) {
        out.add(c.cell());
      } else {
        break;
      }
    }
    return out;
  }
}
