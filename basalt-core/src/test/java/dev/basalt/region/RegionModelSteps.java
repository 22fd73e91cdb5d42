package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.CompareOperator;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Put;
import dev.basalt.ops.Query;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.ops.TimeRange;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.KeepDeletedCells;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The vocabulary of the random histories: small immutable records for table settings, timestamps,
 * mutations and reads, each printing as one line of a script ("put r1 f1:a@now=v1", "get r2
 * versions=2 tr=[999,now)") so a shrunk counterexample reads like a test case. Timestamps can be
 * relative to the clock ("now-1"); they are resolved when the step runs, so the engine and the
 * model receive the very same operation objects.
 */
final class RegionModelSteps {
  private RegionModelSteps() {}

  static final long CLOCK_START = 1000;

  // ---- table ------------------------------------------------------------------------------

  /** The settings of one column family. {@code ttlSeconds} 0 means forever. */
  record FamilySpec(
      String name,
      int versions,
      int minVersions,
      int ttlSeconds,
      KeepDeletedCells keepDeletedCells,
      boolean newVersionBehavior) {

    ColumnFamilyDescriptor build() {
      ColumnFamilyDescriptorBuilder b =
          ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(name))
              .setMaxVersions(versions)
              .setMinVersions(minVersions)
              .setKeepDeletedCells(keepDeletedCells)
              .setNewVersionBehavior(newVersionBehavior);
      if (ttlSeconds > 0) {
        b.setTimeToLive(ttlSeconds);
      }
      return b.build();
    }

    @Override
    public String toString() {
      return name
          + "{VERSIONS="
          + versions
          + ", MIN_VERSIONS="
          + minVersions
          + ", TTL="
          + (ttlSeconds > 0 ? ttlSeconds + "s" : "FOREVER")
          + ", KEEP_DELETED_CELLS="
          + keepDeletedCells
          + ", NEW_VERSION_BEHAVIOR="
          + newVersionBehavior
          + "}";
    }
  }

  record TableSpec(List<FamilySpec> families) {
    TableDescriptor build() {
      TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf("t"));
      for (FamilySpec f : families) {
        b.setColumnFamily(f.build());
      }
      return b.build();
    }

    @Override
    public String toString() {
      return families.stream().map(FamilySpec::toString).collect(Collectors.joining(" "));
    }
  }

  // ---- values, columns, timestamps --------------------------------------------------------

  /** A cell value: a short string, the empty value, or an 8-byte counter ("#7"). */
  record Value(String label, byte[] bytes) {
    static Value text(String s) {
      return new Value(s, Bytes.toBytes(s));
    }

    static Value counter(long v) {
      return new Value("#" + v, Bytes.toBytes(v));
    }

    static final Value EMPTY = new Value("''", Bytes.EMPTY);

    @Override
    public String toString() {
      return label;
    }
  }

  /** A family and a qualifier; a null qualifier means the whole family (reads only). */
  record Col(String family, String qualifier) {
    byte[] f() {
      return Bytes.toBytes(family);
    }

    byte[] q() {
      return Bytes.toBytes(qualifier);
    }

    @Override
    public String toString() {
      return qualifier == null ? family : family + ":" + qualifier;
    }
  }

  /** A timestamp: LATEST (server time), absolute, or relative to the clock when the step runs. */
  record Ts(Kind kind, long value) {
    enum Kind {
      LATEST,
      ABS,
      REL
    }

    static final Ts LATEST = new Ts(Kind.LATEST, 0);

    static Ts abs(long v) {
      return new Ts(Kind.ABS, v);
    }

    static Ts rel(long d) {
      return new Ts(Kind.REL, d);
    }

    /** The timestamp; LATEST (and an open upper bound) is Long.MAX_VALUE. */
    long resolve(long now) {
      switch (kind) {
        case LATEST:
          return KeyValue.LATEST_TIMESTAMP;
        case ABS:
          return value;
        default:
          return Math.max(0, now + value);
      }
    }

    @Override
    public String toString() {
      switch (kind) {
        case LATEST:
          return "latest";
        case ABS:
          return String.valueOf(value);
        default:
          return value == 0 ? "now" : value > 0 ? "now+" + value : "now" + value;
      }
    }
  }

  /** A time range {@code [min, max)} (bounds sorted when resolved) or one timestamp. */
  record Tr(Ts min, Ts max, boolean single) {
    TimeRange resolve(long now) {
      long a = min.resolve(now);
      if (single) {
        return TimeRange.at(a);
      }
      long b = max.resolve(now);
      return TimeRange.between(Math.min(a, b), Math.max(a, b));
    }

    @Override
    public String toString() {
      if (single) {
        return "ts=" + min;
      }
      return "tr=[" + min + "," + (max.kind() == Ts.Kind.LATEST ? "inf" : max) + ")";
    }
  }

  // ---- mutations --------------------------------------------------------------------------

  /** A mutation of one row, built into the operation object when its step runs. */
  interface MutationSpec {
    String row();

    Row build(long now);
  }

  record PutCell(Col col, Ts ts, Value value) {
    @Override
    public String toString() {
      return col + (ts.kind() == Ts.Kind.LATEST ? "" : "@" + ts) + "=" + value;
    }
  }

  /** " ttl=..ms" for a per-cell TTL, nothing for none. */
  static String ttlText(long ttl) {
    return ttl == KeyValue.NO_TTL ? "" : " ttl=" + ttl + "ms";
  }

  /** A Put; {@code ttl} is its per-cell TTL ({@code Put.setTTL}), {@link KeyValue#NO_TTL} none. */
  record PutSpec(String row, List<PutCell> cells, long ttl) implements MutationSpec {
    PutSpec(String row, List<PutCell> cells) {
      this(row, cells, KeyValue.NO_TTL);
    }

    @Override
    public Put build(long now) {
      Put p = new Put(Bytes.toBytes(row));
      for (PutCell c : cells) {
        if (c.ts().kind() == Ts.Kind.LATEST) {
          p.addColumn(c.col().f(), c.col().q(), c.value().bytes());
        } else {
          p.addColumn(c.col().f(), c.col().q(), c.ts().resolve(now), c.value().bytes());
        }
      }
      return ttl == KeyValue.NO_TTL ? p : p.setTTL(ttl);
    }

    @Override
    public String toString() {
      return "put "
          + row
          + " "
          + (cells.isEmpty()
              ? "<no cells>"
              : cells.stream().map(PutCell::toString).collect(Collectors.joining(" ")))
          + ttlText(ttl);
    }
  }

  /** One delete marker; a null timestamp inherits the Delete's timestamp. */
  record MarkerSpec(MarkerKind kind, Col col, Ts ts) {
    enum MarkerKind {
      FAMILY("fam"),
      FAMILY_VERSION("famver"),
      COLUMNS("cols"),
      COLUMN("col");

      final String label;

      MarkerKind(String label) {
        this.label = label;
      }
    }

    void addTo(Delete d, long now) {
      byte[] f = col.f();
      switch (kind) {
        case FAMILY:
          if (ts == null) {
            d.addFamily(f);
          } else {
            d.addFamily(f, ts.resolve(now));
          }
          break;
        case FAMILY_VERSION:
          d.addFamilyVersion(f, ts == null ? d.getTimestamp() : ts.resolve(now));
          break;
        case COLUMNS:
          if (ts == null) {
            d.addColumns(f, col.q());
          } else {
            d.addColumns(f, col.q(), ts.resolve(now));
          }
          break;
        default:
          if (ts == null) {
            d.addColumn(f, col.q());
          } else {
            d.addColumn(f, col.q(), ts.resolve(now));
          }
      }
    }

    @Override
    public String toString() {
      String target =
          kind == MarkerKind.FAMILY || kind == MarkerKind.FAMILY_VERSION
              ? col.family()
              : col.toString();
      return kind.label + "(" + target + (ts == null ? "" : "@" + ts) + ")";
    }
  }

  record DeleteSpec(String row, Ts ts, List<MarkerSpec> markers) implements MutationSpec {
    @Override
    public Delete build(long now) {
      Delete d =
          ts.kind() == Ts.Kind.LATEST
              ? new Delete(Bytes.toBytes(row))
              : new Delete(Bytes.toBytes(row), ts.resolve(now));
      for (MarkerSpec m : markers) {
        m.addTo(d, now);
      }
      return d;
    }

    @Override
    public String toString() {
      return "delete "
          + row
          + (ts.kind() == Ts.Kind.LATEST ? "" : " @" + ts)
          + (markers.isEmpty()
              ? " <whole row>"
              : " " + markers.stream().map(MarkerSpec::toString).collect(Collectors.joining(" ")));
    }
  }

  record IncCell(Col col, long amount) {
    @Override
    public String toString() {
      return col + (amount >= 0 ? "+=" + amount : "-=" + (-amount));
    }
  }

  record IncrementSpec(String row, List<IncCell> cells, Tr tr, boolean returnResults, long ttl)
      implements MutationSpec {
    IncrementSpec(String row, List<IncCell> cells, Tr tr, boolean returnResults) {
      this(row, cells, tr, returnResults, KeyValue.NO_TTL);
    }

    @Override
    public Increment build(long now) {
      Increment inc = new Increment(Bytes.toBytes(row));
      for (IncCell c : cells) {
        inc.addColumn(c.col().f(), c.col().q(), c.amount());
      }
      if (tr != null) {
        TimeRange r = tr.resolve(now);
        inc.setTimeRange(r.getMin(), r.getMax());
      }
      if (ttl != KeyValue.NO_TTL) {
        inc.setTTL(ttl);
      }
      return inc.setReturnResults(returnResults);
    }

    @Override
    public String toString() {
      return "increment "
          + row
          + " "
          + cells.stream().map(IncCell::toString).collect(Collectors.joining(" "))
          + (tr == null ? "" : " " + tr)
          + (returnResults ? "" : " noResults")
          + ttlText(ttl);
    }
  }

  record AppendCell(Col col, Value value) {
    @Override
    public String toString() {
      return col + "+=" + value;
    }
  }

  record AppendSpec(String row, List<AppendCell> cells, Tr tr, boolean returnResults, long ttl)
      implements MutationSpec {
    AppendSpec(String row, List<AppendCell> cells, Tr tr, boolean returnResults) {
      this(row, cells, tr, returnResults, KeyValue.NO_TTL);
    }

    @Override
    public Append build(long now) {
      Append app = new Append(Bytes.toBytes(row));
      for (AppendCell c : cells) {
        app.addColumn(c.col().f(), c.col().q(), c.value().bytes());
      }
      if (tr != null) {
        TimeRange r = tr.resolve(now);
        app.setTimeRange(r.getMin(), r.getMax());
      }
      if (ttl != KeyValue.NO_TTL) {
        app.setTTL(ttl);
      }
      return app.setReturnResults(returnResults);
    }

    @Override
    public String toString() {
      return "append "
          + row
          + " "
          + cells.stream().map(AppendCell::toString).collect(Collectors.joining(" "))
          + (tr == null ? "" : " " + tr)
          + (returnResults ? "" : " noResults")
          + ttlText(ttl);
    }
  }

  /** Puts and Deletes of one row, applied atomically in order. */
  record RowMutationsSpec(String row, List<MutationSpec> parts) implements MutationSpec {
    @Override
    public RowMutations build(long now) {
      RowMutations rm = new RowMutations(Bytes.toBytes(row));
      for (MutationSpec p : parts) {
        rm.add((Mutation) p.build(now));
      }
      return rm;
    }

    @Override
    public String toString() {
      return "mutateRow "
          + row
          + " ["
          + parts.stream().map(MutationSpec::toString).collect(Collectors.joining("; "))
          + "]";
    }
  }

  /** Column-form check-and-mutate; a null given value tests for absence. */
  record CheckAndMutateSpec(
      String row, Col col, CompareOperator op, Value given, Tr tr, MutationSpec action)
      implements MutationSpec {
    @Override
    public CheckAndMutate build(long now) {
      CheckAndMutate.Builder b =
          CheckAndMutate.newBuilder(Bytes.toBytes(row))
              .ifMatches(col.f(), col.q(), op, given == null ? null : given.bytes());
      if (tr != null) {
        b.timeRange(tr.resolve(now));
      }
      Row a = action.build(now);
      if (a instanceof Put) {
        return b.build((Put) a);
      } else if (a instanceof Delete) {
        return b.build((Delete) a);
      } else if (a instanceof Increment) {
        return b.build((Increment) a);
      } else if (a instanceof Append) {
        return b.build((Append) a);
      }
      return b.build((RowMutations) a);
    }

    @Override
    public String toString() {
      return "checkAndMutate "
          + row
          + " if "
          + col
          + " "
          + op
          + " "
          + (given == null ? "null" : given)
          + (tr == null ? "" : " " + tr)
          + " then {"
          + action
          + "}";
    }
  }

  // ---- reads ------------------------------------------------------------------------------

  /** A family's own time range. */
  record FamilyTr(String family, Tr tr) {
    @Override
    public String toString() {
      return family + ":" + tr;
    }
  }

  /**
   * What a Get or Scan reads: columns (in the order they are added; a family alone adds the whole
   * family), time ranges, versions (0 = all), per-family limit (-1 = none) and offset.
   */
  record ReadSpec(
      List<Col> columns,
      Tr tr,
      List<FamilyTr> familyTrs,
      int versions,
      int storeLimit,
      int storeOffset) {

    void applyTo(Query q, long now) {
      if (q instanceof Get) {
        Get g = (Get) q;
        for (Col c : columns) {
          if (c.qualifier() == null) {
            g.addFamily(c.f());
          } else {
            g.addColumn(c.f(), c.q());
          }
        }
        if (tr != null) {
          TimeRange r = tr.resolve(now);
          if (tr.single()) {
            g.setTimestamp(r.getMin());
          } else {
            g.setTimeRange(r.getMin(), r.getMax());
          }
        }
        for (FamilyTr ft : familyTrs) {
          TimeRange r = ft.tr().resolve(now);
          g.setColumnFamilyTimeRange(Bytes.toBytes(ft.family()), r.getMin(), r.getMax());
        }
        if (versions == 0) {
          g.readAllVersions();
        } else {
          g.readVersions(versions);
        }
        if (storeLimit >= 0) {
          g.setMaxResultsPerColumnFamily(storeLimit);
        }
        if (storeOffset > 0) {
          g.setRowOffsetPerColumnFamily(storeOffset);
        }
      } else {
        Scan s = (Scan) q;
        for (Col c : columns) {
          if (c.qualifier() == null) {
            s.addFamily(c.f());
          } else {
            s.addColumn(c.f(), c.q());
          }
        }
        if (tr != null) {
          TimeRange r = tr.resolve(now);
          if (tr.single()) {
            s.setTimestamp(r.getMin());
          } else {
            s.setTimeRange(r.getMin(), r.getMax());
          }
        }
        for (FamilyTr ft : familyTrs) {
          TimeRange r = ft.tr().resolve(now);
          s.setColumnFamilyTimeRange(Bytes.toBytes(ft.family()), r.getMin(), r.getMax());
        }
        if (versions == 0) {
          s.readAllVersions();
        } else {
          s.readVersions(versions);
        }
        if (storeLimit >= 0) {
          s.setMaxResultsPerColumnFamily(storeLimit);
        }
        if (storeOffset > 0) {
          s.setRowOffsetPerColumnFamily(storeOffset);
        }
      }
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      if (!columns.isEmpty()) {
        sb.append(" ").append(columns.stream().map(Col::toString).collect(Collectors.joining(",")));
      }
      if (versions != 1) {
        sb.append(" versions=").append(versions == 0 ? "all" : String.valueOf(versions));
      }
      if (tr != null) {
        sb.append(" ").append(tr);
      }
      for (FamilyTr ft : familyTrs) {
        sb.append(" ").append(ft);
      }
      if (storeLimit >= 0) {
        sb.append(" perFamilyLimit=").append(storeLimit);
      }
      if (storeOffset > 0) {
        sb.append(" perFamilyOffset=").append(storeOffset);
      }
      return sb.toString();
    }
  }

  /**
   * The rows of a scan: explicit bounds ("" = unbounded) or a row prefix. For a reversed scan
   * {@code start} is the upper bound.
   */
  record RangeSpec(
      String start, boolean startInclusive, String stop, boolean stopInclusive, String prefix) {

    /** The engine gets the scan as an application would write it. */
    void applyTo(Scan s) {
      if (prefix != null) {
        s.setRowPrefixFilter(Bytes.toBytes(prefix));
        return;
      }
      if (!start.isEmpty() || !startInclusive) {
        s.withStartRow(Bytes.toBytes(start), startInclusive);
      }
      if (!stop.isEmpty() || stopInclusive) {
        s.withStopRow(Bytes.toBytes(stop), stopInclusive);
      }
    }

    /**
     * The model gets a prefix as the explicit bounds it means (rows starting with the prefix),
     * worked out here rather than by the Scan class under test.
     */
    void applyToModel(Scan s, boolean reversed) {
      if (prefix == null) {
        applyTo(s);
        return;
      }
      byte[] p = Bytes.toBytes(prefix);
      byte[] next = p.clone();
      next[next.length - 1]++; // test prefixes never end in 0xFF
      if (!reversed) {
        s.withStartRow(p, true).withStopRow(next, false);
      } else {
        s.withStartRow(next, false).withStopRow(p, true);
      }
    }

    @Override
    public String toString() {
      if (prefix != null) {
        return "prefix=" + prefix;
      }
      String a = start.isEmpty() ? "" : start;
      String b = stop.isEmpty() ? "" : stop;
      return (startInclusive ? "[" : "(") + a + ".." + b + (stopInclusive ? "]" : ")");
    }
  }

  // ---- steps ------------------------------------------------------------------------------

  /** One step of a history. */
  interface Step {}

  /** One mutation through its own Region method (put, delete, increment, ...). */
  record Mutate(MutationSpec mutation) implements Step {
    @Override
    public String toString() {
      return mutation.toString();
    }
  }

  /** Several mutations through Region.batchMutate. */
  record Batch(List<MutationSpec> mutations) implements Step {
    @Override
    public String toString() {
      return "batch ["
          + mutations.stream().map(MutationSpec::toString).collect(Collectors.joining("; "))
          + "]";
    }
  }

  record GetStep(String row, ReadSpec read, boolean existenceOnly) implements Step {
    Get build(long now) {
      Get g = new Get(Bytes.toBytes(row));
      read.applyTo(g, now);
      return g.setCheckExistenceOnly(existenceOnly);
    }

    @Override
    public String toString() {
      return "get " + row + read + (existenceOnly ? " existsOnly" : "");
    }
  }

  record ScanStep(
      RangeSpec range, ReadSpec read, boolean reversed, boolean raw, int batch, int limit)
      implements Step {

    Scan build(long now, boolean forModel) {
      Scan s = new Scan();
      s.setReversed(reversed);
      if (forModel) {
        range.applyToModel(s, reversed);
      } else {
        range.applyTo(s);
      }
      read.applyTo(s, now);
      s.setRaw(raw);
      if (batch > 0) {
        s.setBatch(batch);
      }
      if (limit > 0) {
        s.setLimit(limit);
      }
      return s;
    }

    @Override
    public String toString() {
      return "scan "
          + range
          + (reversed ? " reversed" : "")
          + (raw ? " raw" : "")
          + read
          + (batch > 0 ? " batch=" + batch : "")
          + (limit > 0 ? " limit=" + limit : "");
    }
  }

  /**
   * A scan whose scanner stays open while other steps run: {@code readFirst} results are read, then
   * the steps in {@code between} (writes, clock moves), then the rest. The scanner must return what
   * was committed when it opened, judged at the clock reading of that moment.
   */
  record OpenScanStep(ScanStep scan, int readFirst, List<Step> between) implements Step {
    @Override
    public String toString() {
      return scan
          + " -- after "
          + readFirst
          + " result(s): "
          + between.stream().map(Step::toString).collect(Collectors.joining("; "))
          + " -- then the rest";
    }
  }

  /** Moves the clock forward. */
  record Tick(long millis) implements Step {
    @Override
    public String toString() {
      return "clock +" + millis + "ms";
    }
  }

  // ---- storage steps (storage-backed histories only) --------------------------------------

  /**
   * Writes the memstores to store files (Database.flush). Reads must not change (SEMANTICS.md
   * section 7); the model does nothing. A flush may be followed by the minor compaction it asks for
   * in the background, which the storage harness waits for.
   */
  record Flush() implements Step {
    @Override
    public String toString() {
      return "flush";
    }
  }

  /**
   * A minor (Database.compact) or major (Database.majorCompact) compaction. The model rewrites its
   * classic families for a major one (section 7); nothing else changes any non-raw read.
   */
  record Compact(boolean major) implements Step {
    @Override
    public String toString() {
      return major ? "major compaction" : "minor compaction";
    }
  }

  /**
   * Closes and reopens the database: with {@code flushOnClose} the memstores are flushed on close
   * and the next open reads store files; without, the next open replays the WAL. Only at the top
   * level of a history (never while a scanner is open).
   */
  record Restart(boolean flushOnClose) implements Step {
    @Override
    public String toString() {
      return flushOnClose ? "restart (flush on close)" : "restart (no flush on close: WAL replay)";
    }
  }

  /**
   * Splits the region holding {@code row} at it (Database.split), after flushing and compacting the
   * table (a split flushes the region anyway; regions with references cannot split). Nothing when
   * {@code row} already starts a region. Reads must not change; the model notes the flush.
   */
  record SplitStep(String row) implements Step {
    @Override
    public String toString() {
      return "split at " + row;
    }
  }

  /**
   * Merges regions {@code index} and {@code index + 1} (modulo the region count) after flushing and
   * compacting the table; nothing when the table has one region. Reads must not change.
   */
  record MergeStep(int index) implements Step {
    @Override
    public String toString() {
      return "merge regions " + index + " and " + (index + 1);
    }
  }
}
