package dev.basalt.region.model;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.CompareOperator;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Put;
import dev.basalt.ops.Query;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.ops.TimeRange;
import dev.basalt.region.model.VersionRules.ReadRules;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.util.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The reference model of a region: a deliberately naive implementation of docs/SEMANTICS.md. It
 * records every committed cell (puts and delete markers, with the sequence id of the mutation that
 * wrote them) and answers every read by applying the rules of SEMANTICS.md to that whole history
 * from scratch ({@link VersionRules}). It shares no code with the engine's scanner stack, memstore
 * or region internals; it only uses the value classes (cells, operations, descriptors).
 *
 * <p>It takes the same operation objects as {@code dev.basalt.region.Region} and mirrors its
 * methods. Filters (and the filter form of check-and-mutate) are out of its scope. Time comes from
 * the clock given at construction, read once per operation, as the engine does.
 *
 * <p>Sequence ids: every row mutation gets the next id (a RowMutations one per part); failed
 * operations use none. The engine may skip ids for failed operations, so callers must compare
 * visible results only; {@link KeyValue#equals} ignores sequence ids.
 *
 * <p>Not thread-safe.
 */
public final class ModelRegion {
  private final TableDescriptor table;
  private final Clock clock;

  /** Row to every cell ever committed in it, in commit order. */
  private final NavigableMap<byte[], List<StoredCell>> rows = new TreeMap<>(Bytes.COMPARATOR);

  private long lastSeq;
  private long lastOrder;

  /**
   * The highest sequence id whose cells are in store files: a flush (or a restart, which leaves
   * nothing in memory) writes every committed cell; a compaction rewrites only those.
   */
  private long flushedSeq;

  public ModelRegion(TableDescriptor table, Clock clock) {
    this.table = table;
    this.clock = clock;
  }

  /** Every committed cell of the row, in commit order (for debugging output). */
  public List<StoredCell> history(byte[] row) {
    return Collections.unmodifiableList(rows.getOrDefault(row, List.of()));
  }

  // ---- storage ----------------------------------------------------------------------------

  /**
   * Records a flush of every committed cell (Database.flush, or a restart, after which nothing is
   * left in memory). No read changes (SEMANTICS.md section 7); it only decides which cells a later
   * major compaction rewrites.
   */
  public void flushed() {
    flushedSeq = lastSeq;
  }

  /**
   * A major compaction at the clock's now (SEMANTICS.md section 7): in every classic family
   * (NEW_VERSION_BEHAVIOR=false) the cells in store files (committed before the last flush) are
   * rewritten by {@link VersionRules#classicMajorCompaction}; cells still in memory take no part.
   * Deterministic families keep everything: the engine may drop what is dead there, but no read
   * other than a raw scan can tell, and the harness does not compare those raw scans once a
   * compaction ran.
   *
   * @return how many cells were dropped
   */
  public int majorCompact() {
    return majorCompact(Long.MAX_VALUE);
  }

  /**
   * A major compaction while a reader at read point {@code horizon} is open: cells written after it
   * are kept and take no part (that reader may still open the output and must find what it could
   * see; HBase's compactions do the same).
   */
  public int majorCompact(long horizon) {
    long now = clock.currentTimeMillis();
    int dropped = 0;
    for (Map.Entry<byte[], List<StoredCell>> e : rows.entrySet()) {
      List<StoredCell> history = e.getValue();
      Set<StoredCell> drop = Collections.newSetFromMap(new IdentityHashMap<>());
      for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
        if (f.isNewVersionBehavior()) {
          continue;
        }
        List<StoredCell> inFiles = new ArrayList<>();
        for (StoredCell c : history) {
          if (c.inFamily(f.getName()) && c.seq() <= flushedSeq && c.seq() <= horizon) {
            inFiles.add(c);
          }
        }
        Set<StoredCell> kept = VersionRules.classicMajorCompaction(inFiles, f, now);
        for (StoredCell c : inFiles) {
          if (!kept.contains(c)) {
            drop.add(c);
          }
        }
      }
      history.removeIf(drop::contains);
      dropped += drop.size();
    }
    rows.values().removeIf(List::isEmpty);
    return dropped;
  }

  /** The sequence id of the last write: the read point of a reader opened now. */
  public long lastSeq() {
    return lastSeq;
  }

  // ---- writes -----------------------------------------------------------------------------

  public void put(Put put) throws ModelException {
    single(put);
  }

  public void delete(Delete delete) throws ModelException {
    single(delete);
  }

  public Result increment(Increment increment) throws ModelException {
    return single(increment).result();
  }

  public Result append(Append append) throws ModelException {
    return single(append).result();
  }

  public void mutateRow(RowMutations mutations) throws ModelException {
    single(mutations);
  }

  public CheckAndMutateResult checkAndMutate(CheckAndMutate cam) throws ModelException {
    return single(cam).checkAndMutateResult();
  }

  /**
   * Applies the operations one after the other, each with its own sequence id(s); a failing one
   * does not stop the others. Later operations see earlier ones (also of the same row).
   */
  public List<ModelStatus> batchMutate(List<? extends Row> ops) {
    List<ModelStatus> out = new ArrayList<>();
    for (Row op : ops) {
      try {
        out.add(apply(op));
      } catch (ModelException e) {
        out.add(ModelStatus.failure(e));
      }
    }
    return out;
  }

  private ModelStatus single(Row op) throws ModelException {
    return apply(op);
  }

  private ModelStatus apply(Row op) throws ModelException {
    validate(op);
    long now = clock.currentTimeMillis();
    if (op instanceof CheckAndMutate) {
      return ModelStatus.success(checkAndMutate((CheckAndMutate) op, now));
    }
    return ModelStatus.success(applyAction(op, now, 0));
  }

  private void validate(Row op) throws ModelException {
    validate(op, true);
  }

  /**
   * @param families whether the families must exist: a check-and-mutate's action is checked for
   *     them only once its condition holds (HBase answers "not applied" otherwise)
   */
  private void validate(Row op, boolean families) throws ModelException {
    if (op instanceof Mutation) {
      validateMutation((Mutation) op, families);
    } else if (op instanceof RowMutations) {
      List<Mutation> parts = ((RowMutations) op).getMutations();
      if (parts.isEmpty()) {
        throw new ModelException(ModelException.Kind.EMPTY_MUTATION, "empty RowMutations");
      }
      for (Mutation m : parts) {
        validateMutation(m, families);
      }
    } else if (op instanceof CheckAndMutate) {
      CheckAndMutate cam = (CheckAndMutate) op;
      if (cam.hasFilter()) {
        throw new UnsupportedOperationException("the model does not do filters");
      }
      checkFamily(cam.getFamily());
      validate(cam.getAction(), false);
    } else {
      throw new IllegalArgumentException("not a mutation: " + op);
    }
  }

  private void validateMutation(Mutation m, boolean families) throws ModelException {
    if (m.isEmpty() && (m instanceof Put || m instanceof Increment || m instanceof Append)) {
      throw new ModelException(
          ModelException.Kind.EMPTY_MUTATION, m.getClass().getSimpleName() + " has no cells");
    }
    if (families) {
      for (byte[] family : m.getFamilyCellMap().keySet()) {
        checkFamily(family);
      }
    }
  }

  private List<Mutation> parts(Row action) {
    return action instanceof RowMutations rm ? rm.getMutations() : List.of((Mutation) action);
  }

  private void checkFamily(byte[] family) throws ModelException {
    if (!table.hasColumnFamily(family)) {
      throw new ModelException(
          ModelException.Kind.NO_SUCH_FAMILY, "no family " + Bytes.toStringBinary(family));
    }
  }

  /** Section 2, CheckAndMutate (column form). */
  private CheckAndMutateResult checkAndMutate(CheckAndMutate cam, long now) throws ModelException {
    byte[] row = cam.getRow();
    List<KeyValue> read =
        columnVersions(row, cam.getFamily(), cam.getQualifier(), cam.getTimeRange(), 1, now);
    KeyValue stored = read.isEmpty() ? null : read.get(0);
    if (!conditionHolds(cam.getCompareOp(), cam.getValue(), stored)) {
      return new CheckAndMutateResult(false, null);
    }
    boolean returnsCells = false;
    for (Mutation m : parts(cam.getAction())) {
      validateMutation(m, true); // the action's families, now that the condition holds
      returnsCells |= m instanceof Increment || m instanceof Append;
    }
    // HBASE-14070: a single checked Put never writes a LATEST cell older than the cell it read.
    long putFloor = cam.getAction() instanceof Put && stored != null ? stored.getTimestamp() : 0;
    Result r = applyAction(cam.getAction(), now, putFloor);
    // HBase's result: the cells of the action's increments and appends; none for puts and deletes.
    return new CheckAndMutateResult(true, returnsCells ? r : null);
  }

  private static boolean conditionHolds(CompareOperator op, byte[] given, KeyValue stored) {
    if (given == null || given.length == 0) {
      boolean absentOrEmpty = stored == null || stored.getValueLength() == 0;
      return op == CompareOperator.NOT_EQUAL ? !absentOrEmpty : absentOrEmpty;
    }
    if (stored == null) {
      return false;
    }
    int cmp = Bytes.compareTo(given, CellUtil.cloneValue(stored));
    return op.matches(cmp);
  }

  /**
   * Applies a Put, Delete, Increment, Append or RowMutations: each part is resolved against the
   * current history (so later parts of a RowMutations see earlier ones) and written with the next
   * sequence id. Returns the last part's result.
   */
  private Result applyAction(Row op, long now, long putFloor) throws ModelException {
    List<Mutation> parts =
        op instanceof RowMutations ? ((RowMutations) op).getMutations() : List.of((Mutation) op);
    Result result = Result.EMPTY;
    for (Mutation m : parts) {
      Resolved r = resolve(m, now, putFloor);
      write(m.getRow(), r.cells());
      result = r.result();
    }
    return result;
  }

  private record Resolved(List<KeyValue> cells, Result result) {}

  private void write(byte[] row, List<KeyValue> cells) {
    long seq = ++lastSeq;
    List<StoredCell> history = rows.computeIfAbsent(row.clone(), r -> new ArrayList<>());
    for (KeyValue kv : cells) {
      history.add(new StoredCell(kv.withSequenceId(seq), seq, ++lastOrder));
    }
  }

  private Resolved resolve(Mutation m, long now, long putFloor) throws ModelException {
    if (m instanceof Put) {
      List<KeyValue> out = new ArrayList<>();
      for (List<Cell> cells : m.getFamilyCellMap().values()) {
        for (Cell c : cells) {
          // Section 2, per-cell TTL: every cell of the Put gets the Put's TTL (or none).
          KeyValue kv = KeyValue.copyOf(c).withTtl(m.getTTL());
          out.add(
              kv.getTimestamp() == KeyValue.LATEST_TIMESTAMP
                  ? kv.withTimestamp(Math.max(now, putFloor))
                  : kv);
        }
      }
      return new Resolved(out, Result.EMPTY);
    }
    if (m instanceof Delete) {
      return new Resolved(resolveDelete((Delete) m, now), Result.EMPTY);
    }
    if (m instanceof Increment) {
      Increment inc = (Increment) m;
      return readModifyWrite(m, inc.getTimeRange(), inc.isReturnResults(), now, true);
    }
    if (m instanceof Append) {
      Append app = (Append) m;
      return readModifyWrite(m, app.getTimeRange(), app.isReturnResults(), now, false);
    }
    throw new IllegalArgumentException("unknown mutation " + m);
  }

  /** Section 2: LATEST markers take {@code now}; "latest version" deletes take visible versions. */
  private List<KeyValue> resolveDelete(Delete d, long now) {
    byte[] row = d.getRow();
    List<KeyValue> out = new ArrayList<>();
    if (d.isEmpty()) {
      long ts = d.getTimestamp() == KeyValue.LATEST_TIMESTAMP ? now : d.getTimestamp();
      for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
        out.add(
            KeyValue.of(row, f.getName(), Bytes.EMPTY, ts, CellType.DELETE_FAMILY, Bytes.EMPTY));
      }
      return out;
    }
    for (Map.Entry<byte[], List<Cell>> e : d.getFamilyCellMap().entrySet()) {
      byte[] family = e.getKey();
      // n = the number of "latest version" markers of each column in this Delete.
      Map<byte[], Integer> wanted = new TreeMap<>(Bytes.COMPARATOR);
      for (Cell c : e.getValue()) {
        if (isLatestVersionDelete(c)) {
          wanted.merge(CellUtil.cloneQualifier(c), 1, Integer::sum);
        }
      }
      // Read with the state before this Delete: all time, n versions.
      Map<byte[], List<KeyValue>> visible = new TreeMap<>(Bytes.COMPARATOR);
      for (Map.Entry<byte[], Integer> w : wanted.entrySet()) {
        visible.put(
            w.getKey(),
            columnVersions(row, family, w.getKey(), TimeRange.allTime(), w.getValue(), now));
      }
      Map<byte[], Integer> used = new TreeMap<>(Bytes.COMPARATOR);
      for (Cell c : e.getValue()) {
        KeyValue kv = KeyValue.copyOf(c);
        if (isLatestVersionDelete(c)) {
          byte[] q = CellUtil.cloneQualifier(c);
          int k = used.merge(q, 1, Integer::sum) - 1; // the k-th marker (0-based)
          List<KeyValue> vs = visible.get(q);
          out.add(kv.withTimestamp(k < vs.size() ? vs.get(k).getTimestamp() : now));
        } else if (kv.getTimestamp() == KeyValue.LATEST_TIMESTAMP) {
          out.add(kv.withTimestamp(now));
        } else {
          out.add(kv);
        }
      }
    }
    return out;
  }

  private static boolean isLatestVersionDelete(Cell c) {
    return c.getType() == CellType.DELETE && c.getTimestamp() == KeyValue.LATEST_TIMESTAMP;
  }

  /** Section 2, Increment and Append. */
  private Resolved readModifyWrite(
      Mutation m, TimeRange tr, boolean returnResults, long now, boolean increment)
      throws ModelException {
    byte[] row = m.getRow();
    List<KeyValue> out = new ArrayList<>();
    for (Map.Entry<byte[], List<Cell>> e : m.getFamilyCellMap().entrySet()) {
      byte[] family = e.getKey();
      for (Cell delta : e.getValue()) {
        byte[] q = CellUtil.cloneQualifier(delta);
        List<KeyValue> read = columnVersions(row, family, q, tr, 1, now);
        KeyValue current = read.isEmpty() ? null : read.get(0);
        byte[] value;
        if (increment) {
          long base = 0;
          if (current != null) {
            if (current.getValueLength() != 8) {
              throw new ModelException(
                  ModelException.Kind.NOT_A_COUNTER,
                  Bytes.toStringBinary(family)
                      + ":"
                      + Bytes.toStringBinary(q)
                      + " holds "
                      + current.getValueLength()
                      + " bytes",
                  current.getValueLength());
            }
            base = Bytes.toLong(CellUtil.cloneValue(current));
          }
          value = Bytes.toBytes(base + Bytes.toLong(CellUtil.cloneValue(delta)));
        } else {
          byte[] old = current == null ? Bytes.EMPTY : CellUtil.cloneValue(current);
          value = Bytes.concat(old, CellUtil.cloneValue(delta));
        }
        long ts = current == null ? now : Math.max(now, current.getTimestamp() + 1);
        // Section 2: the mutation's TTL, else the current cell's (carried forward), else none.
        long ttl = m.getTTL() != KeyValue.NO_TTL || current == null ? m.getTTL() : current.getTtl();
        out.add(KeyValue.of(row, family, q, ts, CellType.PUT, value).withTtl(ttl));
      }
    }
    out.sort(CellComparator.INSTANCE);
    return new Resolved(out, returnResults ? Result.create(new ArrayList<>(out)) : Result.EMPTY);
  }

  // ---- reads ------------------------------------------------------------------------------

  /** Reads one row (section 3). */
  public Result get(Get get) throws ModelException {
    validateQuery(get);
    long now = clock.currentTimeMillis();
    List<Cell> cells = readRow(get.getRow(), get, false, now);
    if (get.isCheckExistenceOnly()) {
      return Result.ofExists(!cells.isEmpty());
    }
    return Result.create(cells);
  }

  /**
   * Every result a scanner over the scan would return, in order: rows in scan direction, each row's
   * cells split into results of at most {@code batch} cells (all but the last of a row flagged
   * partial), at most {@code limit} rows.
   */
  public List<Result> scan(Scan scan) throws ModelException {
    validateQuery(scan);
    long now = clock.currentTimeMillis();
    List<byte[]> keys = new ArrayList<>();
    for (byte[] row : rows.keySet()) {
      if (inRange(row, scan)) {
        keys.add(row);
      }
    }
    if (scan.isReversed()) {
      Collections.reverse(keys);
    }
    List<Result> out = new ArrayList<>();
    int rowsReturned = 0;
    for (byte[] row : keys) {
      if (scan.getLimit() > 0 && rowsReturned >= scan.getLimit()) {
        break;
      }
      List<Cell> cells = readRow(row, scan, scan.isRaw(), now);
      if (cells.isEmpty()) {
        continue; // a row with no cells left produces no result
      }
      rowsReturned++;
      int batch = scan.getBatch() > 0 ? scan.getBatch() : Integer.MAX_VALUE;
      for (int from = 0; from < cells.size(); from += batch) {
        int to = (int) Math.min((long) from + batch, cells.size());
        out.add(Result.create(new ArrayList<>(cells.subList(from, to)), to < cells.size()));
      }
    }
    return out;
  }

  private boolean inRange(byte[] row, Scan scan) {
    byte[] start = scan.getStartRow();
    byte[] stop = scan.getStopRow();
    if (!scan.isReversed()) {
      if (start.length > 0) {
        int c = Bytes.compareTo(row, start);
        if (c < 0 || (c == 0 && !scan.includeStartRow())) {
          return false;
        }
      }
      if (stop.length > 0) {
        int c = Bytes.compareTo(row, stop);
        if (c > 0 || (c == 0 && !scan.includeStopRow())) {
          return false;
        }
      }
      return true;
    }
    // Reversed: the start row is the upper bound, the stop row the lower one.
    if (start.length > 0) {
      int c = Bytes.compareTo(row, start);
      if (c > 0 || (c == 0 && !scan.includeStartRow())) {
        return false;
      }
    }
    if (stop.length > 0) {
      int c = Bytes.compareTo(row, stop);
      if (c < 0 || (c == 0 && !scan.includeStopRow())) {
        return false;
      }
    }
    return true;
  }

  private void validateQuery(Query q) throws ModelException {
    if (q.getFilter() != null) {
      throw new UnsupportedOperationException("the model does not do filters");
    }
    for (byte[] f : q.getFamilyMap().keySet()) {
      checkFamily(f);
    }
    for (byte[] f : q.getColumnFamilyTimeRange().keySet()) {
      checkFamily(f);
    }
  }

  /** The cells a read returns of one row, in cell order (section 3, with section 4/5 or 6). */
  private List<Cell> readRow(byte[] row, Query q, boolean raw, long now) {
    List<StoredCell> history = rows.getOrDefault(row, List.of());
    List<byte[]> families = new ArrayList<>();
    if (q.hasFamilies()) {
      families.addAll(q.getFamilyMap().keySet());
    } else {
      for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
        families.add(f.getName());
      }
    }
    families.sort(Bytes.COMPARATOR);
    List<Cell> out = new ArrayList<>();
    for (byte[] family : families) {
      ColumnFamilyDescriptor cfd = table.getColumnFamily(family);
      NavigableSet<byte[]> requested = q.getFamilyMap().get(family);
      if (requested != null && requested.isEmpty()) {
        requested = null; // an empty set reads the whole family
      }
      ReadRules rules = new ReadRules(cfd, q.getTimeRange(family), q.getMaxVersions(), now);
      List<StoredCell> familyCells = new ArrayList<>();
      for (StoredCell c : history) {
        if (c.inFamily(family)) {
          familyCells.add(c);
        }
      }
      // Columns in qualifier order; for raw scans family markers belong to the empty qualifier.
      NavigableSet<byte[]> qualifiers = new TreeSet<>(Bytes.COMPARATOR);
      for (StoredCell c : familyCells) {
        if (raw || c.isPut()) {
          qualifiers.add(c.qualifier());
        }
      }
      List<Cell> familyOut = new ArrayList<>();
      for (byte[] qualifier : qualifiers) {
        if (requested != null && !requested.contains(qualifier)) {
          continue;
        }
        if (raw) {
          List<StoredCell> column = new ArrayList<>();
          for (StoredCell c : familyCells) {
            if (c.hasQualifier(qualifier)) {
              column.add(c);
            }
          }
          familyOut.addAll(VersionRules.raw(column, rules, q.getMaxVersions()));
        } else {
          familyOut.addAll(
              VersionRules.visibleVersions(columnHistory(familyCells, qualifier), rules));
        }
      }
      // Per family and row: skip the offset, then at most the limit, counting after all rules.
      int offset = q.getRowOffsetPerColumnFamily();
      int limit = q.getMaxResultsPerColumnFamily();
      for (int i = offset; i < familyOut.size(); i++) {
        if (limit >= 0 && i - offset >= limit) {
          break;
        }
        out.add(familyOut.get(i));
      }
    }
    return out;
  }

  /** The puts of one column plus every marker that can cover them (section 4). */
  private static List<StoredCell> columnHistory(List<StoredCell> familyCells, byte[] qualifier) {
    List<StoredCell> out = new ArrayList<>();
    for (StoredCell c : familyCells) {
      if (c.isFamilyMarker() || c.hasQualifier(qualifier)) {
        out.add(c);
      }
    }
    return out;
  }

  /** The visible versions of one column for an internal read of a write (newest first). */
  private List<KeyValue> columnVersions(
      byte[] row, byte[] family, byte[] qualifier, TimeRange tr, int maxVersions, long now) {
    List<StoredCell> familyCells = new ArrayList<>();
    for (StoredCell c : rows.getOrDefault(row, List.of())) {
      if (c.inFamily(family)) {
        familyCells.add(c);
      }
    }
    ReadRules rules = new ReadRules(table.getColumnFamily(family), tr, maxVersions, now);
    return VersionRules.visibleVersions(columnHistory(familyCells, qualifier), rules);
  }
}
