package dev.basalt.scan;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.Filter;
import java.io.IOException;
import java.util.List;

/**
 * Reads one family of one region for a scan: merges the store's sources (memstore segments, later
 * store files) and runs each row's cells through the {@link QueryMatcher}, seeking wherever the
 * matcher allows. The region scanner decides which row comes next; this scanner returns the
 * family's cells of that row, possibly in several slices when a cell limit applies.
 *
 * <p>Not thread-safe; one per region scanner and family.
 */
public final class StoreScanner implements AutoCloseable {
  private final KeyValueScanner heap;
  private final QueryMatcher matcher;
  private final boolean reversed;
  private final int storeLimit;
  private final int storeOffset;
  private boolean inRow;
  private Cell rowStart;
  private int countPerRow;
  private boolean scanDone;

  /**
   * Positions every source at the scan's start and merges them.
   *
   * @param sources unpositioned scanners over this store's data
   * @param startRow first row (last row for reversed scans); empty for unbounded
   */
  public StoreScanner(
      List<KeyValueScanner> sources,
      QueryMatcher matcher,
      byte[] startRow,
      boolean includeStartRow,
      boolean reversed,
      int storeLimit,
      int storeOffset)
      throws IOException {
    this.matcher = matcher;
    this.reversed = reversed;
    this.storeLimit = storeLimit;
    this.storeOffset = storeOffset;
    for (KeyValueScanner s : sources) {
      if (!reversed) {
        s.seek(KeyValue.firstOnRow(includeStartRow ? startRow : Bytes.nextRow(startRow)));
      } else if (startRow.length == 0) {
        s.seekToLastRow();
      } else if (includeStartRow) {
        s.backwardSeek(KeyValue.firstOnRow(startRow));
      } else {
        s.seekToPreviousRow(KeyValue.firstOnRow(startRow));
      }
    }
    this.heap =
        reversed
            ? new ReversedKeyValueHeap(sources)
            : new KeyValueHeap(sources, CellComparator.INSTANCE);
  }

  /** The next unread cell (its row is the next row this store can contribute to), or null. */
  public Cell peek() {
    return scanDone ? null : heap.peek();
  }

  /** True once the filter said no further row can match. */
  public boolean isScanDone() {
    return scanDone;
  }

  /**
   * Appends the matching cells of the row at the current position to {@code out}, at most until
   * {@code out} holds {@code maxCells} cells.
   *
   * @return true when this store has finished the row (it is now positioned at a later row), false
   *     when it stopped at the cell limit and the row may have more cells
   */
  public boolean nextInRow(List<Cell> out, int maxCells) throws IOException {
    Cell first = peek();
    if (first == null) {
      inRow = false;
      return true;
    }
    if (!inRow || !CellUtil.matchingRows(first, rowStart)) {
      // A store that stopped at a cell limit may already stand on a later row.
      matcher.startRow(first);
      rowStart = first;
      countPerRow = 0;
      inRow = true;
    }
    while (true) {
      Cell c = heap.peek();
      if (c == null) {
        inRow = false;
        return true;
      }
      MatchCode code = matcher.match(c);
      switch (code) {
        case DONE:
          inRow = false;
          return true;
        case DONE_SCAN:
          inRow = false;
          scanDone = true;
          return true;
        case INCLUDE:
        case INCLUDE_AND_SEEK_NEXT_COL:
        case INCLUDE_AND_SEEK_NEXT_ROW:
          Filter f = matcher.getFilter();
          Cell result = f == null ? c : f.transformCell(c);
          countPerRow++;
          if (storeLimit > -1 && countPerRow > storeLimit + storeOffset) {
            seekToNextRow(c);
            return true;
          }
          if (countPerRow > storeOffset) {
            out.add(result);
          }
          if (code == MatchCode.INCLUDE_AND_SEEK_NEXT_ROW) {
            seekToNextRow(c);
            return true;
          }
          if (code == MatchCode.INCLUDE_AND_SEEK_NEXT_COL) {
            seekWithinRow(matcher.keyForNextColumn(c));
          } else {
            heap.next();
          }
          if (out.size() >= maxCells) {
            return false;
          }
          break;
        case SKIP:
          heap.next();
          break;
        case SEEK_NEXT_COL:
          seekWithinRow(matcher.keyForNextColumn(c));
          break;
        case SEEK_NEXT_ROW:
          seekToNextRow(c);
          return true;
        case SEEK_NEXT_USING_HINT:
          Cell hint = matcher.nextKeyHint(c);
          if (hint != null && heapComparator().compare(hint, c) > 0) {
            seekWithinRow(hint);
          } else {
            heap.next();
          }
          break;
        default:
          throw new IllegalStateException("unexpected match code " + code);
      }
    }
  }

  private CellComparator heapComparator() {
    return reversed ? CellComparator.REVERSED_ROWS : CellComparator.INSTANCE;
  }

  /** Moves past the row of {@code c} (to the next row in scan direction). */
  public void skipRow(Cell c) throws IOException {
    seekToNextRow(c);
  }

  private void seekToNextRow(Cell c) throws IOException {
    inRow = false;
    if (reversed) {
      heap.seekToPreviousRow(KeyValue.firstOnRow(CellUtil.cloneRow(c)));
    } else {
      heap.reseek(KeyValue.firstOnRow(Bytes.nextRow(CellUtil.cloneRow(c))));
    }
  }

  private void seekWithinRow(Cell key) throws IOException {
    if (reversed) {
      heap.backwardSeek(key);
    } else {
      heap.reseek(key);
    }
  }

  @Override
  public void close() {
    heap.close();
  }
}
