package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionModelSteps.Batch;
import dev.basalt.region.RegionModelSteps.Col;
import dev.basalt.region.RegionModelSteps.Compact;
import dev.basalt.region.RegionModelSteps.FamilySpec;
import dev.basalt.region.RegionModelSteps.Flush;
import dev.basalt.region.RegionModelSteps.GetStep;
import dev.basalt.region.RegionModelSteps.Mutate;
import dev.basalt.region.RegionModelSteps.MutationSpec;
import dev.basalt.region.RegionModelSteps.OpenScanStep;
import dev.basalt.region.RegionModelSteps.RangeSpec;
import dev.basalt.region.RegionModelSteps.ReadSpec;
import dev.basalt.region.RegionModelSteps.Restart;
import dev.basalt.region.RegionModelSteps.ScanStep;
import dev.basalt.region.RegionModelSteps.Step;
import dev.basalt.region.RegionModelSteps.TableSpec;
import dev.basalt.region.RegionModelSteps.Tick;
import dev.basalt.region.model.ModelException;
import dev.basalt.region.model.ModelRegion;
import dev.basalt.region.model.ModelStatus;
import dev.basalt.region.model.StoredCell;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs a history against a fresh engine ({@link RegionModelTarget}: an in-memory {@link Region}, or
 * a table of a database on storage) and the {@link ModelRegion} side by side (same clock, same
 * operation objects) and compares every outcome: write results and errors, and every read, Result
 * by Result. On the first difference it fails with the script so far, the clock, the expected
 * (model) and actual (engine) outcome, and the stored history of the rows involved.
 *
 * <p>Storage steps (flush, minor and major compaction, restart) go to the engine; the model only
 * notes flushes and restarts (they decide which cells a major compaction rewrites) and applies
 * major compactions to its classic families (SEMANTICS.md section 7). A failed storage step fails
 * the history.
 */
final class RegionModelHarness {

  /** How strictly scan results are compared. */
  enum PartialFlagCheck {
    /** Every Result, including {@code mayHaveMoreCellsInRow()}, must equal the model's. */
    STRICT,
    /**
     * Per row, the concatenated cells must equal the model's; every Result but a row's last must
     * hold exactly {@code batch} cells and be flagged partial; the flag of a row's last Result is
     * not compared (see the class comment of RegionModelPropertyTest).
     */
    ROW_CONCATENATION
  }

  static final String[] ROWS = {"r1", "r12", "r2", "r3"};

  /** Makes the engine of one history; {@code steps} is the whole history, for look-ahead. */
  interface TargetFactory {
    RegionModelTarget open(TableDescriptor table, ManualClock clock, List<Step> steps)
        throws IOException;
  }

  /** A fresh in-memory region per history. */
  static final TargetFactory IN_MEMORY =
      (table, clock, steps) -> RegionModelTarget.inMemory(table, clock);

  /**
   * A fresh database in a temporary directory per history (RegionModelDatabaseTarget), whose minor
   * compactions take at least {@code minFiles} files ({@code hbase.hstore.compaction.min}).
   */
  static TargetFactory database(int minFiles) {
    return (table, clock, steps) -> RegionModelDatabaseTarget.open(table, clock, steps, minFiles);
  }

  /**
   * As {@link #database(int)}, with the table split into regions at {@code splitKeys}: the results
   * must still be those of the single-region model.
   */
  static TargetFactory database(int minFiles, byte[][] splitKeys) {
    return (table, clock, steps) ->
        RegionModelDatabaseTarget.open(table, clock, steps, minFiles, splitKeys);
  }

  /** A database whose minor compactions take two files or more. */
  static final TargetFactory DATABASE = database(2);

  /** How a raw scan is compared (see {@link #rawComparison}). */
  enum RawComparison {
    /** Result by Result, like any other scan. */
    FULL,
    /** Only the cells of classic families, as one list (deterministic families were compacted). */
    CLASSIC_FAMILIES_ONLY,
    /** Not at all (it reads compacted deterministic families and counts rows with a limit). */
    SKIPPED
  }

  private final TableSpec tableSpec;
  private final ManualClock clock = new ManualClock(RegionModelSteps.CLOCK_START);
  private final TargetFactory factory;
  private RegionModelTarget engine;
  private final ModelRegion model;
  private final PartialFlagCheck partialCheck;
  private final List<String> script = new ArrayList<>();
  private final EnumMap<RawComparison, Integer> rawScans = new EnumMap<>(RawComparison.class);
  private final Map<String, Integer> events = new TreeMap<>();
  private int openScanners;

