package dev.basalt.region;

import dev.basalt.region.RegionModelHarness.PartialFlagCheck;
import dev.basalt.region.RegionModelSteps.Col;
import dev.basalt.region.RegionModelSteps.Compact;
import dev.basalt.region.RegionModelSteps.DeleteSpec;
import dev.basalt.region.RegionModelSteps.FamilySpec;
import dev.basalt.region.RegionModelSteps.Flush;
import dev.basalt.region.RegionModelSteps.GetStep;
import dev.basalt.region.RegionModelSteps.MarkerSpec;
import dev.basalt.region.RegionModelSteps.Mutate;
import dev.basalt.region.RegionModelSteps.OpenScanStep;
import dev.basalt.region.RegionModelSteps.PutCell;
import dev.basalt.region.RegionModelSteps.PutSpec;
import dev.basalt.region.RegionModelSteps.RangeSpec;
import dev.basalt.region.RegionModelSteps.ReadSpec;
import dev.basalt.region.RegionModelSteps.Restart;
import dev.basalt.region.RegionModelSteps.ScanStep;
import dev.basalt.region.RegionModelSteps.Step;
import dev.basalt.region.RegionModelSteps.TableSpec;
import dev.basalt.region.RegionModelSteps.Tick;
import dev.basalt.region.RegionModelSteps.Tr;
import dev.basalt.region.RegionModelSteps.Ts;
import dev.basalt.region.RegionModelSteps.Value;
import dev.basalt.schema.KeepDeletedCells;
import java.util.List;
import net.jqwik.api.Example;

/**
 * The shrunk counterexamples the storage-backed model properties found ({@link
 * RegionModelStoragePropertyTest}), kept as fixed scripts. Each runs through the same harness, on a
 * database in a temporary directory, so the expected outcome is the model's (SEMANTICS.md), never a
 * recorded engine output.
 */
class RegionModelStorageRegressionTest {

  private static TableSpec classic() {
    return new TableSpec(
        List.of(
            new FamilySpec("f1", 1, 0, 0, KeepDeletedCells.FALSE, false),
            new FamilySpec("f2", 1, 0, 0, KeepDeletedCells.FALSE, false)));
  }

  private static Step put(String row, String family, String qualifier, String value) {
    return new Mutate(
        new PutSpec(
            row, List.of(new PutCell(new Col(family, qualifier), Ts.LATEST, Value.text(value)))));
  }

  private static Step deleteRow(String row) {
    return new Mutate(new DeleteSpec(row, Ts.LATEST, List.of()));
  }

  private static final ReadSpec ALL_VERSIONS = new ReadSpec(List.of(), null, List.of(), 0, -1, 0);

  private static Step get(String row) {
    return new GetStep(row, ALL_VERSIONS, false);
  }

  private static Step rawScan() {
    return new ScanStep(
        new RangeSpec("", true, "", false, null), ALL_VERSIONS, false, true, -1, -1);
  }

  private static void run(TableSpec table, Step... steps) {
    new RegionModelHarness(table, PartialFlagCheck.STRICT, RegionModelHarness.DATABASE)
        .run(List.of(steps));
  }

  /**
   * SEMANTICS.md section 7 (classic, KEEP_DELETED_CELLS=FALSE): a major compaction drops every
   * marker, after which a put at the marker's timestamp is visible (section 5). Here the marker was
   * the only cell of f1, so the compaction leaves f1 without cells; the restart then replays the
   * WAL, which still holds the delete. The engine used to apply it again (a store without files
   * counted as having persisted nothing), hiding the put: expected {@code r1/f1:@1000=v1}, actual
   * empty. Fixed on main by 7cf5540 (a compaction that drops every cell still writes a cell-less
   * file carrying the persisted sequence id).
   */
  @Example
  void aMarkerDroppedByAMajorCompactionStaysDroppedAfterWalReplay() {
    run(
        classic(),
        deleteRow("r1"),
        new Flush(),
        new Compact(true),
        put("r1", "f1", "", "v1"),
        new Restart(false),
        get("r1"));
  }

  /**
   * The same with a restart that flushes on close: nothing new was written to the emptied stores,
   * and the next open replays the WAL segment the close left. Expected: the raw scan returns
   * nothing and the later put is visible; the engine used to bring both DeleteFamily markers back,
   * hiding the put at their timestamp (fixed by 7cf5540, as above).
   */
  @Example
  void aMarkerDroppedByAMajorCompactionStaysDroppedAfterARestart() {
    run(
        classic(),
        deleteRow("r1"),
        new Flush(),
        new Compact(true),
        new Restart(true),
        rawScan(),
        put("r1", "f1", "", "v1"),
        get("r1"));
  }

