package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.region.RegionModelHarness.PartialFlagCheck;
import dev.basalt.region.RegionModelSteps.Col;
import dev.basalt.region.RegionModelSteps.Compact;
import dev.basalt.region.RegionModelSteps.DeleteSpec;
import dev.basalt.region.RegionModelSteps.FamilySpec;
import dev.basalt.region.RegionModelSteps.Flush;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.statistics.Statistics;

/**
 * The storage-backed model histories ({@link RegionModelStoragePropertyTest}) against a table
 * created with random split keys, so that its rows live in two to six regions: every outcome must
 * still be the single-region model's. Gets and writes are routed to the region of their row;
 * batches are split by region; scans (forward and reversed, with inclusive or exclusive bounds,
 * limits, batches and filters) cross region boundaries, and a scanner left open while other steps
 * run (writes, flushes, compactions) sees the table as it was when it opened, in every region.
 *
 * <p>Histories also split and merge regions at random points (between steps, never while a scanner
 * is open), so that rows move between regions whose files are references to their parents',
 * rewritten by compactions.
 *
 * <p>Split keys are drawn from keys equal to the histories' rows ({@code r1 r12 r2 r3}: a boundary
 * exactly at a row) and keys between and around them (a boundary between rows, or outside them so
 * that a region holds no row).
 *
 * <p>{@code -Dbasalt.model.storage.tries=N} (or {@code -Dbasalt.model.tries=N}) runs N histories.
 */
@AddLifecycleHook(RegionModelStorageTries.class)
class RegionModelMultiRegionPropertyTest {
  private static final List<String> SPLIT_CANDIDATES =
      List.of("r0", "r1", "r11", "r12", "r13", "r2", "r25", "r3", "r4");

  @Property(tries = 300)
  void multiRegionHistoriesMatchTheSingleRegionModel(
      @ForAll("tables") TableSpec table,
      @ForAll("histories") List<Step> steps,
      @ForAll("splitKeys") Set<String> splits,
      @ForAll("compactionMinFiles") int minFiles) {
    byte[][] keys = new byte[splits.size()][];
    int i = 0;
    for (String s : splits) {
      keys[i++] = Bytes.toBytes(s);
    }
    RegionModelHarness h =
        new RegionModelHarness(
            table, PartialFlagCheck.ROW_CONCATENATION, RegionModelHarness.database(minFiles, keys));
    h.run(steps);
    Statistics.label("regions").collect(keys.length + 1);
  }

  /**
   * A scan opened before a cell's TTL ran out reaches the cell's region only afterwards: it must
   * still see the cell, judging TTLs by the time the scan started in every region. The region
   * scanner used to take the time when the scan reached its region. Expected {@code
   * r1/f1:@1000=v1}, actual nothing.
   */
  @Example
  void aTableScanJudgesTtlsByTheTimeItStartedInEveryRegion() {
    TableSpec table =
        new TableSpec(
            List.of(
                new FamilySpec("f1", 1, 0, 1, KeepDeletedCells.FALSE, true),
                new FamilySpec("f2", 1, 0, 0, KeepDeletedCells.FALSE, true)));
    ScanStep scanAll =
        new ScanStep(
            new RangeSpec("", true, "", false, null),
            new ReadSpec(List.of(), null, List.of(), 0, -1, 0),
            false,
            false,
            -1,
            -1);
    new RegionModelHarness(
            table,
            PartialFlagCheck.ROW_CONCATENATION,
            RegionModelHarness.database(2, new byte[][] {Bytes.toBytes("r0")}))
        .run(
            List.of(
                new Mutate(
                    new PutSpec(
                        "r1",
                        List.of(new PutCell(new Col("f1", ""), Ts.abs(1000), Value.text("v1"))))),
                new OpenScanStep(scanAll, 0, List.of(new Tick(1500)))));
  }

  /**
   * A raw scan left open over a major compaction reaches the region of {@code r3} only after the
   * compaction dropped that row's markers (dead under deterministic history). The scan reads the
   * region as it pinned it when it opened, so it still shows them. (Found when table scans pinned
   * only read points: the markers were gone.)
   */
  @Example
  void aRawScanReachingARegionAfterAMajorCompactionSeesItsFiles() {
    TableSpec table =
        new TableSpec(
            List.of(
                new FamilySpec("f1", 1, 0, 0, KeepDeletedCells.FALSE, true),
                new FamilySpec("f2", 1, 0, 0, KeepDeletedCells.FALSE, true)));
    ReadSpec all = new ReadSpec(List.of(), null, List.of(), 0, -1, 0);
    RangeSpec everything = new RangeSpec("", true, "", false, null);
    new RegionModelHarness(
            table,
            PartialFlagCheck.ROW_CONCATENATION,
            RegionModelHarness.database(2, new byte[][] {Bytes.toBytes("r0")}))
        .run(
            List.of(
                new Mutate(new DeleteSpec("r3", Ts.LATEST, List.of())),
                new Flush(),
                new OpenScanStep(
                    new ScanStep(everything, all, false, true, -1, -1),
                    0,
                    List.of(new Compact(true)))));
  }

  @Provide
  Arbitrary<TableSpec> tables() {
    return RegionModelArbitraries.tables(Arbitraries.of(true, false));
  }

  @Provide
  Arbitrary<Set<String>> splitKeys() {
    return Arbitraries.of(SPLIT_CANDIDATES).set().ofMinSize(1).ofMaxSize(5);
  }

  @Provide
  Arbitrary<Integer> compactionMinFiles() {
    return Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(2)), Tuple.of(1, Arbitraries.just(3)))
        .withoutEdgeCases();
  }

  /**
   * The storage histories with splits and merges inserted at the top level (never while a scanner
   * is open: a scanner reads a region replaced under it as of when it gets there).
   */
  @Provide
  Arbitrary<List<Step>> histories() {
    Arbitrary<Step> regionStep =
        Arbitraries.oneOf(
            Arbitraries.of(SPLIT_CANDIDATES).map(RegionModelSteps.SplitStep::new),
            Arbitraries.integers().between(0, 5).map(RegionModelSteps.MergeStep::new));
    return Combinators.combine(
            new RegionModelArbitraries(false, true).histories(),
            Combinators.combine(Arbitraries.integers().between(0, 50), regionStep)
                .as(Tuple::of)
                .list()
                .ofMaxSize(8))
        .as(
            (steps, inserts) -> {
              List<Step> out = new ArrayList<>(steps);
              for (Tuple.Tuple2<Integer, Step> ins : inserts) {
                out.add(Math.min(ins.get1(), out.size()), ins.get2());
              }
              return out;
            })
        .withoutEdgeCases();
  }
}
