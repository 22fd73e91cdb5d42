package dev.basalt.region;

import dev.basalt.cell.KeyValue;
import dev.basalt.filter.CompareOperator;
import dev.basalt.region.RegionModelSteps.AppendCell;
import dev.basalt.region.RegionModelSteps.AppendSpec;
import dev.basalt.region.RegionModelSteps.Batch;
import dev.basalt.region.RegionModelSteps.CheckAndMutateSpec;
import dev.basalt.region.RegionModelSteps.Col;
import dev.basalt.region.RegionModelSteps.Compact;
import dev.basalt.region.RegionModelSteps.DeleteSpec;
import dev.basalt.region.RegionModelSteps.FamilySpec;
import dev.basalt.region.RegionModelSteps.FamilyTr;
import dev.basalt.region.RegionModelSteps.Flush;
import dev.basalt.region.RegionModelSteps.GetStep;
import dev.basalt.region.RegionModelSteps.IncCell;
import dev.basalt.region.RegionModelSteps.IncrementSpec;
import dev.basalt.region.RegionModelSteps.MarkerSpec;
import dev.basalt.region.RegionModelSteps.Mutate;
import dev.basalt.region.RegionModelSteps.MutationSpec;
import dev.basalt.region.RegionModelSteps.OpenScanStep;
import dev.basalt.region.RegionModelSteps.PutCell;
import dev.basalt.region.RegionModelSteps.PutSpec;
import dev.basalt.region.RegionModelSteps.RangeSpec;
import dev.basalt.region.RegionModelSteps.ReadSpec;
import dev.basalt.region.RegionModelSteps.Restart;
import dev.basalt.region.RegionModelSteps.RowMutationsSpec;
import dev.basalt.region.RegionModelSteps.ScanStep;
import dev.basalt.region.RegionModelSteps.Step;
import dev.basalt.region.RegionModelSteps.TableSpec;
import dev.basalt.region.RegionModelSteps.Tick;
import dev.basalt.region.RegionModelSteps.Tr;
import dev.basalt.region.RegionModelSteps.Ts;
import dev.basalt.region.RegionModelSteps.Value;
import dev.basalt.schema.KeepDeletedCells;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generators of random histories over deliberately small domains, so that collisions happen: four
 * rows (two sharing the prefix "r1"), two families (and, rarely, an unknown one), three qualifiers
 * including the empty one, a handful of values (strings, the empty value, 8-byte counters),
 * explicit timestamps around the clock's start (absolute, or relative to the clock so they keep
 * colliding with server timestamps after the clock moved), and clock steps that either stay within
 * a few milliseconds or jump past short TTLs.
 */
final class RegionModelArbitraries {
  /**
   * Whether one Put may carry two cells of the same column whose timestamps can be equal once
   * resolved (the same explicit timestamp, or server time and a clock-relative one, ...). When
   * false, two cells of one column in one Put are both absolute or both clock-relative, with
   * different values, so they are always different versions.
   */
  private final boolean repeatVersionsInOnePut;

  /**
   * Whether histories also flush, compact and restart (storage-backed properties only): those steps
   * are inserted at random points, and flushes and compactions also run while a scanner is open.
   */
  private final boolean storageSteps;

  RegionModelArbitraries(boolean repeatVersionsInOnePut) {
    this(repeatVersionsInOnePut, false);
  }

  RegionModelArbitraries(boolean repeatVersionsInOnePut, boolean storageSteps) {
    this.repeatVersionsInOnePut = repeatVersionsInOnePut;
    this.storageSteps = storageSteps;
  }

  // ---- tables -----------------------------------------------------------------------------

  /** Two families with random settings; {@code newVersionBehavior} decides their semantics. */
  static Arbitrary<TableSpec> tables(Arbitrary<Boolean> newVersionBehavior) {
    return Combinators.combine(family("f1", newVersionBehavior), family("f2", newVersionBehavior))
        .as((a, b) -> new TableSpec(List.of(a, b)))
        .withoutEdgeCases();
  }

