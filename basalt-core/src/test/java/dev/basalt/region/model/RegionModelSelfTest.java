package dev.basalt.region.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.filter.CompareOperator;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.KeepDeletedCells;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.ManualClock;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;

/**
 * Checks the reference model itself against small histories worked out by hand from
 * docs/SEMANTICS.md, so that the oracle of the property tests does not rest on agreeing with the
 * engine alone. Each expectation quotes the sentence it follows.
 */
class RegionModelSelfTest {
  private static final byte[] R = Bytes.toBytes("r");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  private final ManualClock clock = new ManualClock(1000);

  private ModelRegion model(ColumnFamilyDescriptorBuilder family) {
    return new ModelRegion(
        TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
            .setColumnFamily(family.build())
            .build(),
        clock);
  }

  private static ColumnFamilyDescriptorBuilder family(int versions, boolean newVersionBehavior) {
    return ColumnFamilyDescriptorBuilder.newBuilder(F)
        .setMaxVersions(versions)
        .setNewVersionBehavior(newVersionBehavior);
  }

  private static Put put(long ts, String value) {
    return new Put(R).addColumn(F, Q, ts, Bytes.toBytes(value));
  }

  /** "ts=value" per returned cell, newest first. */
  private static List<String> versions(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.cells()) {
      out.add(
          c.getTimestamp()
              + (c.isDelete() ? "/" + c.getType() : "=" + Bytes.toString(cloneValue(c))));
    }
    return out;
  }

  private static byte[] cloneValue(Cell c) {
    return dev.basalt.cell.CellUtil.cloneValue(c);
  }

  private static Get all() {
    return new Get(R).readAllVersions();
  }

  @Example
  void deterministicPutAfterADeleteIsVisibleWhateverItsTimestamp() throws Exception {
    // Section 4: "a Put committed after a delete is visible whatever its timestamp".
    ModelRegion m = model(family(3, true));
    m.put(put(5, "a"));
    m.delete(new Delete(R).addColumns(F, Q, 10));
    m.put(put(3, "b"));
    assertThat(versions(m.get(all()))).containsExactly("3=b");
  }

  @Example
  void classicDeleteMasksALaterPutWithAnOlderTimestamp() throws Exception {
    // Section 5: "deletes mask later puts with older timestamps".
    ModelRegion m = model(family(3, false));
    m.put(put(5, "a"));
    m.delete(new Delete(R).addColumns(F, Q, 10));
    m.put(put(3, "b"));
    assertThat(m.get(all()).isEmpty()).isTrue();
  }

  @Example
  void deterministicPushedOutVersionNeverComesBack() throws Exception {
    // Section 4: "a version pushed out of the newest VERSIONS never comes back".
    ModelRegion m = model(family(1, true));
    m.put(put(1, "old"));
    m.put(put(2, "new"));
    m.delete(new Delete(R).addColumn(F, Q, 2));
    assertThat(m.get(all()).isEmpty()).isTrue();
  }

  @Example
  void classicDeletingTheNewestVersionResurrectsAnOlderOne() throws Exception {
    // Section 5: "deleting the newest version can make an older one visible again".
    ModelRegion m = model(family(1, false));
    m.put(put(1, "old"));
    m.put(put(2, "new"));
    m.delete(new Delete(R).addColumn(F, Q, 2));
    assertThat(versions(m.get(all()))).containsExactly("1=old");
  }

  @Example
  void keepDeletedCellsShowsDeletedCellsToReadsEndingBeforeTheDelete() throws Exception {
    // Section 4: with KEEP_DELETED_CELLS=TRUE a marker is effective only inside the time range.
    ModelRegion m = model(family(3, true).setKeepDeletedCells(KeepDeletedCells.TRUE));
    m.put(put(1, "a"));
    m.delete(new Delete(R).addColumns(F, Q, 5));
    assertThat(versions(m.get(all().setTimeRange(0, 5)))).containsExactly("1=a");
    assertThat(m.get(all()).isEmpty()).isTrue();
  }

  @Example
  void minVersionsKeepsTheNewestVersionsPastTheirTtl() throws Exception {
    // Section 4: c_i is visible when it is not expired, or when i <= MIN_VERSIONS.
    ModelRegion m = model(family(3, true).setMinVersions(1).setTimeToLive(1));
    m.put(put(1000, "a"));
    m.put(put(1001, "b"));
    clock.set(1000 + 1000);
    assertThat(versions(m.get(all()))).containsExactly("1001=b", "1000=a"); // 1000 < 1000 is false
    clock.set(1001 + 1001);
    assertThat(versions(m.get(all()))).containsExactly("1001=b");
  }

  @Example
  void latestVersionDeletesTakeTheNewestVersionsInTurn() throws Exception {
    // Section 2: "the k-th marker gets the timestamp of the k-th newest visible version".
    ModelRegion m = model(family(3, true));
    m.put(put(1, "a"));
    m.put(put(2, "b"));
    m.put(put(3, "c"));
    m.delete(new Delete(R).addColumn(F, Q).addColumn(F, Q));
    assertThat(versions(m.get(all()))).containsExactly("1=a");
    Scan raw = new Scan().setRaw(true).readAllVersions();
    assertThat(versions(m.scan(raw).get(0)))
        .containsExactly("3/DELETE", "3=c", "2/DELETE", "2=b", "1=a");
  }

  @Example
  void incrementNeverWritesBelowTheCurrentVersion() throws Exception {
    // Section 2: timestamp max(now, currentCell.ts + 1).
    ModelRegion m = model(family(3, true));
    m.put(new Put(R).addColumn(F, Q, 2000, Bytes.toBytes(5L)));
    Result r = m.increment(new Increment(R).addColumn(F, Q, 2));
    assertThat(r.cells()).hasSize(1);
    assertThat(r.cells().get(0).getTimestamp()).isEqualTo(2001);
    assertThat(Bytes.toLong(r.value())).isEqualTo(7);
  }

  @Example
  void incrementOfANonCounterFailsAndWritesNothing() throws Exception {
    ModelRegion m = model(family(3, true));
    m.put(new Put(R).addColumn(F, Q, Bytes.toBytes("xy")));
    assertThatThrownBy(() -> m.increment(new Increment(R).addColumn(F, Q, 1)))
        .isInstanceOf(ModelException.class)
        .satisfies(e -> assertThat(((ModelException) e).width()).isEqualTo(2));
    assertThat(m.history(R)).hasSize(1);
  }

  @Example
  void checkedPutIsNeverOlderThanTheCheckedCell() throws Exception {
    // Section 2 (HBASE-14070): LATEST cells of a checked Put get max(now, readCell.ts).
    ModelRegion m = model(family(3, true));
    m.put(put(5000, "a"));
    CheckAndMutate cam =
        CheckAndMutate.newBuilder(R)
            .ifMatches(F, Q, CompareOperator.LESS, Bytes.toBytes("0"))
            .build(new Put(R).addColumn(F, Q, Bytes.toBytes("b")));
    assertThat(m.checkAndMutate(cam).isSuccess()).isTrue(); // "0" < "a"
    assertThat(versions(m.get(new Get(R)))).containsExactly("5000=b");
  }

  @Example
  void rawScanShowsMarkersInCellOrder() throws Exception {
    // Section 6, and section 1: DeleteFamily markers have the empty qualifier.
    ModelRegion m = model(family(1, true));
    m.put(put(7, "a"));
    m.delete(new Delete(R, 7));
    List<Result> raw = m.scan(new Scan().setRaw(true));
    List<CellType> types = new ArrayList<>();
    raw.get(0).cells().forEach(c -> types.add(c.getType()));
    assertThat(types).containsExactly(CellType.DELETE_FAMILY, CellType.PUT);
    assertThat(m.scan(new Scan())).isEmpty();
  }

  // ---- section 7: major compactions of classic families -----------------------------------

  /** Every stored cell as "ts=value" or "ts/TYPE", in commit order. */
  private static List<String> stored(ModelRegion m) {
    List<String> out = new ArrayList<>();
    for (StoredCell c : m.history(R)) {
      out.add(c.ts() + (c.isPut() ? "=" + Bytes.toString(cloneValue(c.cell())) : "/" + c.type()));
    }
    return out;
  }

  @Example
  void classicMajorCompactionDropsMaskedPutsAndEveryMarker() throws Exception {
    // Section 7: "with KEEP_DELETED_CELLS=FALSE, drop puts masked by a marker ... and every
    // marker". Afterwards the marker no longer masks a later put with an older timestamp.
    ModelRegion m = model(family(3, false));
    m.put(put(5, "a"));
    m.put(put(6, "b"));
    m.delete(new Delete(R).addColumns(F, Q, 5));
    m.flushed();
    m.majorCompact();
    assertThat(stored(m)).containsExactly("6=b");
    m.put(put(4, "c"));
    assertThat(versions(m.get(all()))).containsExactly("6=b", "4=c");
  }

  @Example
  void classicMajorCompactionKeepsTheNewestVersions() throws Exception {
    // Section 7: "keep the n-th when n <= VERSIONS"; before it a time-range read can return a
    // version older than the newest VERSIONS (section 5), after it not.
    ModelRegion m = model(family(1, false));
    m.put(put(5, "a"));
    m.put(put(6, "b"));
    assertThat(versions(m.get(all().setTimeRange(0, 6)))).containsExactly("5=a");
    m.flushed();
    m.majorCompact();
    assertThat(m.get(all().setTimeRange(0, 6)).isEmpty()).isTrue();
    assertThat(stored(m)).containsExactly("6=b");
  }

  @Example
  void classicMajorCompactionRewritesOnlyFlushedCells() throws Exception {
    // A compaction rewrites store files; what is still in memory takes no part.
    ModelRegion m = model(family(1, false));
    m.put(put(5, "a"));
    m.flushed();
    m.put(put(6, "b"));
    m.delete(new Delete(R).addColumn(F, Q, 7));
    m.majorCompact();
    assertThat(stored(m)).containsExactly("5=a", "6=b", "7/DELETE");
  }

  @Example
  void classicMajorCompactionAppliesTtlBeyondMinVersions() throws Exception {
    // Section 7: keep the n-th when n <= VERSIONS and (n <= MIN_VERSIONS or not expired).
    ModelRegion m = model(family(3, false).setMinVersions(1).setTimeToLive(1));
    m.put(put(998, "a"));
    m.put(put(999, "b"));
    m.put(put(1000, "c"));
    clock.set(5000);
    m.flushed();
    m.majorCompact();
    assertThat(stored(m)).containsExactly("1000=c");
  }

  @Example
  void classicMajorCompactionWithKeepDeletedCellsKeepsDeletedPutsAndMarkers() throws Exception {
    // Section 7: "With KEEP_DELETED_CELLS=TRUE, puts older than the newest VERSIONS timestamps of
    // their column are dropped, deleted ones counted (section 5 rule 4); the other deleted puts and
    // the markers are kept".
    ModelRegion m = model(family(2, false).setKeepDeletedCells(KeepDeletedCells.TRUE));
    m.put(put(4, "a"));
    m.put(put(5, "b"));
    m.put(put(6, "c"));
    m.delete(new Delete(R).addColumn(F, Q, 6));
    m.flushed();
    m.majorCompact();
    assertThat(stored(m)).containsExactly("5=b", "6=c", "6/DELETE");
  }

  @Example
  void classicDeletedVersionsKeptByKeepDeletedCellsCountTowardVersions() throws Exception {
    // Section 5 rule 4: "a version is returned only when it is among the newest VERSIONS
    // timestamps of the column, deleted ones and those outside the time range included".
    ModelRegion m = model(family(3, false).setKeepDeletedCells(KeepDeletedCells.TRUE));
    m.put(put(1, "a"));
    m.put(put(2, "b"));
    m.put(put(3, "c"));
    m.delete(new Delete(R).addColumn(F, Q, 3));
    m.put(put(4, "d"));
    m.put(put(5, "e"));
    assertThat(versions(m.get(new Get(R).readAllVersions()))).containsExactly("5=e", "4=d");
    assertThat(versions(m.get(new Get(R).readAllVersions().setTimeRange(0, 3)))).isEmpty();
    // Without KEEP_DELETED_CELLS the deleted version frees its place (rule 3 alone).
    ModelRegion plain = model(family(3, false));
    plain.put(put(1, "a"));
    plain.put(put(2, "b"));
    plain.put(put(3, "c"));
    plain.delete(new Delete(R).addColumn(F, Q, 3));
    plain.put(put(4, "d"));
    plain.put(put(5, "e"));
    assertThat(versions(plain.get(new Get(R).readAllVersions())))
        .containsExactly("5=e", "4=d", "2=b");
  }

  @Example
  void classicMajorCompactionWithTtlKeepDeletedCellsDropsExpiredMarkersAndWhatTheyMask()
      throws Exception {
    // Section 7: "with TTL, markers and the puts they mask are dropped once expired" (read: once
    // the marker is expired, as in HBase). At 5500 with a TTL of 1 s the delete at 999 is expired,
    // and with it the put it masks; the put at 1000 is masked only by the DeleteColumn at 5000,
    // which is not expired, so it stays although it is expired itself.
    ModelRegion m =
        model(
            family(3, false)
                .setKeepDeletedCells(KeepDeletedCells.TTL)
                .setMinVersions(1)
                .setTimeToLive(1));
    m.put(put(999, "a"));
    m.put(put(1000, "b"));
    m.delete(new Delete(R).addColumn(F, Q, 999));
    m.delete(new Delete(R).addColumns(F, Q, 5000));
    m.put(put(5001, "c"));
    clock.set(5500);
    m.flushed();
    m.majorCompact();
    assertThat(stored(m)).containsExactly("1000=b", "5000/DELETE_COLUMN", "5001=c");
  }

  // ---- per-cell TTL (sections 2, 3, 5 rule 5, 7) -------------------------------------------

  @Example
  void aCellWhoseOwnTtlRanOutIsNotShownWhateverMinVersionsSays() throws Exception {
    // Section 3: "never returned by a read, whatever MIN_VERSIONS says"; "ts + t < now".
    for (boolean nvb : new boolean[] {true, false}) {
      ModelRegion m = model(family(3, nvb).setMinVersions(1));
      m.put(put(1000, "a").setTTL(500));
      clock.set(1500);
      assertThat(versions(m.get(all()))).containsExactly("1000=a"); // 1500 < 1500 is false
      clock.set(1501);
      assertThat(m.get(all()).isEmpty()).isTrue();
      assertThat(m.scan(new Scan().setRaw(true).readAllVersions())).isEmpty(); // raw skips it
      clock.set(1000);
    }
  }

  @Example
  void anExpiredCellKeepsItsPlaceSoWhatItPushedOutStaysGone() throws Exception {
    // Section 3: "a version it pushed out or outnumbered does not come back when it expires";
    // section 5 rule 5 for classic families. HBase answers so once a flush (classic) or a major
    // compaction (NEW_VERSION_BEHAVIOR) ran while the cell was alive.
    for (boolean nvb : new boolean[] {true, false}) {
      ModelRegion m = model(family(1, nvb));
      m.put(put(900, "old"));
      m.put(put(1000, "new").setTTL(100));
      assertThat(versions(m.get(all()))).containsExactly("1000=new");
      clock.set(2000);
      assertThat(m.get(all()).isEmpty()).as("nvb %s", nvb).isTrue();
      m.put(put(800, "older")); // a later put with an older timestamp is outnumbered too
      assertThat(m.get(all()).isEmpty()).as("nvb %s", nvb).isTrue();
      clock.set(1000);
    }
  }

  @Example
  void anExpiredCellTakesNoneOfTheVersionsAReadReturns() throws Exception {
    // Section 3: "it is not counted among the versions a read returns"; HBase 2.6.1 returns v2 for
    // one version after v3 (its TTL run out) of v1, v2, v3, in both semantics.
    for (boolean nvb : new boolean[] {true, false}) {
      ModelRegion m = model(family(3, nvb));
      m.put(put(1, "v1"));
      m.put(put(2, "v2"));
      m.put(put(3, "v3").setTTL(10));
      clock.set(100);
      assertThat(versions(m.get(new Get(R)))).as("nvb %s", nvb).containsExactly("2=v2");
      assertThat(versions(m.get(all()))).as("nvb %s", nvb).containsExactly("2=v2", "1=v1");
      clock.set(1000);
    }
  }

  @Example
  void incrementsAndAppendsCarryTheCurrentCellsTtlForward() throws Exception {
    // Section 2: "the mutation's TTL, or else the TTL of the current cell it read".
    ModelRegion m = model(family(1, true));
    m.increment(new Increment(R).addColumn(F, Q, 1).setTTL(300)); // ts 1000, until 1300
    clock.set(1200);
    m.increment(new Increment(R).addColumn(F, Q, 1)); // ts 1200, carries 300: until 1500
    clock.set(1450);
    assertThat(m.get(all()).getValue(F, Q)).isEqualTo(Bytes.toBytes(2L));
    clock.set(1501);
    assertThat(m.get(all()).isEmpty()).isTrue();
    // A TTL of the mutation's own replaces the carried one.
    m.increment(new Increment(R).addColumn(F, Q, 5).setTTL(10_000));
    clock.set(5000);
    assertThat(m.get(all()).getValue(F, Q)).isEqualTo(Bytes.toBytes(5L));
  }

  @Example
  void aTtlNearTheLongLimitNeverExpires() throws Exception {
    // Section 3: the sum is "held at the long range's ends instead of wrapping".
    ModelRegion m = model(family(1, true));
    m.put(put(1000, "a").setTTL(Long.MAX_VALUE - 1));
    clock.set(Long.MAX_VALUE - 5);
    assertThat(versions(m.get(all()))).containsExactly("1000=a");
  }

  @Example
  void classicMajorCompactionKeepsAnExpiredCellWhileItHoldsAPlace() throws Exception {
    // Section 7 (classic): a put whose per-cell TTL ran out "is kept while its place is within
    // VERSIONS"; the older put it outnumbers goes.
    ModelRegion m = model(family(1, false));
    m.put(put(5, "old"));
    m.put(put(6, "new").setTTL(1));
    clock.set(5000);
    m.flushed();
    m.majorCompact();
    assertThat(stored(m)).containsExactly("6=new");
    assertThat(m.get(all()).isEmpty()).isTrue();
  }
}
