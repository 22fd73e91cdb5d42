package dev.basalt.filter;

import dev.basalt.cell.Cell;

/**
 * Keeps the cells whose family passes the comparison. A failing family skips the rest of the row in
 * that family (every cell a store scanner sees shares one family).
 */
public class FamilyFilter extends CompareFilter {

  public FamilyFilter(CompareOperator op, ByteArrayComparable familyComparator) {
    super(op, familyComparator);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (c.getFamilyLength() > 0 && familyFails(op, comparator, c)) {
      return ReturnCode.NEXT_ROW;
    }
    return ReturnCode.INCLUDE;
  }
}