  static Arbitrary<FamilySpec> family(String name, Arbitrary<Boolean> newVersionBehavior) {
    Arbitrary<Integer> ttl =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(0)),
            Tuple.of(1, Arbitraries.just(1)),
            Tuple.of(1, Arbitraries.just(2)));
    return Arbitraries.integers()
        .between(1, 3)
        .flatMap(
            versions ->
                Combinators.combine(
                        Arbitraries.integers().between(0, versions),
                        ttl,
                        Arbitraries.of(KeepDeletedCells.class),
                        newVersionBehavior)
                    .as((min, t, kdc, nvb) -> new FamilySpec(name, versions, min, t, kdc, nvb)));
  }

  // ---- building blocks --------------------------------------------------------------------

  static Arbitrary<String> rows() {
    return Arbitraries.of(RegionModelHarness.ROWS);
  }

  static Arbitrary<String> families() {
    return Arbitraries.frequencyOf(
        Tuple.of(40, Arbitraries.just("f1")),
        Tuple.of(40, Arbitraries.just("f2")),
        Tuple.of(1, Arbitraries.just("fx")));
  }

  static Arbitrary<String> qualifiers() {
    return Arbitraries.of("", "a", "b");
  }

  static Arbitrary<Col> columns() {
    return Combinators.combine(families(), qualifiers()).as(Col::new);
  }

  static Arbitrary<Value> values() {
    return Arbitraries.of(
        Value.text("v1"),
        Value.text("v2"),
        Value.text("v3"),
        Value.EMPTY,
        Value.counter(1),
        Value.counter(7));
  }

  /** Explicit timestamps: absolute near the clock's start, or relative to the clock. */
  static Arbitrary<Ts> explicitTs() {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.of(998L, 999L, 1000L, 1001L, 1003L).map(Ts::abs)),
        Tuple.of(1, Arbitraries.of(-2L, -1L, 0L, 1L).map(Ts::rel)));
  }

  static Arbitrary<Ts> putTs() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.just(Ts.LATEST)), Tuple.of(6, explicitTs()));
  }

  static Arbitrary<Tr> timeRanges() {
    Arbitrary<Ts> min =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just(Ts.abs(0))), Tuple.of(4, explicitTs()));
    Arbitrary<Ts> max =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just(Ts.LATEST)), Tuple.of(4, explicitTs()));
    return Arbitraries.frequencyOf(
        Tuple.of(3, Combinators.combine(min, max).as((a, b) -> new Tr(a, b, false))),
        Tuple.of(1, explicitTs().map(t -> new Tr(t, t, true))));
  }

  // ---- mutations --------------------------------------------------------------------------

  Arbitrary<PutSpec> puts(Arbitrary<String> row) {
    Arbitrary<PutCell> cell = Combinators.combine(columns(), putTs(), values()).as(PutCell::new);
    Arbitrary<List<PutCell>> some = cell.list().ofMinSize(1).ofMaxSize(3);
    if (!repeatVersionsInOnePut) {
      some = some.filter(RegionModelArbitraries::versionsCannotRepeat);
    }
    Arbitrary<List<PutCell>> cells =
        Arbitraries.frequencyOf(
            Tuple.of(40, some), Tuple.of(1, Arbitraries.just(List.<PutCell>of())));
    return Combinators.combine(row, cells, ttls()).as(PutSpec::new);
  }

  /**
   * Per-cell TTLs of puts, increments and appends: mostly none, else a few milliseconds to a few
   * seconds (the clock's ticks make them run out in the middle of histories), zero and negative
   * ones (expired as soon as written), and one that overflows HBase's {@code ts + ttl}.
   */
  static Arbitrary<Long> ttls() {
    return Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.just(KeyValue.NO_TTL)),
        Tuple.of(
            3, Arbitraries.of(1L, 2L, 700L, 1000L, 1500L, 3000L, 0L, -1L, Long.MAX_VALUE - 1)));
  }

  /** True when no two cells of one column can resolve to the same timestamp. */
  static boolean versionsCannotRepeat(List<PutCell> cells) {
    for (int i = 0; i < cells.size(); i++) {
      for (int j = i + 1; j < cells.size(); j++) {
        PutCell a = cells.get(i);
        PutCell b = cells.get(j);
        if (!a.col().equals(b.col())) {
          continue;
        }
        boolean bothAbsolute = a.ts().kind() == Ts.Kind.ABS && b.ts().kind() == Ts.Kind.ABS;
        boolean bothRelative = a.ts().kind() == Ts.Kind.REL && b.ts().kind() == Ts.Kind.REL;
        if (!(bothAbsolute || bothRelative) || a.ts().value() == b.ts().value()) {
          return false;
        }
      }
    }
    return true;
  }

  Arbitrary<DeleteSpec> deletes(Arbitrary<String> row) {
    Arbitrary<MarkerSpec> marker =
        Combinators.combine(
                Arbitraries.of(MarkerSpec.MarkerKind.class),
                columns(),
                Arbitraries.frequencyOf(
                        Tuple.of(1, Arbitraries.just(Ts.LATEST)), Tuple.of(2, explicitTs()))
                    .injectNull(0.4))
            .as(MarkerSpec::new);
    Arbitrary<Ts> deleteTs =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(Ts.LATEST)), Tuple.of(1, explicitTs()));
    // Several "latest version" deletes of one column in one Delete take the newest versions in
    // turn (SEMANTICS.md section 2); random markers rarely line up like that.
    Arbitrary<List<MarkerSpec>> latestVersions =
        Combinators.combine(columns(), Arbitraries.integers().between(2, 3))
            .as(
                (col, n) ->
                    java.util.Collections.nCopies(
                        n, new MarkerSpec(MarkerSpec.MarkerKind.COLUMN, col, null)));
    Arbitrary<List<MarkerSpec>> markers =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.just(List.<MarkerSpec>of())),
            Tuple.of(10, marker.list().ofMinSize(1).ofMaxSize(3)),
            Tuple.of(2, latestVersions));
    return Combinators.combine(row, deleteTs, markers).as(DeleteSpec::new);
  }

  Arbitrary<IncrementSpec> increments(Arbitrary<String> row) {
    Arbitrary<IncCell> cell =
        Combinators.combine(columns(), Arbitraries.of(1L, 2L, -3L, Long.MAX_VALUE))
            .as(IncCell::new);
    return Combinators.combine(
            row,
            cell.list().ofMinSize(1).ofMaxSize(2),
            timeRanges().injectNull(0.75),
            Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(true)), Tuple.of(1, Arbitraries.just(false))),
            ttls())
        .as(IncrementSpec::new);
  }

  Arbitrary<AppendSpec> appends(Arbitrary<String> row) {
    // Distinct columns: SEMANTICS.md does not say what two deltas of one column in one Append do.
    Arbitrary<AppendCell> cell = Combinators.combine(columns(), values()).as(AppendCell::new);
    return Combinators.combine(
            row,
            cell.list().ofMinSize(1).ofMaxSize(2).uniqueElements(AppendCell::col),
            timeRanges().injectNull(0.75),
            Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(true)), Tuple.of(1, Arbitraries.just(false))),
            ttls())
        .as(AppendSpec::new);
  }

  Arbitrary<RowMutationsSpec> rowMutations(Arbitrary<String> row) {
    return row.flatMap(
        r -> {
          Arbitrary<MutationSpec> part =
              Arbitraries.oneOf(puts(Arbitraries.just(r)), deletes(Arbitraries.just(r)));
          return part.list().ofMinSize(1).ofMaxSize(3).map(ps -> new RowMutationsSpec(r, ps));
        });
  }

  Arbitrary<CheckAndMutateSpec> checkAndMutates(Arbitrary<String> row) {
    return row.flatMap(
        r -> {
          Arbitrary<String> same = Arbitraries.just(r);
          Arbitrary<MutationSpec> action =
              Arbitraries.frequencyOf(
                  Tuple.of(4, puts(same)),
                  Tuple.of(2, deletes(same)),
                  Tuple.of(1, increments(same)),
                  Tuple.of(1, appends(same)),
                  Tuple.of(1, rowMutations(same)));
          Arbitrary<Value> given =
              Arbitraries.frequencyOf(
                      Tuple.of(1, Arbitraries.just(Value.EMPTY)), Tuple.of(4, values()))
                  .injectNull(0.25);
          Arbitrary<CheckAndMutateSpec> anyAction =
              Combinators.combine(
                      columns(),
                      Arbitraries.of(CompareOperator.class),
                      given,
                      timeRanges().injectNull(0.75),
                      action)
                  .as((col, op, g, tr, a) -> new CheckAndMutateSpec(r, col, op, g, tr, a));
          // Compare-and-set: check a column, then put a new value (often at server time) into it.
          Arbitrary<CheckAndMutateSpec> compareAndSet =
              Combinators.combine(
                      columns(),
                      Arbitraries.of(CompareOperator.class),
                      given,
                      timeRanges().injectNull(0.75),
                      putTs(),
                      values())
                  .as(
                      (col, op, g, tr, ts, v) ->
                          new CheckAndMutateSpec(
                              r, col, op, g, tr, new PutSpec(r, List.of(new PutCell(col, ts, v)))));
          return Arbitraries.frequencyOf(Tuple.of(2, anyAction), Tuple.of(1, compareAndSet));
        });
  }

  Arbitrary<MutationSpec> mutations() {
    Arbitrary<String> row = rows();
    return Arbitraries.frequencyOf(
        Tuple.of(10, puts(row)),
        Tuple.of(5, deletes(row)),
        Tuple.of(2, increments(row)),
        Tuple.of(2, appends(row)),
        Tuple.of(3, checkAndMutates(row)),
        Tuple.of(2, rowMutations(row)));
  }

  // ---- reads ------------------------------------------------------------------------------

  static Arbitrary<ReadSpec> reads() {
    Arbitrary<Col> readColumn =
        Combinators.combine(families(), qualifiers().injectNull(0.3)).as(Col::new);
    Arbitrary<List<Col>> cols =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(List.<Col>of())),
            Tuple.of(2, readColumn.list().ofMinSize(1).ofMaxSize(3)));
    Arbitrary<List<FamilyTr>> familyTrs =
        Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.just(List.<FamilyTr>of())),
            Tuple.of(
                1,
                Combinators.combine(families(), timeRanges()).as(FamilyTr::new).list().ofSize(1)));
    Arbitrary<Integer> versions =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just(1)),
            Tuple.of(2, Arbitraries.just(2)),
            Tuple.of(1, Arbitraries.just(3)),
            Tuple.of(3, Arbitraries.just(0)));
    Arbitrary<Integer> storeLimit =
        Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.just(-1)), Tuple.of(2, Arbitraries.of(0, 1, 2)));
    Arbitrary<Integer> storeOffset =
        Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.just(0)), Tuple.of(2, Arbitraries.of(1, 2)));
    return Combinators.combine(
            cols, timeRanges().injectNull(0.6), familyTrs, versions, storeLimit, storeOffset)
        .as(ReadSpec::new);
  }

  static Arbitrary<RangeSpec> ranges() {
    Arbitrary<String> bound = Arbitraries.of("", "r0", "r1", "r12", "r15", "r2", "r3", "r4");
    Arbitrary<Boolean> bool = Arbitraries.of(true, false);
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just(new RangeSpec("", true, "", false, null))),
        Tuple.of(
            4,
            Combinators.combine(bound, bool, bound, bool)
                .as((a, ai, b, bi) -> new RangeSpec(a, ai, b, bi, null))),
        Tuple.of(
            1, Arbitraries.of("r1", "r2", "r").map(p -> new RangeSpec("", true, "", false, p))));
  }

  static Arbitrary<GetStep> gets() {
    return Combinators.combine(
            rows(),
            reads(),
            Arbitraries.frequencyOf(
                Tuple.of(9, Arbitraries.just(false)), Tuple.of(1, Arbitraries.just(true))))
        .as(GetStep::new);
  }

  Arbitrary<ScanStep> scans() {
    Arbitrary<Integer> batch =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(-1)), Tuple.of(2, Arbitraries.of(1, 2, 3)));
    return Combinators.combine(
            ranges(),
            reads(),
            Arbitraries.frequencyOf(
                Tuple.of(7, Arbitraries.just(false)), Tuple.of(3, Arbitraries.just(true))),
            Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.just(false)), Tuple.of(2, Arbitraries.just(true))),
            batch,
            Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(-1)), Tuple.of(1, Arbitraries.of(1, 2))))
        .as(ScanStep::new);
  }

  Arbitrary<OpenScanStep> openScans() {
    Arbitrary<Step> between =
        storageSteps
            ? Arbitraries.frequencyOf(
                Tuple.of(8, mutations().map(Mutate::new)),
                Tuple.of(2, ticks()),
                Tuple.of(2, Arbitraries.just(new Flush())),
                Tuple.of(1, Arbitraries.of(new Compact(false), new Compact(true))))
            : Arbitraries.frequencyOf(
                Tuple.of(4, mutations().map(Mutate::new)), Tuple.of(1, ticks()));
    return Combinators.combine(
            scans(), Arbitraries.integers().between(0, 2), between.list().ofMinSize(1).ofMaxSize(3))
        .as(OpenScanStep::new);
  }

  // ---- histories --------------------------------------------------------------------------

  static Arbitrary<Tick> ticks() {
    return Arbitraries.frequencyOf(
            Tuple.of(5, Arbitraries.just(1L)),
            Tuple.of(2, Arbitraries.just(2L)),
            Tuple.of(1, Arbitraries.just(700L)),
            Tuple.of(2, Arbitraries.just(1000L)),
            Tuple.of(2, Arbitraries.just(1500L)),
            Tuple.of(1, Arbitraries.just(2600L)))
        .map(Tick::new);
  }

  Arbitrary<Step> steps() {
    if (storageSteps) {
      return Arbitraries.frequencyOf(
          Tuple.of(45, mutations().map(Mutate::new)),
          Tuple.of(3, mutations().list().ofMinSize(2).ofMaxSize(3).map(Batch::new)),
          Tuple.of(15, gets()),
          Tuple.of(12, scans()),
          Tuple.of(3, openScans()),
          Tuple.of(8, ticks()),
          Tuple.of(10, Arbitraries.just(new Flush())),
          Tuple.of(3, Arbitraries.just(new Compact(false))),
          Tuple.of(4, Arbitraries.just(new Compact(true))),
          Tuple.of(3, Arbitraries.of(new Restart(true), new Restart(false))));
    }
    return Arbitraries.frequencyOf(
        Tuple.of(45, mutations().map(Mutate::new)),
        Tuple.of(3, mutations().list().ofMinSize(2).ofMaxSize(3).map(Batch::new)),
        Tuple.of(15, gets()),
        Tuple.of(12, scans()),
        Tuple.of(3, openScans()),
        Tuple.of(8, ticks()));
  }

  Arbitrary<List<Step>> histories() {
    // No edge cases: jqwik would inject the rare alternatives (the unknown family, empty time
    // ranges, one-step histories) far more often than their weights say.
    return steps().list().ofMinSize(1).ofMaxSize(50).withoutEdgeCases();
  }
}