  /**
   * A row delete written while a scanner is open, flushed and major-compacted before the scanner
   * closes: the open scan reads the store contents it pinned, so the compaction need not keep
   * anything for it and drops the classic markers; the raw scan afterwards shows none. (When table
   * scans pinned only read points, compactions kept cells above them, and the model had to too.)
   */
  @Example
  void aMajorCompactionDuringAnOpenScanDropsMarkersWrittenMeanwhile() {
    ScanStep scanAll =
        new ScanStep(new RangeSpec("", true, "", false, null), ALL_VERSIONS, false, false, -1, -1);
    run(
        classic(),
        put("r2", "f1", "", "v1"),
        new OpenScanStep(scanAll, 0, List.of(deleteRow("r1"), new Flush(), new Compact(true))),
        rawScan());
  }

  /**
   * The same, but the scanner has already ended (it read past the last row) when the compaction
   * runs: it no longer holds its read point, so the major compaction drops the markers. Expected
   * (model, before it knew ended scanners let go) both markers, actual nothing.
   */
  @Example
  void anEndedScannerNoLongerKeepsMarkersFromAMajorCompaction() {
    ScanStep scanAll =
        new ScanStep(new RangeSpec("", true, "", false, null), ALL_VERSIONS, false, false, -1, -1);
    run(
        classic(),
        new OpenScanStep(scanAll, 1, List.of(deleteRow("r1"), new Flush(), new Compact(true))),
        rawScan());
  }

  /**
   * SEMANTICS.md section 7 (classic, KEEP_DELETED_CELLS=TTL): "markers and the puts they mask are
   * dropped once expired". Read as HBase does (KeepDeletedCells.TTL: "deleted cells are retained
   * until the delete marker expires due to TTL"), the put at 1000, expired but masked only by a
   * DeleteColumn at 2500 that is not expired, survives the major compaction, and a read whose time
   * range ends before the marker still sees it (section 5: the marker is not effective there, and
   * the put is the newest version, within MIN_VERSIONS=1). The engine drops a deleted put as soon
   * as the put itself is expired. Expected {@code r1/f2:a@1000=v1}, actual empty.
   */
  @Example
  void aPutMaskedOnlyByAnUnexpiredMarkerSurvivesAMajorCompactionWithTtlKeepDeletedCells() {
    TableSpec table =
        new TableSpec(
            List.of(
                new FamilySpec("f1", 1, 0, 0, KeepDeletedCells.FALSE, false),
                new FamilySpec("f2", 1, 1, 1, KeepDeletedCells.TTL, false)));
    ReadSpec before2000 =
        new ReadSpec(List.of(), new Tr(Ts.abs(0), Ts.abs(2000), false), List.of(), 1, -1, 0);
    run(
        table,
        new Mutate(
            new PutSpec(
                "r1", List.of(new PutCell(new Col("f2", "a"), Ts.abs(1000), Value.text("v1"))))),
        new Tick(1500),
        new Mutate(
            new DeleteSpec(
                "r1",
                Ts.LATEST,
                List.of(new MarkerSpec(MarkerSpec.MarkerKind.COLUMNS, new Col("f2", "a"), null)))),
        new Flush(),
        new GetStep("r1", before2000, false),
        new Compact(true),
        new GetStep("r1", before2000, false));
  }

  /**
   * SEMANTICS.md sections 5 and 7 (classic): a row delete masks a later put of the same timestamp
   * until a major compaction drops the marker; the put is then visible. The get before the
   * compaction found the row empty and the row cache kept that; the get after it was answered from
   * the cache: expected {@code r1/f1:a@1000=v1}, actual empty. A major compaction of a classic
   * family now drops the region's cached rows. (Shrunk from a failure of {@link
   * RegionModelStoragePropertyTest#classicHistoriesOnStorageMatchTheModel} in session 17.)
   */
  @Example
  void aMajorCompactionThatUnmasksAPutIsNotHiddenByTheRowCache() {
    // The latest version of the whole row: the gets the row cache answers.
    Step getLatest = new GetStep("r1", new ReadSpec(List.of(), null, List.of(), 1, -1, 0), false);
    run(
        classic(),
        deleteRow("r1"),
        new Flush(),
        put("r1", "f1", "a", "v1"),
        getLatest,
        new Compact(true),
        getLatest);
  }

