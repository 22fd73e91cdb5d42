package dev.basalt.region;

import dev.basalt.region.RegionModelHarness.PartialFlagCheck;
import dev.basalt.region.RegionModelSteps.Step;
import dev.basalt.region.RegionModelSteps.TableSpec;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Model-based tests of {@link Region} (ARCHITECTURE.md section 8): random histories of writes,
 * reads and clock moves run against a fresh in-memory region and the naive reference model ({@link
 * dev.basalt.region.model.ModelRegion}, docs/SEMANTICS.md); every write outcome and every read must
 * agree, Result by Result.
 *
 * <p>The broad properties (one per semantics, and one mixing both in one table) generate everything
 * except two shapes that each have their own property, so that a known failure of one shape does
 * not hide failures elsewhere:
 *
 * <ul>
 *   <li>a Put carrying two cells of the same column and timestamp ({@link
 *       #putsRepeatingAVersionMatchTheModel});
 *   <li>scans with a batch size ({@link #batchedScansMatchTheModel}, {@link
 *       #batchedScansFlagAllButTheLastSliceOfARow}).
 * </ul>
 *
 * <p>Batched scans are compared twice: once row by row (the concatenation of a row's slices must
 * equal the model's row, every slice but the row's last must be full and flagged partial), and once
 * strictly, including the partial flag of a row's last slice, which SEMANTICS.md section 3 says is
 * not set. HBase itself only promises that the flag "may" mean more cells, so the strict property
 * is kept separate.
 *
 * <p>{@code -Dbasalt.model.tries=N} runs N histories per property instead of the default.
 */
@AddLifecycleHook(RegionModelTries.class)
class RegionModelPropertyTest {

  /** Deterministic history (NEW_VERSION_BEHAVIOR=true, section 4) in both families. */
  @Property(tries = 5000)
  void deterministicHistoriesMatchTheModel(
      @ForAll("deterministicTables") TableSpec table, @ForAll("histories") List<Step> steps) {
    new RegionModelHarness(table, PartialFlagCheck.STRICT).run(steps);
  }

  /** Classic HBase rules (NEW_VERSION_BEHAVIOR=false, section 5) in both families. */
  @Property(tries = 5000)
  void classicHistoriesMatchTheModel(
      @ForAll("classicTables") TableSpec table, @ForAll("histories") List<Step> steps) {
    new RegionModelHarness(table, PartialFlagCheck.STRICT).run(steps);
  }

  /** Families of either semantics side by side in one table. */
  @Property(tries = 2000)
  void mixedSemanticsHistoriesMatchTheModel(
      @ForAll("mixedTables") TableSpec table, @ForAll("histories") List<Step> steps) {
    new RegionModelHarness(table, PartialFlagCheck.STRICT).run(steps);
  }

  /**
   * One Put writing two cells of the same column and timestamp: the one added last wins
   * (SEMANTICS.md section 2).
   */
  @Property(tries = 1000)
  void putsRepeatingAVersionMatchTheModel(
      @ForAll("mixedTables") TableSpec table,
      @ForAll("historiesRepeatingVersions") List<Step> steps) {
    new RegionModelHarness(table, PartialFlagCheck.STRICT).run(steps);
  }

  /** Scans with a batch size: every row's cells, in order, split into full partial slices. */
  @Property(tries = 1000)
  void batchedScansMatchTheModel(
      @ForAll("mixedTables") TableSpec table, @ForAll("historiesWithBatches") List<Step> steps) {
    new RegionModelHarness(table, PartialFlagCheck.ROW_CONCATENATION).run(steps);
  }

  /**
   * Scans with a batch size, compared strictly: every Result of a row but the last is flagged
   * {@code mayHaveMoreCellsInRow()}, and the last is not (SEMANTICS.md section 3).
   */
  @Property(tries = 1000)
  void batchedScansFlagAllButTheLastSliceOfARow(
      @ForAll("mixedTables") TableSpec table, @ForAll("historiesWithBatches") List<Step> steps) {
    new RegionModelHarness(table, PartialFlagCheck.STRICT).run(steps);
  }

  @Provide
  Arbitrary<TableSpec> deterministicTables() {
    return RegionModelArbitraries.tables(Arbitraries.just(true));
  }

  @Provide
  Arbitrary<TableSpec> classicTables() {
    return RegionModelArbitraries.tables(Arbitraries.just(false));
  }

  @Provide
  Arbitrary<TableSpec> mixedTables() {
    return RegionModelArbitraries.tables(Arbitraries.of(true, false));
  }

  @Provide
  Arbitrary<List<Step>> histories() {
    return new RegionModelArbitraries(false, false).histories();
  }

  @Provide
  Arbitrary<List<Step>> historiesRepeatingVersions() {
    return new RegionModelArbitraries(true, false).histories();
  }

  @Provide
  Arbitrary<List<Step>> historiesWithBatches() {
    return new RegionModelArbitraries(false, true).histories();
  }
}
