package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.TimeRange;
import dev.basalt.schema.ColumnFamilyDescriptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Applies one row operation while its row lock is held: resolves server-side values (timestamps,
 * "latest version" deletes, counters, appends, conditions), gives the edit its sequence ids, logs
 * it and adds its cells to the memstores. Nothing it adds is visible until the {@link Commit} it
 * joined completes. Reads it makes see the row's committed state plus the operation's own earlier
 * parts. Thread-safe (stateless apart from the region).
 */
final class RowMutator {
  private final Region region;

  RowMutator(Region region) {
    this.region = region;
  }

  /** Applies a Put, Delete, Increment, Append, RowMutations or CheckAndMutate. */
  OperationStatus apply(Row op, Commit commit) throws IOException {
    long now = region.services().clock().currentTimeMillis();
    if (op instanceof CheckAndMutate) {
      return OperationStatus.success(checkAndMutate((CheckAndMutate) op, now, commit));
    }
    return OperationStatus.success(applyAction(op, now, commit, 0));
  }

  private CheckAndMutateResult checkAndMutate(CheckAndMutate cam, long now, Commit commit)
      throws IOException {
    Get get = new Get(cam.getRow());
    TimeRange tr = cam.getTimeRange();
    get.setTimeRange(tr.getMin(), tr.getMax());
    boolean pass;
    long checkedTs = 0;
    if (cam.hasFilter()) {
      get.setFilter(cam.getFilter());
      Result r = region.readLocked(get);
      pass = !r.isEmpty();
      if (pass) {
        checkedTs = r.rawCells()[0].getTimestamp();
      }
    } else {
      get.addColumn(cam.getFamily(), cam.getQualifier());
      Result r = region.readLocked(get);
      Cell stored = r.isEmpty() ? null : r.rawCells()[0];
      if (stored != null) {
        checkedTs = stored.getTimestamp();
      }
      pass = conditionHolds(cam, stored);
    }
    if (!pass) {
      return new CheckAndMutateResult(false, null);
    }
    // As HBase: an action on a missing family fails only once the condition holds.
    region.checkFamilies(cam.getAction());
    // As in HBase: a checked Put never writes a value older than the one it checked.
    long floor = cam.getAction() instanceof Put ? checkedTs : 0;
    Result r = applyAction(cam.getAction(), now, commit, floor);
    // As HBase: a result only when the action returns cells (an Increment or Append, alone or in
    // the RowMutations), not an empty one for a Put or Delete.
    return new CheckAndMutateResult(true, returnsCells(cam.getAction()) ? r : null);
  }

  private static boolean returnsCells(Row action) {
    List<Mutation> parts =
        action instanceof RowMutations rm ? rm.getMutations() : List.of((Mutation) action);
    for (Mutation m : parts) {
      if (m instanceof Increment || m instanceof Append) {
        return true;
      }
    }
    return false;
  }

  /** HBase's comparison: the given value against the stored one; empty means "absent". */
  static boolean conditionHolds(CheckAndMutate cam, Cell stored) {
    byte[] given = cam.getValue();
    dev.basalt.filter.CompareOperator op = cam.getCompareOp();
    boolean givenEmpty = given == null || given.length == 0;
    if (givenEmpty) {
      boolean storedEmpty = stored == null || stored.getValueLength() == 0;
      return op == dev.basalt.filter.CompareOperator.NOT_EQUAL ? !storedEmpty : storedEmpty;
    }
    if (stored == null) {
      return false;
    }
    int cmp =
        Bytes.compareTo(
            given,
            0,
            given.length,
            stored.getValueArray(),
            stored.getValueOffset(),
            stored.getValueLength());
    return op.matches(cmp);
  }

