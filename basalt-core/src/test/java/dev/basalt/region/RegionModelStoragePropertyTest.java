package dev.basalt.region;

import dev.basalt.region.RegionModelHarness.PartialFlagCheck;
import dev.basalt.region.RegionModelHarness.RawComparison;
import dev.basalt.region.RegionModelSteps.Compact;
import dev.basalt.region.RegionModelSteps.Flush;
import dev.basalt.region.RegionModelSteps.OpenScanStep;
import dev.basalt.region.RegionModelSteps.Restart;
import dev.basalt.region.RegionModelSteps.Step;
import dev.basalt.region.RegionModelSteps.TableSpec;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.statistics.Statistics;

/**
 * Model-based tests of the durable engine (../shared/ARCHITECTURE.md section 8): the histories of
 * {@link RegionModelPropertyTest}, run against a table of a {@link dev.basalt.db.Database} in a
 * fresh temporary directory ({@link RegionModelDatabaseTarget}), with flushes, minor and major
 * compactions and restarts (flushing on close, or replaying the WAL on open) inserted at random
 * points, and flushes and compactions also while a scanner is open. Every flush is followed by the
 * minor compaction it asks for in the background, when the selection finds work; {@code
 * hbase.hstore.compaction.min} is 2 in most histories and 3 or 4 in some.
 *
 * <p>What the model expects (docs/SEMANTICS.md section 7): in deterministic families no flush,
 * compaction or restart changes any read but a raw scan; in classic families only a major
 * compaction changes what is stored, and the model applies it to the cells in store files at the
 * moment of the step. Raw scans are compared Result by Result until the first compaction, and after
 * it without the cells of deterministic families (see {@link RegionModelHarness#rawComparison}).
 *
 * <p>Shrinking is not bounded in time (histories on storage are slow to re-run, and a failure is
 * only worth reading once shrunk).
 *
 * <p>{@code -Dbasalt.model.storage.tries=N} (or else {@code -Dbasalt.model.tries=N}) runs N
 * histories per property instead of the default.
 */
@AddLifecycleHook(RegionModelStorageTries.class)
class RegionModelStoragePropertyTest {

  /** Deterministic history (NEW_VERSION_BEHAVIOR=true) in both families. */
  @Property(tries = 500)
  void deterministicHistoriesOnStorageMatchTheModel(
      @ForAll("deterministicTables") TableSpec table,
      @ForAll("histories") List<Step> steps,
      @ForAll("compactionMinFiles") int minFiles) {
    run(table, steps, minFiles);
  }

  /** Classic HBase rules (NEW_VERSION_BEHAVIOR=false) in both families. */
  @Property(tries = 500)
  void classicHistoriesOnStorageMatchTheModel(
      @ForAll("classicTables") TableSpec table,
      @ForAll("histories") List<Step> steps,
      @ForAll("compactionMinFiles") int minFiles) {
    run(table, steps, minFiles);
  }

  /** Families of either semantics side by side in one table. */
  @Property(tries = 500)
  void mixedSemanticsHistoriesOnStorageMatchTheModel(
      @ForAll("mixedTables") TableSpec table,
      @ForAll("histories") List<Step> steps,
      @ForAll("compactionMinFiles") int minFiles) {
    run(table, steps, minFiles);
  }

  static void run(TableSpec table, List<Step> steps, int minFiles) {
    RegionModelHarness h =
        new RegionModelHarness(
            table, PartialFlagCheck.ROW_CONCATENATION, RegionModelHarness.database(minFiles));
    h.run(steps);
    Statistics.label("storage steps").collect(storageSteps(steps));
    Statistics.label("storage effects")
        .collect(h.storageEvents().isEmpty() ? "none" : h.storageEvents().keySet().toString());
    for (Map.Entry<RawComparison, Integer> e : h.rawScans().entrySet()) {
      for (int i = 0; i < e.getValue(); i++) {
        Statistics.label("raw scans compared").collect(e.getKey());
      }
    }
  }

  /** Which kinds of storage step a history has, e.g. "flush major restart". */
  private static String storageSteps(List<Step> steps) {
    TreeSet<String> kinds = new TreeSet<>();
    collect(steps, kinds);
    return kinds.isEmpty() ? "none" : String.join(" ", kinds);
  }

  private static void collect(List<Step> steps, TreeSet<String> kinds) {
    for (Step s : steps) {
      if (s instanceof Flush) {
        kinds.add("flush");
      } else if (s instanceof Compact) {
        kinds.add(((Compact) s).major() ? "major" : "minor");
      } else if (s instanceof Restart) {
        kinds.add("restart");
      } else if (s instanceof OpenScanStep) {
        collect(((OpenScanStep) s).between(), kinds);
      }
    }
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

  /**
   * {@code hbase.hstore.compaction.min}: mostly 2, so that the minor compaction every flush asks
   * for usually finds work; sometimes more, so that files pile up and reads merge several.
   */
  @Provide
  Arbitrary<Integer> compactionMinFiles() {
    return Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(2)),
            Tuple.of(1, Arbitraries.just(3)),
            Tuple.of(1, Arbitraries.just(4)))
        .withoutEdgeCases();
  }

  @Provide
  Arbitrary<List<Step>> histories() {
    return new RegionModelArbitraries(false, true).histories();
  }
}
