package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.region.RegionModelHarness.PartialFlagCheck;
import dev.basalt.region.RegionModelSteps.Col;
import dev.basalt.region.RegionModelSteps.Compact;
import dev.basalt.region.RegionModelSteps.DeleteSpec;
import dev.basalt.region.RegionModelSteps.FamilySpec;
import dev.basalt.region.RegionModelSteps.Flush;
import dev.basalt.region.RegionModelSteps.MarkerSpec;
import dev.basalt.region.RegionModelSteps.Mutate;
import dev.basalt.region.RegionModelSteps.OpenScanStep;
import dev.basalt.region.RegionModelSteps.PutCell;
import dev.basalt.region.RegionModelSteps.PutSpec;
import dev.basalt.region.RegionModelSteps.RangeSpec;
import dev.basalt.region.RegionModelSteps.ReadSpec;
import dev.basalt.region.RegionModelSteps.ScanStep;
import dev.basalt.region.RegionModelSteps.Step;
import dev.basalt.region.RegionModelSteps.TableSpec;
import dev.basalt.region.RegionModelSteps.Tick;
import dev.basalt.region.RegionModelSteps.Ts;
import dev.basalt.region.RegionModelSteps.Value;
import dev.basalt.schema.KeepDeletedCells;
import java.util.List;
import net.jqwik.api.Example;

/**
 * The shrunk counterexamples of {@link RegionModelMultiRegionPropertyTest}, kept as fixed scripts
 * (expected outcomes are the model's, never recorded engine output).
 */
class RegionModelMultiRegionRegressionTest {

  private static void run(TableSpec table, byte[][] splits, Step... steps) {
    new RegionModelHarness(table, PartialFlagCheck.STRICT, RegionModelHarness.database(2, splits))
        .run(List.of(steps));
  }

  private static final ReadSpec ALL_VERSIONS = new ReadSpec(List.of(), null, List.of(), 0, -1, 0);

  /**
   * An open scan judges TTLs at the clock reading of when it opened, also in the regions it reaches
   * later: the row r1 lives in the second region (split at r0), which the table scanner opened only
   * after the clock moved past the cell's TTL. Expected {@code r1/f2:@1000=v1}, actual nothing,
   * until the table scanner's pins carried the clock reading of its opening.
   */
  @Example
  void anOpenScanJudgesTtlsAsOfItsOpeningInRegionsItReachesLater() {
    TableSpec table =
        new TableSpec(
            List.of(
                new FamilySpec("f1", 1, 0, 0, KeepDeletedCells.FALSE, true),
                new FamilySpec("f2", 1, 0, 1, KeepDeletedCells.FALSE, true)));
    run(
        table,
        new byte[][] {Bytes.toBytes("r0")},
        new Mutate(
            new PutSpec(
                "r1", List.of(new PutCell(new Col("f2", ""), Ts.LATEST, Value.text("v1"))))),
        new OpenScanStep(
            new ScanStep(
                new RangeSpec("", true, "", false, null), ALL_VERSIONS, false, false, -1, -1),
            0,
            List.of(new Tick(1500))));
  }

  /**
   * An open scan reads every region as it was when the scan opened, whatever compactions do before
   * the scan gets there: a major compaction of a classic family drops delete markers (SEMANTICS.md
   * section 7), and the raw scan opened before it must still return r12's marker, which lives in
   * the second region (split at r11). Expected {@code r12/f1:a@1000/DELETE}, actual nothing, while
   * the table scanner pinned only its regions' read points, not their store files.
   */
  @Example
  void anOpenScanReadsLaterRegionsAsTheyWereBeforeACompaction() {
    TableSpec table =
        new TableSpec(
            List.of(
                new FamilySpec("f1", 1, 0, 0, KeepDeletedCells.FALSE, false),
                new FamilySpec("f2", 1, 0, 0, KeepDeletedCells.FALSE, false)));
    run(
        table,
        new byte[][] {Bytes.toBytes("r11")},
        new Mutate(
            new DeleteSpec(
                "r12",
                Ts.LATEST,
                List.of(
                    new MarkerSpec(MarkerSpec.MarkerKind.COLUMN, new Col("f1", "a"), Ts.LATEST)))),
        new Flush(),
        new OpenScanStep(
            new ScanStep(
                new RangeSpec("", true, "", false, null), ALL_VERSIONS, false, true, -1, -1),
            0,
            List.of(new Compact(true))));
  }

  /**
   * A table scan's pins hold store files, not read points: a major compaction while the scan is
   * open still drops what classic rules drop (here the version beyond VERSIONS=1), as it does while
   * any region scanner is open (SEMANTICS.md section 7). Expected {@code r1/f1:@999=v1} from the
   * raw scan after it, actual both versions, while the pins also registered their read points with
   * the compaction horizon.
   */
  @Example
  void anOpenScanDoesNotHoldBackWhatCompactionsDrop() {
    TableSpec table =
        new TableSpec(
            List.of(
                new FamilySpec("f1", 1, 0, 0, KeepDeletedCells.FALSE, false),
                new FamilySpec("f2", 1, 0, 0, KeepDeletedCells.FALSE, false)));
    Step put =
        new Mutate(
            new PutSpec(
                "r1",
                List.of(
                    new PutCell(new Col("f1", ""), Ts.abs(998), Value.text("v1")),
                    new PutCell(new Col("f1", ""), Ts.abs(999), Value.text("v1")))));
    ScanStep all =
        new ScanStep(new RangeSpec("", true, "", false, null), ALL_VERSIONS, false, false, -1, -1);
    run(
        table,
        new byte[0][],
        new OpenScanStep(all, 0, List.of(put, new Flush(), new Compact(true))),
        new ScanStep(new RangeSpec("", true, "", false, null), ALL_VERSIONS, false, true, -1, -1));
  }
}