  private Result applyAction(Row op, long now, Commit commit, long putTsFloor) throws IOException {
    List<Mutation> parts =
        op instanceof RowMutations ? ((RowMutations) op).getMutations() : List.of((Mutation) op);
    Mvcc.WriteEntry entry = region.mvcc().begin(parts.size());
    List<KeyValue> written = new ArrayList<>();
    List<Cell> returned = parts.size() > 1 ? new ArrayList<>() : null;
    Result result = Result.EMPTY;
    Durability durability = Durability.SKIP_WAL;
    long nonceGroup = 0;
    long nonce = Mutation.NO_NONCE; // of the part a client tagged, if any
    List<UUID> clusterIds = List.of(); // of the part a replication sink tagged, if any
    try {
      for (int i = 0; i < parts.size(); i++) {
        Mutation m = parts.get(i);
        Resolved r = resolve(m, now, putTsFloor);
        long seq = entry.first + i;
        for (KeyValue kv : r.cells) {
          // The memstore lays the cell out once, with the server's timestamp in place.
          long ts = kv.getTimestamp() == KeyValue.LATEST_TIMESTAMP ? r.latest : kv.getTimestamp();
          written.add(region.insert(kv, seq, ts));
        }
        result = r.result;
        if (parts.size() > 1 && !r.result.isEmpty()) {
          returned.addAll(Arrays.asList(r.result.rawCells()));
        }
        durability = stronger(durability, region.effectiveDurability(m.getDurability()));
        if (!m.getClusterIds().isEmpty()) {
          clusterIds = m.getClusterIds();
        }
        if (m.getNonce() != Mutation.NO_NONCE) {
          nonceGroup = m.getNonceGroup();
          nonce = m.getNonce();
        }
      }
      long ticket = -1;
      if (durability != Durability.SKIP_WAL && !written.isEmpty()) {
        ticket =
            region
                .services()
                .editLog()
                .append(region.getRegionInfo(), written, durability, nonceGroup, nonce, clusterIds);
      }
      commit.add(entry, ticket, durability, written);
      if (parts.size() > 1) {
        // A RowMutations returns the cells of all its increments and appends, as HBase does.
        returned.sort(CellComparator.INSTANCE);
        return returned.isEmpty() ? Result.EMPTY : Result.create(returned);
      }
      return result;
    } catch (IOException | RuntimeException e) {
      for (KeyValue kv : written) {
        region.rollback(kv);
      }
      region.mvcc().complete(entry); // an empty gap in the sequence; never blocks readers
      throw e;
    }
  }

  private static Durability stronger(Durability a, Durability b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }

  /**
   * The cells a mutation writes, with server values filled in except for timestamps left at
   * LATEST_TIMESTAMP, which mean {@code latest}; and what the mutation returns.
   */
  private static final class Resolved {
    final List<KeyValue> cells;
    final long latest;
    final Result result;

    Resolved(List<KeyValue> cells, long latest, Result result) {
      this.cells = cells;
      this.latest = latest;
      this.result = result;
    }
  }

  private Resolved resolve(Mutation m, long now, long putTsFloor) throws IOException {
    if (m instanceof Put) {
      return new Resolved(putCells(m), Math.max(now, putTsFloor), Result.EMPTY);
    }
    if (m instanceof Delete) {
      return new Resolved(resolveDelete((Delete) m, now), now, Result.EMPTY);
    }
    if (m instanceof Increment) {
      Increment inc = (Increment) m;
      return readModifyWrite(m, inc.getTimeRange(), inc.isReturnResults(), now, true);
    }
    Append app = (Append) m;
    return readModifyWrite(m, app.getTimeRange(), app.isReturnResults(), now, false);
  }

