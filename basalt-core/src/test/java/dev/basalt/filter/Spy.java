package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Wraps a filter and records the row keys and cells it was asked about ("row/fam:qual@ts"). */
final class Spy extends Filter {
  final Filter inner;
  final List<String> seen = new ArrayList<>();
  final List<String> rowKeys = new ArrayList<>();
  int hints;

  Spy(Filter inner) {
    this.inner = inner;
  }

  static String key(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneRow(c))
        + "/"
        + Bytes.toStringBinary(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
        + "@"
        + c.getTimestamp();
  }

  /** The rows of the cells seen, without repeats, in order. */
  List<String> rowsSeen() {
    List<String> out = new ArrayList<>();
    for (String s : seen) {
      String row = s.substring(0, s.indexOf('/'));
      if (out.isEmpty() || !out.get(out.size() - 1).equals(row)) {
        out.add(row);
      }
    }
    return out;
  }

  @Override
  public void reset() throws IOException {
    inner.reset();
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) throws IOException {
    rowKeys.add(Bytes.toStringBinary(CellUtil.cloneRow(firstRowCell)));
    return inner.filterRowKey(firstRowCell);
  }

  @Override
  public boolean filterAllRemaining() throws IOException {
    return inner.filterAllRemaining();
  }

  @Override
  public ReturnCode filterCell(Cell c) throws IOException {
    seen.add(key(c));
    return inner.filterCell(c);
  }

  @Override
  public Cell transformCell(Cell c) throws IOException {
    return inner.transformCell(c);
  }

  @Override
  public void filterRowCells(List<Cell> cells) throws IOException {
    inner.filterRowCells(cells);
  }

  @Override
  public boolean hasFilterRow() {
    return inner.hasFilterRow();
  }

  @Override
  public boolean filterRow() throws IOException {
    return inner.filterRow();
  }

  @Override
  public Cell getNextCellHint(Cell c) throws IOException {
    hints++;
    return inner.getNextCellHint(c);
  }

  @Override
  public boolean isFamilyEssential(byte[] family) throws IOException {
    return inner.isFamilyEssential(family);
  }

  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    inner.setReversed(reversed);
  }
}
