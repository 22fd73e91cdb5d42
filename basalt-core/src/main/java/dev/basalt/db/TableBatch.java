package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Row;
import dev.basalt.region.OperationStatus;
import dev.basalt.region.RegionClosedException;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a batch to a table of several regions: groups the operations by region (keeping their
 * order within each), runs each group as one region batch, and puts the statuses back in the
 * caller's order. Operations on one row always land in one group, so they apply in the given order
 * as on a single region. A group whose region closed under it (a table change replaced the region)
 * is routed again once the change is published; a region that cannot take writes fails only its own
 * group's operations. Stateless.
 */
final class TableBatch {
  private TableBatch() {}

  /**
   * @throws TableNotFoundException, TableNotEnabledException when the table cannot take the batch
   *     at all (nothing was applied)
   */
  static List<OperationStatus> apply(LiveTables tables, TableName name, List<? extends Row> ops)
      throws IOException {
    OperationStatus[] out = new OperationStatus[ops.size()];
    List<Integer> pending = new ArrayList<>(ops.size());
    for (int i = 0; i < ops.size(); i++) {
      pending.add(i);
    }
    long deadline = tables.deadline();
    boolean first = true;
    while (!pending.isEmpty()) {
      LiveTable t;
      try {
        t = tables.requireEnabled(name);
      } catch (IOException e) {
        if (first) {
          throw e;
        }
        fail(out, pending, e); // the table went away between rounds
        break;
      }
      first = false;
      Map<ServedRegion, List<Integer>> groups = new LinkedHashMap<>();
      for (int i : pending) {
        byte[] row = ops.get(i).getRow();
        ServedRegion r = t.regions().locate(row == null ? Bytes.EMPTY : row);
        groups.computeIfAbsent(r, k -> new ArrayList<>()).add(i);
      }
      List<Integer> retry = new ArrayList<>();
      ServedRegion closedRegion = null;
      RegionClosedException closed = null;
      for (Map.Entry<ServedRegion, List<Integer>> g : groups.entrySet()) {
        ServedRegion r = g.getKey();
        List<Integer> idx = g.getValue();
        List<Row> sub = new ArrayList<>(idx.size());
        for (int i : idx) {
          sub.add(ops.get(i));
        }
        try {
          List<OperationStatus> st = r.region().batchMutate(sub);
          for (int k = 0; k < idx.size(); k++) {
            out[idx.get(k)] = st.get(k);
          }
        } catch (RegionClosedException e) {
          if (r.region().isClosed()) {
            retry.addAll(idx);
            closedRegion = r;
            closed = e;
          } else {
            fail(out, idx, e);
          }
        } catch (IOException e) {
          fail(out, idx, e);
        }
      }
      if (retry.isEmpty()) {
        break;
      }
      try {
        tables.awaitChange(t, closedRegion, closed, deadline);
      } catch (IOException e) {
        fail(out, retry, e);
        break;
      }
      Collections.sort(retry);
      pending = retry;
    }
    List<OperationStatus> result = new ArrayList<>(out.length);
    Collections.addAll(result, out);
    return result;
  }

  private static void fail(OperationStatus[] out, List<Integer> idx, IOException e) {
    for (int i : idx) {
      out[i] = OperationStatus.failure(e);
    }
  }
}