  /**
   * A Put's cells as they are, with the Put's per-cell TTL (only the mutation's: a cell added from
   * a read carries no TTL of its own, as in HBase, whose client never sees tags); the memstore
   * copies them (the client may reuse the Put).
   */
  private static List<KeyValue> putCells(Mutation m) {
    List<KeyValue> out = new ArrayList<>(m.size());
    long ttl = m.getTTL();
    for (List<Cell> cells : m.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        out.add(((KeyValue) c).withTtl(ttl));
      }
    }
    return out;
  }

  private List<KeyValue> resolveDelete(Delete d, long now) throws IOException {
    List<KeyValue> out = new ArrayList<>();
    byte[] row = d.getRow();
    if (d.isEmpty()) {
      long ts = d.getTimestamp() == KeyValue.LATEST_TIMESTAMP ? now : d.getTimestamp();
      for (ColumnFamilyDescriptor f : region.getTableDescriptor().getColumnFamilies()) {
        out.add(
            KeyValue.of(row, f.getName(), Bytes.EMPTY, ts, CellType.DELETE_FAMILY, Bytes.EMPTY));
      }
      return out;
    }
    for (Map.Entry<byte[], List<Cell>> e : d.getFamilyCellMap().entrySet()) {
      byte[] family = e.getKey();
      // "Delete the latest version" markers take the timestamps of the newest visible versions.
      Map<byte[], Integer> latestWanted = new TreeMap<>(Bytes.COMPARATOR);
      for (Cell c : e.getValue()) {
        if (isLatestVersionDelete(c)) {
          latestWanted.merge(CellUtil.cloneQualifier(c), 1, Integer::sum);
        }
      }
      Map<byte[], List<Cell>> versions = new TreeMap<>(Bytes.COMPARATOR);
      for (Map.Entry<byte[], Integer> w : latestWanted.entrySet()) {
        Get get = new Get(row).addColumn(family, w.getKey()).readVersions(w.getValue());
        versions.put(w.getKey(), region.readLocked(get).getColumnCells(family, w.getKey()));
      }
      Map<byte[], Integer> used = new TreeMap<>(Bytes.COMPARATOR);
      for (Cell c : e.getValue()) {
        KeyValue kv = (KeyValue) c;
        if (isLatestVersionDelete(c)) {
          byte[] q = CellUtil.cloneQualifier(c);
          int k = used.merge(q, 1, Integer::sum) - 1;
          List<Cell> vs = versions.get(q);
          out.add(kv.withTimestamp(k < vs.size() ? vs.get(k).getTimestamp() : now));
        } else {
          out.add(kv);
        }
      }
    }
    return out;
  }

  private static boolean isLatestVersionDelete(Cell c) {
    return c.getTypeByte() == CellType.DELETE.code()
        && c.getTimestamp() == KeyValue.LATEST_TIMESTAMP;
  }

  private Resolved readModifyWrite(
      Mutation m, TimeRange tr, boolean returnResults, long now, boolean increment)
      throws IOException {
    Get get = new Get(m.getRow()).setTimeRange(tr.getMin(), tr.getMax());
    for (Map.Entry<byte[], List<Cell>> e : m.getFamilyCellMap().entrySet()) {
      for (Cell c : e.getValue()) {
        get.addColumn(e.getKey(), CellUtil.cloneQualifier(c));
      }
    }
    Result current = region.readLocked(get);
    List<KeyValue> out = new ArrayList<>(m.size());
    for (Map.Entry<byte[], List<Cell>> e : m.getFamilyCellMap().entrySet()) {
      byte[] family = e.getKey();
      for (Cell delta : e.getValue()) {
        byte[] q = CellUtil.cloneQualifier(delta);
        Cell old = current.getColumnLatestCell(family, q);
        byte[] value;
        if (increment) {
          long base = 0;
          if (old != null) {
            if (old.getValueLength() != Long.BYTES) {
              throw new InvalidMutationException(
                  "cannot increment "
                      + Bytes.toStringBinary(family)
                      + ":"
                      + Bytes.toStringBinary(q)
                      + " of row "
                      + Bytes.toStringBinary(m.getRow())
                      + ": its value is "
                      + old.getValueLength()
                      + " bytes wide, not an 8-byte long");
            }
            base = Bytes.readLong(old.getValueArray(), old.getValueOffset());
          }
          value =
              Bytes.toBytes(base + Bytes.readLong(delta.getValueArray(), delta.getValueOffset()));
        } else {
          byte[] add = CellUtil.cloneValue(delta);
          value = old == null ? add : Bytes.concat(CellUtil.cloneValue(old), add);
        }
        long ts = old == null ? now : Math.max(now, old.getTimestamp() + 1);
        // As HBase: the mutation's TTL, else the one the current cell carries forward.
        long ttl = m.getTTL() != KeyValue.NO_TTL || old == null ? m.getTTL() : old.getTtl();
        out.add(KeyValue.of(m.getRow(), family, q, ts, CellType.PUT, value).withTtl(ttl));
      }
    }
    out.sort(CellComparator.INSTANCE);
    List<Cell> returned = new ArrayList<>(out);
    return new Resolved(out, now, returnResults ? Result.create(returned) : Result.EMPTY);
  }
}
