package dev.basalt.db;

import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.schema.TableDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Which logged cells a region must still replay, for the database's own log at open and for a
 * region server's recovered edits: those above the region's sequence floor of families its table
 * still has. (The region then skips, in turn, those its store files already hold: {@link
 * dev.basalt.region.Region#replay}.) A family removed and added again must not get the removed
 * family's edits back: the floor recorded at the removal covers them.
 */
final class ReplayFilter {
  private ReplayFilter() {}

  /** The cells to replay; {@code cells} itself when all of them are. */
  static List<KeyValue> replayable(TableDescriptor desc, long floor, List<KeyValue> cells) {
    int keep = 0;
    for (KeyValue kv : cells) {
      if (wanted(desc, floor, kv)) {
        keep++;
      }
    }
    if (keep == cells.size()) {
      return cells;
    }
    List<KeyValue> out = new ArrayList<>(keep);
    for (KeyValue kv : cells) {
      if (wanted(desc, floor, kv)) {
        out.add(kv);
      }
    }
    return out;
  }

  private static boolean wanted(TableDescriptor desc, long floor, KeyValue kv) {
    return kv.getSequenceId() > floor && desc.hasColumnFamily(CellUtil.cloneFamily(kv));
  }
}
