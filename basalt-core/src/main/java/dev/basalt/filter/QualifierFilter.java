package dev.basalt.filter;

import dev.basalt.cell.Cell;

/** Keeps the cells whose qualifier passes the comparison. */
public class QualifierFilter extends CompareFilter {

  public QualifierFilter(CompareOperator op, ByteArrayComparable qualifierComparator) {
    super(op, qualifierComparator);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return qualifierFails(op, comparator, c) ? ReturnCode.SKIP : ReturnCode.INCLUDE;
  }
}
