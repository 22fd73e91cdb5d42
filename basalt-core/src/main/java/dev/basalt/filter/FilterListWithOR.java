package dev.basalt.filter;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * MUST_PASS_ONE: a cell is included when any member includes it, and the scanner moves only as far
 * as the member that wants to move least (a seek counts as one cell unless every member seeks; then
 * the nearest hint). Every member is asked about every cell, except that a member whose last answer
 * already covers the cell (a column it skipped, a row it left, a hint not yet reached) gets that
 * answer again without being asked, so its state only moves over cells it would have seen.
 */
final class FilterListWithOR extends FilterListBase {
  private ReturnCode[] prevCodes;
  private Cell[] prevCells;

  FilterListWithOR(List<Filter> members) {
    super(members);
    prevCodes = new ReturnCode[filters.size()];
    prevCells = new Cell[filters.size()];
  }

  @Override
  void membersAdded(int count) {
    prevCodes = Arrays.copyOf(prevCodes, filters.size());
    prevCells = Arrays.copyOf(prevCells, filters.size());
  }

  /** Includes when either includes; moves as far as the nearer; seeks only when both seek. */
  static ReturnCode merge(ReturnCode a, ReturnCode b) {
    if (a == ReturnCode.SEEK_NEXT_USING_HINT && b == ReturnCode.SEEK_NEXT_USING_HINT) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    // A seek's reach is unknown here: count it as one cell.
    ReturnCode x = a == ReturnCode.SEEK_NEXT_USING_HINT ? ReturnCode.SKIP : a;
    ReturnCode y = b == ReturnCode.SEEK_NEXT_USING_HINT ? ReturnCode.SKIP : b;
    return code(isInclude(x) || isInclude(y), Math.min(reach(x), reach(y)));
  }

  /** The member's previous answer when it still covers {@code c}, else null. */
  private ReturnCode carriedOver(int i, Cell c) throws IOException {
    Cell prev = prevCells[i];
    ReturnCode code = prevCodes[i];
    if (prev == null || code == null || !CellUtil.matchingRows(prev, c)) {
      return null;
    }
    switch (code) {
      case SEEK_NEXT_USING_HINT:
        Cell hint = filters.get(i).getNextCellHint(prev);
        return hint != null && compareInScanOrder(c, hint) < 0 ? code : null;
      case NEXT_COL:
      case INCLUDE_AND_NEXT_COL:
        return sameColumn(prev, c) ? ReturnCode.NEXT_COL : null;
      case NEXT_ROW:
      case INCLUDE_AND_SEEK_NEXT_ROW:
        return CellUtil.matchingFamilies(prev, c) ? ReturnCode.NEXT_ROW : null;
      default:
        return null;
    }
  }

  private static boolean sameColumn(Cell a, Cell b) {
    return CellUtil.matchingFamilies(a, b) && CellUtil.matchingQualifiers(a, b);
  }

  @Override
  public ReturnCode filterCell(Cell c) throws IOException {
    ReturnCode rc = null;
    for (int i = 0; i < filters.size(); i++) {
      Filter f = filters.get(i);
      included[i] = false;
      if (f.filterAllRemaining()) {
        continue;
      }
      ReturnCode local = carriedOver(i, c);
      if (local == null) {
        local = f.filterCell(c);
      }
      prevCodes[i] = local;
      // After INCLUDE or SKIP the next cell must be asked anyway.
      prevCells[i] = local == ReturnCode.INCLUDE || local == ReturnCode.SKIP ? null : c;
      rc = rc == null ? local : merge(rc, local);
      included[i] = isInclude(local);
    }
    // Every member is finished: nothing here can pass.
    return rc == null ? ReturnCode.SKIP : rc;
  }

  @Override
  public void reset() throws IOException {
    for (int i = 0; i < filters.size(); i++) {
      filters.get(i).reset();
      included[i] = false;
      prevCodes[i] = null;
      prevCells[i] = null;
    }
  }

  /** Drops the row only when every unfinished member drops it; every member sees the key. */
  @Override
  public boolean filterRowKey(Cell firstRowCell) throws IOException {
    boolean drop = true;
    for (Filter f : filters) {
      if (!f.filterAllRemaining() && !f.filterRowKey(firstRowCell)) {
        drop = false;
      }
    }
    return drop;
  }

  @Override
  public boolean filterAllRemaining() throws IOException {
    if (filters.isEmpty()) {
      return false;
    }
    for (Filter f : filters) {
      if (!f.filterAllRemaining()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean filterRow() throws IOException {
    if (filters.isEmpty()) {
      return false;
    }
    for (Filter f : filters) {
      if (!f.filterRow()) {
        return false;
      }
    }
    return true;
  }

  /** The nearest hint (in scan order); none when an unfinished member has none. */
  @Override
  public Cell getNextCellHint(Cell c) throws IOException {
    Cell best = null;
    for (Filter f : filters) {
      if (f.filterAllRemaining()) {
        continue;
      }
      Cell h = f.getNextCellHint(c);
      if (h == null) {
        return null;
      }
      if (best == null || compareInScanOrder(h, best) < 0) {
        best = h;
      }
    }
    return best;
  }

  @Override
  public String toString() {
    return "FilterList OR " + filters;
  }
}
