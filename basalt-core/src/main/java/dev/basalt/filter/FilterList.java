package dev.basalt.filter;

import dev.basalt.cell.Cell;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An ordered list of filters combined with AND ({@link Operator#MUST_PASS_ALL}, the default) or OR
 * ({@link Operator#MUST_PASS_ONE}); lists nest. The combination follows HBase 2: see {@link
 * FilterListWithAND} and {@link FilterListWithOR} for how answers and seek hints merge. Hints are
 * compared in scan order, so a reversed scan prefers a hint to a lower row over one within the
 * current row, and within a row the lower column first (HBase negates the whole cell order there).
 */
public final class FilterList extends Filter {

  /** How the members combine. */
  public enum Operator {
    /** AND. */
    MUST_PASS_ALL,
    /** OR. */
    MUST_PASS_ONE
  }

  private final Operator operator;
  private final FilterListBase list;

  public FilterList(Operator operator, List<Filter> filters) {
    if (operator == null) {
      throw new IllegalArgumentException("FilterList: operator must not be null");
    }
    if (filters == null) {
      throw new IllegalArgumentException("FilterList: filters must not be null");
    }
    this.operator = operator;
    this.list =
        operator == Operator.MUST_PASS_ALL
            ? new FilterListWithAND(filters)
            : new FilterListWithOR(filters);
    super.setReversed(list.isReversed());
  }

  public FilterList(List<Filter> filters) {
    this(Operator.MUST_PASS_ALL, filters);
  }

  public FilterList(Filter... filters) {
    this(Operator.MUST_PASS_ALL, Arrays.asList(filters));
  }

  public FilterList(Operator operator) {
    this(operator, new ArrayList<>());
  }

  public FilterList(Operator operator, Filter... filters) {
    this(operator, Arrays.asList(filters));
  }

  public Operator getOperator() {
    return operator;
  }

  /** The members, in order (read-only). */
  public List<Filter> getFilters() {
    return Collections.unmodifiableList(list.filters);
  }

  public int size() {
    return list.filters.size();
  }

  public void addFilter(Filter filter) {
    addFilter(Collections.singletonList(filter));
  }

  public void addFilter(List<Filter> filters) {
    if (filters == null) {
      throw new IllegalArgumentException("FilterList: filters must not be null");
    }
    list.addAll(filters);
  }

  @Override
  public void reset() throws IOException {
    list.reset();
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) throws IOException {
    return !list.filters.isEmpty() && list.filterRowKey(firstRowCell);
  }

  @Override
  public boolean filterAllRemaining() throws IOException {
    return list.filterAllRemaining();
  }

  @Override
  public ReturnCode filterCell(Cell c) throws IOException {
    return list.filters.isEmpty() ? ReturnCode.INCLUDE : list.filterCell(c);
  }

  @Override
  public Cell transformCell(Cell c) throws IOException {
    return list.transformCell(c);
  }

  @Override
  public void filterRowCells(List<Cell> cells) throws IOException {
    list.filterRowCells(cells);
  }

  @Override
  public boolean hasFilterRow() {
    return list.hasFilterRow();
  }

  @Override
  public boolean filterRow() throws IOException {
    return list.filterRow();
  }

  @Override
  public Cell getNextCellHint(Cell c) throws IOException {
    return list.filters.isEmpty() ? null : list.getNextCellHint(c);
  }

  @Override
  public boolean isFamilyEssential(byte[] family) throws IOException {
    return list.isFamilyEssential(family);
  }

  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    list.setReversed(reversed);
  }

  @Override
  public String toString() {
    return list.toString();
  }
}
