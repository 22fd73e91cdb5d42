package dev.basalt.filter;

import dev.basalt.cell.Cell;

/** Keeps the cells whose value passes the comparison. */
public class ValueFilter extends CompareFilter {

  public ValueFilter(CompareOperator op, ByteArrayComparable valueComparator) {
    super(op, valueComparator);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return valueFails(op, comparator, c) ? ReturnCode.SKIP : ReturnCode.INCLUDE;
  }
}