  /** The model's read point of every scanner open now (major compactions keep what they see). */
  private final List<Long> openReadPoints = new ArrayList<>();

  RegionModelHarness(TableSpec tableSpec, PartialFlagCheck partialCheck) {
    this(tableSpec, partialCheck, IN_MEMORY);
  }

  RegionModelHarness(TableSpec tableSpec, PartialFlagCheck partialCheck, TargetFactory factory) {
    this.tableSpec = tableSpec;
    this.partialCheck = partialCheck;
    this.factory = factory;
    this.model = new ModelRegion(tableSpec.build(), clock);
  }

  /** Runs every step, then reads everything back once more. */
  void run(List<Step> steps) {
    try {
      engine = factory.open(tableSpec.build(), clock, steps);
    } catch (IOException e) {
      throw new UncheckedIOException("could not open the engine", e);
    }
    Throwable failure = null;
    try {
      for (Step s : steps) {
        step(s);
      }
      finalCheck();
    } catch (RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      try {
        engine.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          throw e;
        }
        failure.addSuppressed(e);
      }
    }
  }

  /** How many raw scans were compared in each way (for the storage properties' statistics). */
  Map<RawComparison, Integer> rawScans() {
    return rawScans;
  }

  /** How often storage steps had an effect, by kind (for the storage properties' statistics). */
  Map<String, Integer> storageEvents() {
    return events;
  }

  void step(Step s) {
    long now = clock.currentTimeMillis();
    script.add(String.format("%3d  [now=%d] %s", script.size() + 1, now, s));
    if (s instanceof Tick) {
      clock.advance(((Tick) s).millis());
    } else if (s instanceof Mutate) {
      mutate(((Mutate) s).mutation(), now);
    } else if (s instanceof Batch) {
      batch(((Batch) s).mutations(), now);
    } else if (s instanceof GetStep) {
      get((GetStep) s, now);
    } else if (s instanceof ScanStep) {
      scan((ScanStep) s, now);
    } else if (s instanceof OpenScanStep) {
      openScan((OpenScanStep) s, now);
    } else if (s instanceof Flush) {
      int archived = engine.archivedFiles();
      storage(s, () -> engine.flush());
      model.flushed();
      if (engine.archivedFiles() > archived) {
        events.merge("flush, then a background minor compaction", 1, Integer::sum);
      }
    } else if (s instanceof Compact) {
      boolean major = ((Compact) s).major();
      int archived = engine.archivedFiles();
      storage(s, () -> engine.compact(major));
      if (engine.archivedFiles() > archived) {
        events.merge((major ? "major" : "minor") + " compaction rewrote files", 1, Integer::sum);
      }
      long horizon = openReadPoints.isEmpty() ? Long.MAX_VALUE : Collections.min(openReadPoints);
      if (major && model.majorCompact(horizon) > 0) {
        events.merge("major compaction dropped cells of the model", 1, Integer::sum);
      }
    } else if (s instanceof RegionModelSteps.SplitStep) {
      if (openScanners > 0) {
        throw new IllegalArgumentException("a split while a scanner is open: " + s);
      }
      storage(s, () -> engine.split(((RegionModelSteps.SplitStep) s).row()));
      model.flushed();
    } else if (s instanceof RegionModelSteps.MergeStep) {
      if (openScanners > 0) {
        throw new IllegalArgumentException("a merge while a scanner is open: " + s);
      }
      storage(s, () -> engine.merge(((RegionModelSteps.MergeStep) s).index()));
      model.flushed();
    } else if (s instanceof Restart) {
      if (openScanners > 0) {
        throw new IllegalArgumentException("a restart while a scanner is open: " + s);
      }
      storage(s, () -> engine.restart(((Restart) s).flushOnClose()));
      model.flushed();
    } else {
      throw new IllegalArgumentException("unknown step " + s);
    }
  }

  /** After the history: every version of everything, read back by a scan and by raw scan. */
  private void finalCheck() {
    ReadSpec all = new ReadSpec(List.of(), null, List.of(), 0, -1, 0);
    RangeSpec everything = new RangeSpec("", true, "", false, null);
    step(new ScanStep(everything, all, false, false, -1, -1));
    step(new ScanStep(everything, all, false, true, -1, -1));
    for (String row : ROWS) {
      step(new GetStep(row, all, false));
    }
  }

  // ---- storage ----------------------------------------------------------------------------

  private interface StorageCall {
    void call() throws IOException;
  }

  /** A flush, compaction or restart must simply work. */
  private void storage(Step s, StorageCall c) {
    try {
      c.call();
    } catch (IOException | RuntimeException e) {
      fail(s + " failed", "success", stackTrace(e), Arrays.asList(ROWS));
    }
  }

  // ---- writes -----------------------------------------------------------------------------

  /** An outcome on either side: a value, or an error. */
  private record Outcome(Object value, Exception error) {
    boolean ok() {
      return error == null;
    }
  }

  private interface EngineCall {
    Object call() throws IOException;
  }

  private interface ModelCall {
    Object call() throws ModelException;
  }

  private static Outcome engine(EngineCall c) {
    try {
      return new Outcome(c.call(), null);
    } catch (IOException | RuntimeException e) {
      return new Outcome(null, e);
    }
  }

  private static Outcome model(ModelCall c) {
    try {
      return new Outcome(c.call(), null);
    } catch (ModelException e) {
      return new Outcome(null, e);
    }
  }

  private void mutate(MutationSpec spec, long now) {
    Row op = spec.build(now);
    Outcome expected;
    Outcome actual;
    if (op instanceof Put) {
      Put p = (Put) op;
      expected =
          model(
              () -> {
                model.put(p);
                return Result.EMPTY;
              });
      actual =
          engine(
              () -> {
                engine.put(p);
                return Result.EMPTY;
              });
    } else if (op instanceof Delete) {
      Delete d = (Delete) op;
      expected =
          model(
              () -> {
                model.delete(d);
                return Result.EMPTY;
              });
      actual =
          engine(
              () -> {
                engine.delete(d);
                return Result.EMPTY;
              });
    } else if (op instanceof Increment) {
      Increment inc = (Increment) op;
      expected = model(() -> model.increment(inc));
      actual = engine(() -> engine.increment(inc));
    } else if (op instanceof Append) {
      Append app = (Append) op;
      expected = model(() -> model.append(app));
      actual = engine(() -> engine.append(app));
    } else if (op instanceof RowMutations) {
      RowMutations rm = (RowMutations) op;
      expected =
          model(
              () -> {
                model.mutateRow(rm);
                return Result.EMPTY;
              });
      actual =
          engine(
              () -> {
                engine.mutateRow(rm);
                return Result.EMPTY;
              });
    } else {
      CheckAndMutate cam = (CheckAndMutate) op;
      expected = model(() -> model.checkAndMutate(cam));
      actual = engine(() -> engine.checkAndMutate(cam));
    }
    compareOutcome(expected, actual, List.of(spec.row()), "");
  }

  private void batch(List<MutationSpec> specs, long now) {
    List<Row> ops = new ArrayList<>();
    List<String> rows = new ArrayList<>();
    for (MutationSpec s : specs) {
      ops.add(s.build(now));
      rows.add(s.row());
    }
    List<ModelStatus> expected = model.batchMutate(ops);
    List<OperationStatus> actual;
    try {
      actual = engine.batchMutate(ops);
    } catch (IOException | RuntimeException e) {
      fail("batchMutate threw " + e, "" + expected, stackTrace(e), rows);
      return;
    }
    if (actual.size() != expected.size()) {
      fail("batch status count", "" + expected.size(), "" + actual.size(), rows);
    }
    for (int i = 0; i < expected.size(); i++) {
      ModelStatus e = expected.get(i);
      OperationStatus a = actual.get(i);
      Outcome eo =
          e.isSuccess()
              ? new Outcome(
                  e.checkAndMutateResult() != null ? e.checkAndMutateResult() : e.result(), null)
              : new Outcome(null, e.error());
      Outcome ao =
          a.isSuccess()
              ? new Outcome(
                  a.getCheckAndMutateResult() != null ? a.getCheckAndMutateResult() : a.getResult(),
                  null)
              : new Outcome(null, a.getException());
      compareOutcome(eo, ao, rows, " (batch operation " + (i + 1) + ")");
    }
  }

  private void compareOutcome(Outcome expected, Outcome actual, List<String> rows, String what) {
    if (!expected.ok()) {
      ModelException me = (ModelException) expected.error();
      if (actual.ok()) {
        fail("expected an error" + what, me.getMessage(), "success: " + show(actual.value()), rows);
      }
      if (!errorMatches(me, actual.error())) {
        fail("wrong error" + what, me.getMessage(), stackTrace(actual.error()), rows);
      }
      return;
    }
    if (!actual.ok()) {
      fail("unexpected error" + what, show(expected.value()), stackTrace(actual.error()), rows);
    }
    if (!sameValue(expected.value(), actual.value())) {
      fail("different result" + what, show(expected.value()), show(actual.value()), rows);
    }
  }

  private static boolean errorMatches(ModelException expected, Exception actual) {
    switch (expected.kind()) {
      case NO_SUCH_FAMILY:
        return actual instanceof NoSuchColumnFamilyException;
      case EMPTY_MUTATION:
        return actual instanceof InvalidMutationException;
      case NOT_A_COUNTER:
        // "not a long", naming its width
        return actual instanceof InvalidMutationException
            && actual.getMessage() != null
            && actual.getMessage().contains(expected.width() + " byte");
      default:
        return false;
    }
  }

  private static boolean sameValue(Object expected, Object actual) {
    if (expected instanceof CheckAndMutateResult && actual instanceof CheckAndMutateResult) {
      CheckAndMutateResult e = (CheckAndMutateResult) expected;
      CheckAndMutateResult a = (CheckAndMutateResult) actual;
      return e.isSuccess() == a.isSuccess() && Objects.equals(e.getResult(), a.getResult());
    }
    return Objects.equals(expected, actual);
  }

  // ---- reads ------------------------------------------------------------------------------

  private void get(GetStep s, long now) {
    Get g = s.build(now);
    Outcome expected = model(() -> model.get(g));
    Outcome actual = engine(() -> engine.get(g));
    compareOutcome(expected, actual, List.of(s.row()), "");
  }

  private void scan(ScanStep s, long now) {
    Scan forEngine = s.build(now, false);
    Scan forModel = s.build(now, true);
    RawComparison raw = rawComparison(s);
    Outcome expected = model(() -> model.scan(forModel));
    Outcome actual =
        engine(
            () -> {
              List<Result> out = new ArrayList<>();
              try (RegionModelTarget.Scanner scanner = engine.getScanner(forEngine)) {
                drain(scanner, out, Integer.MAX_VALUE);
              }
              return out;
            });
    compareScan(s, raw, expected, actual);
  }

  /** Opens the scanner, reads a little, runs the steps in between, then reads the rest. */
  private void openScan(OpenScanStep s, long now) {
    Scan forEngine = s.scan().build(now, false);
    Scan forModel = s.scan().build(now, true);
    RawComparison raw = rawComparison(s.scan()); // decided when the scanner opens
    Outcome expected = model(() -> model.scan(forModel)); // the state when the scanner opens
    RegionModelTarget.Scanner scanner;
    try {
      scanner = engine.getScanner(forEngine);
    } catch (IOException | RuntimeException e) {
      compareScan(s.scan(), raw, expected, new Outcome(null, e));
      return;
    }
    List<Result> out = new ArrayList<>();
    Outcome actual;
    openScanners++;
    Long readPoint = model.lastSeq();
    if (engine.keepsWhatOpenScannersSee()) {
      openReadPoints.add(readPoint);
    }
    try (scanner) {
      if (!drain(scanner, out, s.readFirst())) {
        openReadPoints.remove(readPoint); // exhausted: it closed and let go of its read point
      }
      for (Step between : s.between()) {
        step(between);
      }
      drain(scanner, out, Integer.MAX_VALUE);
      actual = new Outcome(out, null);
    } catch (IOException | RuntimeException e) {
      actual = new Outcome(null, e);
    } finally {
      openScanners--;
      openReadPoints.remove(readPoint);
    }
    script.add("     ... the open scan ends");
    compareScan(s.scan(), raw, expected, actual);
  }

  /**
   * Raw scans show storage (SEMANTICS.md sections 6 and 7). The model stores exactly what the
   * engine must store as long as no compaction ran, and in classic families also after compactions
   * (flushes and minor compactions keep everything there, and the model applies major compactions).
   * In deterministic families a compaction may drop dead cells the model keeps, so once one ran,
   * raw scans are compared without those families' cells, or not at all when they limit the rows
   * (whether a row counts then depends on those cells). Decided when the scanner opens, when no
   * other scanner is open, so that {@link RegionModelTarget#compactedSoFar} is exact.
   */
  private RawComparison rawComparison(ScanStep s) {
    RawComparison how = rawComparisonOf(s);
    if (s.raw()) {
      rawScans.merge(how, 1, Integer::sum);
    }
    return how;
  }

  private RawComparison rawComparisonOf(ScanStep s) {
    return rawComparisonOf(s, openScanners == 0 && engine.compactedSoFar());
  }

  private RawComparison rawComparisonOf(ScanStep s, boolean compacted) {
    if (!s.raw() || !compacted) {
      return RawComparison.FULL;
    }
    Set<String> read = new HashSet<>();
    for (Col c : s.read().columns()) {
      read.add(c.family());
    }
    boolean readsDeterministic = false;
    boolean readsClassic = false;
    for (FamilySpec f : tableSpec.families()) {
      if (read.isEmpty() || read.contains(f.name())) {
        readsDeterministic |= f.newVersionBehavior();
        readsClassic |= !f.newVersionBehavior();
      }
    }
    if (!readsDeterministic) {
      return RawComparison.FULL;
    }
    return readsClassic && s.limit() <= 0
        ? RawComparison.CLASSIC_FAMILIES_ONLY
        : RawComparison.SKIPPED;
  }

  /** Reads up to {@code max} results; false when the scanner ended before. */
  private static boolean drain(RegionModelTarget.Scanner scanner, List<Result> out, int max)
      throws IOException {
    for (int n = 0; n < max; n++) {
      Result r = scanner.next();
      if (r == null) {
        return false;
      }
      out.add(r);
      if (out.size() > 10_000) {
        throw new IllegalStateException("scanner does not end: " + out.subList(0, 5));
      }
    }
    return true;
  }

  private void compareScan(ScanStep s, RawComparison raw, Outcome expected, Outcome actual) {
    List<String> rows = Arrays.asList(ROWS);
    if (!expected.ok() || !actual.ok()) {
      compareOutcome(expected, actual, rows, "");
      return;
    }
    @SuppressWarnings("unchecked")
    List<Result> e = (List<Result>) expected.value();
    @SuppressWarnings("unchecked")
    List<Result> a = (List<Result>) actual.value();
    if (raw == RawComparison.SKIPPED) {
      return;
    }
    if (raw == RawComparison.CLASSIC_FAMILIES_ONLY) {
      List<Cell> ec = classicCells(e);
      List<Cell> ac = classicCells(a);
      if (!ec.equals(ac)) {
        fail(
            "different raw scan results (cells of classic families only: a compaction ran)",
            show(ec),
            show(ac),
            rows);
      }
      return;
    }
    if (partialCheck == PartialFlagCheck.STRICT || s.batch() <= 0) {
      if (!e.equals(a)) {
        fail("different scan results", show(e), show(a), rows);
      }
      return;
    }
    // Row by row: the concatenated cells, and the shape of the slices.
    List<List<Result>> eRows = byRow(e);
    List<List<Result>> aRows = byRow(a);
    boolean same = eRows.size() == aRows.size();
    for (int i = 0; same && i < eRows.size(); i++) {
      same = cellsOf(eRows.get(i)).equals(cellsOf(aRows.get(i)));
    }
    if (!same) {
      fail("different scan results (rows compared as concatenated slices)", show(e), show(a), rows);
    }
    for (List<Result> slices : aRows) {
      for (int i = 0; i < slices.size(); i++) {
        Result r = slices.get(i);
        boolean last = i == slices.size() - 1;
        if (r.isEmpty()
            || r.size() > s.batch()
            || (!last && (r.size() != s.batch() || !r.mayHaveMoreCellsInRow()))) {
          fail("badly sliced scan results (batch=" + s.batch() + ")", show(e), show(a), rows);
        }
      }
    }
  }

  /** The cells of classic families (NEW_VERSION_BEHAVIOR=false), in scan order. */
  private List<Cell> classicCells(List<Result> results) {
    Set<String> classic = new HashSet<>();
    for (FamilySpec f : tableSpec.families()) {
      if (!f.newVersionBehavior()) {
        classic.add(f.name());
      }
    }
    List<Cell> out = new ArrayList<>();
    for (Result r : results) {
      for (Cell c : r.cells()) {
        if (classic.contains(Bytes.toString(CellUtil.cloneFamily(c)))) {
          out.add(c);
        }
      }
    }
    return out;
  }

  /** Groups consecutive results of the same row. */
  private static List<List<Result>> byRow(List<Result> results) {
    List<List<Result>> out = new ArrayList<>();
    byte[] current = null;
    for (Result r : results) {
      byte[] row = r.getRow();
      if (current == null || row == null || !Bytes.equals(current, row)) {
        out.add(new ArrayList<>());
        current = row;
      }
      out.get(out.size() - 1).add(r);
    }
    return out;
  }

  private static List<Cell> cellsOf(List<Result> slices) {
    List<Cell> out = new ArrayList<>();
    for (Result r : slices) {
      out.addAll(r.cells());
    }
    return out;
  }

  // ---- reporting --------------------------------------------------------------------------

  private void fail(String what, String expected, String actual, List<String> rows) {
    StringBuilder sb = new StringBuilder();
    sb.append(what).append(" at step ").append(script.size()).append('\n');
    sb.append("table: ").append(tableSpec).append('\n');
    sb.append("engine: ").append(engine).append('\n');
    sb.append("script:\n");
    for (String line : script) {
      sb.append("  ").append(line).append('\n');
    }
    sb.append("expected (model, SEMANTICS.md): ").append(expected).append('\n');
    sb.append("actual (engine):                ").append(actual).append('\n');
    sb.append("stored history (model):\n");
    for (String row : rows) {
      List<StoredCell> h = model.history(Bytes.toBytes(row));
      if (!h.isEmpty()) {
        sb.append("  ").append(row).append(":\n");
        for (StoredCell c : h) {
          sb.append("    ").append(showCell(c.cell())).append(" seq=").append(c.seq()).append('\n');
        }
      }
    }
    throw new AssertionError(sb.toString());
  }

  private static String stackTrace(Throwable t) {
    StringBuilder sb = new StringBuilder(t.toString());
    StackTraceElement[] st = t.getStackTrace();
    for (int i = 0; i < Math.min(st.length, 12); i++) {
      sb.append("\n      at ").append(st[i]);
    }
    return sb.toString();
  }

  static String show(Object v) {
    if (v instanceof Result) {
      return show((Result) v);
    }
    if (v instanceof Cell) {
      return showCell((Cell) v);
    }
    if (v instanceof CheckAndMutateResult) {
      CheckAndMutateResult c = (CheckAndMutateResult) v;
      return "{success=" + c.isSuccess() + ", " + show(c.getResult()) + "}";
    }
    if (v instanceof List) {
      List<String> parts = new ArrayList<>();
      for (Object o : (List<?>) v) {
        parts.add(show(o));
      }
      return parts.isEmpty() ? "(no results)" : "\n    " + String.join("\n    ", parts);
    }
    return String.valueOf(v);
  }

  static String show(Result r) {
    StringBuilder sb = new StringBuilder("{");
    if (r.getExists() != null) {
      sb.append("exists=").append(r.getExists());
    }
    boolean first = r.getExists() == null;
    for (Cell c : r.cells()) {
      sb.append(first ? "" : ", ").append(showCell(c));
      first = false;
    }
    if (r.mayHaveMoreCellsInRow()) {
      sb.append(" +partial");
    }
    return sb.append('}').toString();
  }

  static String showCell(Cell c) {
    StringBuilder sb =
        new StringBuilder()
            .append(Bytes.toStringBinary(CellUtil.cloneRow(c)))
            .append('/')
            .append(Bytes.toStringBinary(CellUtil.cloneFamily(c)))
            .append(':')
            .append(Bytes.toStringBinary(CellUtil.cloneQualifier(c)))
            .append('@')
            .append(c.getTimestamp())
            .append('/')
            .append(c.getType());
    if (!c.isDelete()) {
      sb.append('=').append(showValue(CellUtil.cloneValue(c)));
    }
    return sb.toString();
  }

  static String showValue(byte[] v) {
    if (v.length == 0) {
      return "''";
    }
    if (v.length == 8 && (v[0] == 0 || v[0] == (byte) 0xff)) {
      return "#" + Bytes.toLong(v);
    }
    return Bytes.toStringBinary(v);
  }
}
