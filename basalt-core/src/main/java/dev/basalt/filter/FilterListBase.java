package dev.basalt.filter;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** What the AND and OR forms of a {@link FilterList} share: the members and whole-row steps. */
abstract class FilterListBase extends Filter {
  final List<Filter> filters = new ArrayList<>();

  /** Per member: whether it included the current cell, so it transforms it. */
  boolean[] included = new boolean[0];

  FilterListBase(List<Filter> members) {
    super.setReversed(sameReversedFlag(members, false));
    add(members);
  }

  /** Adds members after construction; their direction must match the list's. */
  void addAll(List<Filter> members) {
    if (!members.isEmpty() && sameReversedFlag(members, isReversed()) != isReversed()) {
      throw new IllegalArgumentException(
          "FilterList: filters in the list must have the same reversed flag");
    }
    add(members);
    membersAdded(members.size());
  }

  private void add(List<Filter> members) {
    for (Filter f : members) {
      if (f == null) {
        throw new IllegalArgumentException("FilterList: filters must not be null");
      }
    }
    filters.addAll(members);
    boolean[] grown = new boolean[filters.size()];
    System.arraycopy(included, 0, grown, 0, included.length);
    included = grown;
  }

  /** Lets a form size its own per-member state after {@link #addAll}. */
  abstract void membersAdded(int count);

  private static boolean sameReversedFlag(List<Filter> members, boolean ifEmpty) {
    if (members.isEmpty()) {
      return ifEmpty;
    }
    boolean first = members.get(0) != null && members.get(0).isReversed();
    for (Filter f : members) {
      if (f != null && f.isReversed() != first) {
        throw new IllegalArgumentException(
            "FilterList: filters in the list must have the same reversed flag");
      }
    }
    return first;
  }

  /** Scan order: a hint "after" another is further along the scan. */
  int compareInScanOrder(Cell a, Cell b) {
    return (isReversed() ? CellComparator.REVERSED_ROWS : CellComparator.INSTANCE).compare(a, b);
  }

  static boolean isInclude(ReturnCode rc) {
    return rc == ReturnCode.INCLUDE
        || rc == ReturnCode.INCLUDE_AND_NEXT_COL
        || rc == ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW;
  }

  /** How far a code moves the scanner: 0 the next cell, 1 the next column, 2 the next row. */
  static int reach(ReturnCode rc) {
    switch (rc) {
      case INCLUDE:
      case SKIP:
        return 0;
      case INCLUDE_AND_NEXT_COL:
      case NEXT_COL:
        return 1;
      case INCLUDE_AND_SEEK_NEXT_ROW:
      case NEXT_ROW:
        return 2;
      default:
        throw new IllegalArgumentException("no reach for " + rc);
    }
  }

  /** The code that includes or not and moves as far as {@code reach}. */
  static ReturnCode code(boolean include, int reach) {
    switch (reach) {
      case 0:
        return include ? ReturnCode.INCLUDE : ReturnCode.SKIP;
      case 1:
        return include ? ReturnCode.INCLUDE_AND_NEXT_COL : ReturnCode.NEXT_COL;
      default:
        return include ? ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW : ReturnCode.NEXT_ROW;
    }
  }

  /** Applies the transformations of the members that included the cell, in member order. */
  @Override
  public Cell transformCell(Cell c) throws IOException {
    Cell out = c;
    for (int i = 0; i < filters.size(); i++) {
      if (included[i]) {
        out = filters.get(i).transformCell(out);
      }
    }
    return out;
  }

  @Override
  public void filterRowCells(List<Cell> cells) throws IOException {
    for (Filter f : filters) {
      f.filterRowCells(cells);
    }
  }

  @Override
  public boolean hasFilterRow() {
    for (Filter f : filters) {
      if (f.hasFilterRow()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean isFamilyEssential(byte[] family) throws IOException {
    if (filters.isEmpty()) {
      return true;
    }
    for (Filter f : filters) {
      if (f.isFamilyEssential(family)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    for (Filter f : filters) {
      f.setReversed(reversed);
    }
  }

  /** Whether a member may give seek hints (see {@link HintingFilter}). */
  static boolean hints(Filter f) {
    if (f instanceof HintingFilter) {
      return true;
    }
    if (f instanceof FilterList) {
      for (Filter m : ((FilterList) f).getFilters()) {
        if (hints(m)) {
          return true;
        }
      }
    }
    return false;
  }
}
