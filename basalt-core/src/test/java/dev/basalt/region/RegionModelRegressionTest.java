package dev.basalt.region;

import dev.basalt.region.RegionModelHarness.PartialFlagCheck;
import dev.basalt.region.RegionModelSteps.Col;
import dev.basalt.region.RegionModelSteps.DeleteSpec;
import dev.basalt.region.RegionModelSteps.FamilySpec;
import dev.basalt.region.RegionModelSteps.GetStep;
import dev.basalt.region.RegionModelSteps.Mutate;
import dev.basalt.region.RegionModelSteps.PutCell;
import dev.basalt.region.RegionModelSteps.PutSpec;
import dev.basalt.region.RegionModelSteps.RangeSpec;
import dev.basalt.region.RegionModelSteps.ReadSpec;
import dev.basalt.region.RegionModelSteps.ScanStep;
import dev.basalt.region.RegionModelSteps.Step;
import dev.basalt.region.RegionModelSteps.TableSpec;
import dev.basalt.region.RegionModelSteps.Ts;
import dev.basalt.region.RegionModelSteps.Value;
import dev.basalt.schema.KeepDeletedCells;
import java.util.List;
import net.jqwik.api.Example;

/**
 * The shrunk counterexamples the model properties found, kept as fixed scripts. Each runs through
 * the same harness as the properties, so the expected outcome is the model's (SEMANTICS.md), never
 * a recorded engine output.
 */
class RegionModelRegressionTest {

  private static TableSpec table(boolean newVersionBehavior) {
    return new TableSpec(
        List.of(
            new FamilySpec("f1", 1, 0, 0, KeepDeletedCells.FALSE, newVersionBehavior),
            new FamilySpec("f2", 1, 0, 0, KeepDeletedCells.FALSE, newVersionBehavior)));
  }

  private static PutCell cell(String family, String qualifier, String value) {
    return new PutCell(new Col(family, qualifier), Ts.LATEST, Value.text(value));
  }

  private static Step put(String row, PutCell... cells) {
    return new Mutate(new PutSpec(row, List.of(cells)));
  }

  private static final ReadSpec LATEST = new ReadSpec(List.of(), null, List.of(), 1, -1, 0);

  private static ScanStep scanAll(int batch, boolean raw) {
    return new ScanStep(new RangeSpec("", true, "", false, null), LATEST, false, raw, batch, -1);
  }

  private static void run(boolean newVersionBehavior, PartialFlagCheck check, Step... steps) {
    new RegionModelHarness(table(newVersionBehavior), check).run(List.of(steps));
  }

  /**
   * SEMANTICS.md section 2: "Within one Put, two cells with the same column and timestamp: the one
   * added last wins." {@code put r1 f1:=v1 f1:=v2} then {@code get r1} must return v2.
   */
  @Example
  void putWithTwoCellsOfOneVersionKeepsTheLastAdded() {
    run(
        true,
        PartialFlagCheck.STRICT,
        put("r1", cell("f1", "", "v1"), cell("f1", "", "v2")),
        new GetStep("r1", LATEST, false));
  }

  @Example
  void putWithTwoCellsOfOneVersionKeepsTheLastAddedClassic() {
    run(
        false,
        PartialFlagCheck.STRICT,
        put("r1", cell("f1", "a", "v1"), cell("f1", "a", "v2")),
        new GetStep("r1", LATEST, false));
  }

  /**
   * SEMANTICS.md section 3 ("batch splits a row's cells into results of at most batch cells"): when
   * the batch fills up on the last cell a family has in a row, the next row must still come whole
   * and in cell order. {@code put r1 f1:=v1; put r12 f1:=v1 f2:=v1; scan batch=1} must return r1,
   * then r12 f1, then r12 f2.
   */
  @Example
  void batchFilledAtTheEndOfAFamilyKeepsTheNextRowInOrder() {
    run(
        true,
        PartialFlagCheck.ROW_CONCATENATION,
        put("r1", cell("f1", "", "v1")),
        put("r12", cell("f1", "", "v1"), cell("f2", "", "v1")),
        scanAll(1, false));
  }

  @Example
  void batchFilledAtTheEndOfAFamilyKeepsTheNextRowInOrderClassic() {
    run(
        false,
        PartialFlagCheck.ROW_CONCATENATION,
        put("r1", cell("f1", "", "v1"), cell("f2", "", "v1")),
        put("r12", cell("f1", "", "v1"), cell("f2", "", "v1")),
        scanAll(2, false));
  }

  /**
   * SEMANTICS.md section 3: all slices of a row but the last are flagged partial, the last is not.
   * {@code put r1 f1:=v1; scan batch=1} returns one Result, which must not be flagged.
   */
  @Example
  void lastSliceOfARowIsNotFlaggedPartial() {
    run(true, PartialFlagCheck.STRICT, put("r1", cell("f1", "", "v1")), scanAll(1, false));
  }

  @Example
  void lastSliceOfARawRowIsNotFlaggedPartial() {
    run(
        true,
        PartialFlagCheck.STRICT,
        new Mutate(new DeleteSpec("r1", Ts.LATEST, List.of())),
        scanAll(1, true));
  }
}
