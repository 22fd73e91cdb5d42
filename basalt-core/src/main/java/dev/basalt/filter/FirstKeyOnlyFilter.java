package dev.basalt.filter;

import dev.basalt.cell.Cell;

/** Returns only the first cell of each row (useful for counting rows). */
public class FirstKeyOnlyFilter extends Filter {
  private boolean foundKV;

  @Override
  public void reset() {
    foundKV = false;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (foundKV) {
      return ReturnCode.NEXT_ROW;
    }
    foundKV = true;
    return ReturnCode.INCLUDE;
  }

  @Override
  public String toString() {
    return "FirstKeyOnlyFilter";
  }
}
