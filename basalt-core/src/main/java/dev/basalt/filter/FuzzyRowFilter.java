package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Returns the rows that match any of the fuzzy keys (see {@link FuzzyKey} for the exact rule, which
 * is HBase's: fixed positions must be equal, free ones may hold anything, and only the positions a
 * row has are checked). From a row that matches none it seeks to the nearest row that could match
 * one, in either scan direction, and ends the scan when none can.
 */
public class FuzzyRowFilter extends Filter implements HintingFilter {
  private final List<FuzzyKey> keys;
  private boolean done;
  private byte[] decidedRow;
  private boolean rowMatches;
  private byte[] target;

  /**
   * @param fuzzyKeysData pairs of (key, mask) with masks of the key's length holding 0 for fixed
   *     and 1 for free positions
   */
  public FuzzyRowFilter(List<Map.Entry<byte[], byte[]>> fuzzyKeysData) {
    if (fuzzyKeysData == null) {
      throw new IllegalArgumentException("FuzzyRowFilter: fuzzy keys must not be null");
    }
    List<FuzzyKey> out = new ArrayList<>(fuzzyKeysData.size());
    for (Map.Entry<byte[], byte[]> e : fuzzyKeysData) {
      if (e == null) {
        throw new IllegalArgumentException("FuzzyRowFilter: fuzzy key pairs must not be null");
      }
      out.add(FuzzyKey.of(e.getKey(), e.getValue()));
    }
    this.keys = out;
  }

  /** The (key, mask) pairs, masks as 0 fixed / 1 free. */
  public List<Map.Entry<byte[], byte[]>> getFuzzyKeys() {
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>(keys.size());
    for (FuzzyKey k : keys) {
      out.add(Map.entry(k.key(), k.mask()));
    }
    return out;
  }

  @Override
  public void reset() {
    decidedRow = null;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (!Cells.sameRow(c, decidedRow)) {
      decide(c);
    }
    if (rowMatches) {
      return ReturnCode.INCLUDE;
    }
    if (target == null) {
      done = true;
      return ReturnCode.NEXT_ROW;
    }
    return ReturnCode.SEEK_NEXT_USING_HINT;
  }

  private void decide(Cell c) {
    decidedRow = CellUtil.cloneRow(c);
    target = null;
    rowMatches = false;
    for (FuzzyKey k : keys) {
      int f = k.mismatch(decidedRow, 0, decidedRow.length);
      if (f < 0) {
        rowMatches = true;
        return;
      }
      byte[] t = isReversed() ? k.seekBelow(decidedRow, 0, f) : k.nextAfter(decidedRow, 0, f);
      if (t != null) {
        int cmp = Bytes.compareTo(t, target == null ? t : target);
        // Forwards the nearest target is the smallest, reversed the largest.
        if (target == null || (isReversed() ? cmp > 0 : cmp < 0)) {
          target = t;
        }
      }
    }
  }

  /** Ends the scan once no row ahead can match. */
  @Override
  public boolean filterAllRemaining() {
    return done;
  }

  /** True for a row that matched no key (HBase calls this for such rows). */
  @Override
  public boolean filterRow() {
    return decidedRow != null && !rowMatches;
  }

  @Override
  public Cell getNextCellHint(Cell c) {
    if (!Cells.sameRow(c, decidedRow)) {
      decide(c);
    }
    return rowMatches || target == null ? null : Cells.firstOnRow(target);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("FuzzyRowFilter{");
    for (FuzzyKey k : keys) {
      sb.append('{')
          .append(Bytes.toStringBinary(k.key()))
          .append(':')
          .append(Bytes.toStringBinary(k.mask()))
          .append('}');
    }
    return sb.append('}').toString();
  }
}