  /**
   * Issue 37 item 8, SEMANTICS.md section 5 rule 4: in a classic family with KEEP_DELETED_CELLS,
   * the deleted version 3000 keeps its place among the three VERSIONS, so after puts at 4000 and
   * 5000 the version at 2000 (and 1000) is gone: HBase 2.6.1 answers 5000, 4000 after a flush or a
   * major compaction (5000, 4000, 2000 before one); Basalt answers 5000, 4000 throughout, time
   * ranges included (the read before 3000 finds nothing).
   */
  @Example
  void aDeletedVersionKeptByKeepDeletedCellsCountsTowardVersions() {
    TableSpec table =
        new TableSpec(
            List.of(
                new FamilySpec("f1", 3, 0, 0, KeepDeletedCells.TRUE, false),
                new FamilySpec("f2", 1, 0, 0, KeepDeletedCells.FALSE, false)));
    ReadSpec before3000 =
        new ReadSpec(List.of(), new Tr(Ts.abs(0), Ts.abs(3000), false), List.of(), 0, -1, 0);
    Step[] puts = new Step[5];
    for (int i = 1; i <= 5; i++) {
      puts[i - 1] =
          new Mutate(
              new PutSpec(
                  "r1",
                  List.of(
                      new PutCell(new Col("f1", "q"), Ts.abs(i * 1000L), Value.text("v" + i)))));
    }
    run(
        table,
        puts[0],
        puts[1],
        puts[2],
        new Mutate(
            new DeleteSpec(
                "r1",
                Ts.LATEST,
                List.of(
                    new MarkerSpec(
                        MarkerSpec.MarkerKind.COLUMN, new Col("f1", "q"), Ts.abs(3000))))),
        puts[3],
        puts[4],
        get("r1"),
        new GetStep("r1", before3000, false),
        new Flush(),
        get("r1"),
        new GetStep("r1", before3000, false),
        new Compact(true),
        get("r1"),
        new GetStep("r1", before3000, false));
  }

  private static Step putWithTtl(String family, Ts ts, String value, long ttl) {
    return new Mutate(
        new PutSpec("r1", List.of(new PutCell(new Col(family, "a"), ts, Value.text(value))), ttl));
  }

  /**
   * SEMANTICS.md sections 3 and 7, per-cell TTL, deterministic history: v2 (a 2 ms TTL) pushes v1
   * out, then a "latest version" delete removes v2; the major compaction drops both and the marker.
   * An early design, in which an expired cell counted as never written, had compactions treat cells
   * with a TTL as pushing nothing out, so v1 survived the compaction and showed once the marker was
   * gone (expected nothing, actual v1). A cell keeps its place now, expired or not.
   */
  @Example
  void whatADeletedCellWithATtlPushedOutStaysGoneAfterACompaction() {
    TableSpec table =
        new TableSpec(
            List.of(
                new FamilySpec("f1", 1, 0, 0, KeepDeletedCells.FALSE, true),
                new FamilySpec("f2", 1, 0, 0, KeepDeletedCells.FALSE, true)));
    run(
        table,
        putWithTtl("f1", Ts.LATEST, "v1", dev.basalt.cell.KeyValue.NO_TTL),
        new Tick(1),
        putWithTtl("f1", Ts.LATEST, "v2", 2),
        new Mutate(
            new DeleteSpec(
                "r1",
                Ts.LATEST,
                List.of(new MarkerSpec(MarkerSpec.MarkerKind.COLUMN, new Col("f1", "a"), null)))),
        new Flush(),
        new Compact(true),
        get("r1"),
        new Tick(10),
        get("r1"));
  }

  /**
   * SEMANTICS.md section 5 rule 5 and section 7 (classic): an expired cell keeps its place among
   * VERSIONS, so a later put with an older timestamp stays hidden, and the major compaction keeps
   * the expired cell (it holds the place). Found with the model dropping expired cells in its
   * compaction (expected the put at 999, actual nothing): the model was wrong.
   */
  @Example
  void anExpiredCellKeepsItsPlaceThroughAMajorCompaction() {
    run(
        classic(),
        putWithTtl("f1", Ts.LATEST, "brief", 1),
        new Flush(),
        new Tick(1500),
        putWithTtl("f1", Ts.abs(999), "older", dev.basalt.cell.KeyValue.NO_TTL),
        get("r1"),
        new Compact(true),
        get("r1"),
        rawScan());
  }
}
