package dev.basalt.filter;

import dev.basalt.cell.Cell;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * MUST_PASS_ALL: a cell is included when every member includes it, and the scanner moves as far as
 * the member that wants to move furthest (any seek wins; between seeks, the furthest hint). Members
 * are asked in order and the asking stops at the first one that does not include the cell, so later
 * members (a page counter, say) only count cells the earlier ones accepted.
 */
final class FilterListWithAND extends FilterListBase {
  private final List<Filter> seekHintFilters = new ArrayList<>();

  FilterListWithAND(List<Filter> members) {
    super(members);
    membersAdded(members.size());
  }

  @Override
  void membersAdded(int count) {
    // Every member has included a cell the list includes, so every member transforms it.
    Arrays.fill(included, true);
  }

  /** Includes when both include; moves as far as the further of the two; a seek beats all. */
  static ReturnCode merge(ReturnCode a, ReturnCode b) {
    if (a == ReturnCode.SEEK_NEXT_USING_HINT || b == ReturnCode.SEEK_NEXT_USING_HINT) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    return code(isInclude(a) && isInclude(b), Math.max(reach(a), reach(b)));
  }

  @Override
  public ReturnCode filterCell(Cell c) throws IOException {
    seekHintFilters.clear();
    ReturnCode rc = ReturnCode.INCLUDE;
    for (Filter f : filters) {
      if (f.filterAllRemaining()) {
        return ReturnCode.NEXT_ROW;
      }
      ReturnCode local = f.filterCell(c);
      if (local == ReturnCode.SEEK_NEXT_USING_HINT) {
        seekHintFilters.add(f);
      }
      rc = merge(rc, local);
      if (!isInclude(rc)) {
        return rc;
      }
    }
    return rc;
  }

  @Override
  public void reset() throws IOException {
    for (Filter f : filters) {
      f.reset();
    }
    seekHintFilters.clear();
  }

  /**
   * Drops the row when a member drops it, unless a hinting member accepted it: that member then
   * gets to seek from the row's cells (the rejecting member rejects those cells too).
   */
  @Override
  public boolean filterRowKey(Cell firstRowCell) throws IOException {
    boolean anyRejected = false;
    boolean hintingAccepted = false;
    for (Filter f : filters) {
      if (f.filterAllRemaining()) {
        return true;
      }
      // Every member sees the row key: some track rows in it.
      if (f.filterRowKey(firstRowCell)) {
        anyRejected = true;
      } else if (hints(f)) {
        hintingAccepted = true;
      }
    }
    return anyRejected && !hintingAccepted;
  }

  @Override
  public boolean filterAllRemaining() throws IOException {
    for (Filter f : filters) {
      if (f.filterAllRemaining()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean filterRow() throws IOException {
    for (Filter f : filters) {
      if (f.filterRow()) {
        return true;
      }
    }
    return false;
  }

  /** The furthest hint (in scan order) of the members that asked to seek. */
  @Override
  public Cell getNextCellHint(Cell c) throws IOException {
    Cell best = null;
    for (Filter f : seekHintFilters) {
      if (f.filterAllRemaining()) {
        continue;
      }
      Cell h = f.getNextCellHint(c);
      if (h != null && (best == null || compareInScanOrder(h, best) > 0)) {
        best = h;
      }
    }
    return best;
  }

  @Override
  public String toString() {
    return "FilterList AND " + filters;
  }
}
