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
  /**
   * How many cells a forward scan steps over before it seeks instead (HBase tries the same: a step
   * is one comparison, a seek rebuilds the merge and searches every source's block).
   */
  static final int STEPS_BEFORE_SEEK = 8;

  private final KeyValueScanner heap;
  private final QueryMatcher matcher;
  private final boolean reversed;
  private final int storeLimit;
  private final int storeOffset;
  private final boolean singleRow;
  private final boolean lazy;

  /**
   * What {@link #stepTo} learnt about the cell it stopped at, compared with the cell matched last
   * ({@link CellUtil#keyRelation}; -1 for nothing), so that the matcher does not compare the same
   * keys again. Only good for the next match of the same {@link #nextInRow} call.
   */
  private int arrived = -1;

  private boolean inRow;
  private Cell rowStart;
  private int countPerRow;
  private long addedBytes; // by the last nextInRow call
  private boolean scanDone;
  private boolean rowDone; // a single-row read finished its row

  /**
   * Positions every source at the scan's start and merges them.
   *
   * @param sources unpositioned scanners over this store's data
   * @param startRow first row (last row for reversed scans); empty for unbounded
   * @param singleRow whether the read wants this one row only (a get): once the row is finished the
   *     scanner stops instead of moving on, which would read sources for nothing
   */
  public StoreScanner(
      List<KeyValueScanner> sources,
      QueryMatcher matcher,
      byte[] startRow,
      boolean includeStartRow,
      boolean reversed,
      int storeLimit,
      int storeOffset,
      boolean singleRow)
      throws IOException {
    this.matcher = matcher;
    this.reversed = reversed;
    this.storeLimit = storeLimit;
    this.storeOffset = storeOffset;
    this.singleRow = singleRow;
    byte[] firstRow = reversed || includeStartRow ? startRow : Bytes.nextRow(startRow);
    // With explicit columns, sources without delete markers start at the first wanted column, and
    // seeks to columns may be put off (see KeyValueScanner.requestSeek).
    Cell columnKey = reversed ? null : matcher.firstColumnKey(firstRow);
    this.lazy = columnKey != null;
    Cell rowKey = KeyValue.firstOnRow(firstRow);
    for (KeyValueScanner s : sources) {
      if (!reversed) {
        if (lazy && !s.mayHoldDeleteMarkers()) {
          s.requestSeek(columnKey, false);
        } else {
          s.seek(rowKey);
        }
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
            : new KeyValueHeap(sources, CellComparator.INSTANCE, lazy);
  }

  /** Bytes of the cells the last {@link #nextInRow} call appended. */
  public long addedBytes() {
    return addedBytes;
  }

  /** The next unread cell (its row is the next row this store can contribute to), or null. */
  public Cell peek() {
    return scanDone || rowDone ? null : heap.peek();
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
    return nextInRow(out, maxCells, Long.MAX_VALUE);
  }

  /**
   * Like {@link #nextInRow(List, int)}, and also stops once the cells this call appended reach
   * {@code maxBytes} ({@link CellUtil#serializedSize}); {@link #addedBytes} says how many it
   * appended.
   */
  public boolean nextInRow(List<Cell> out, int maxCells, long maxBytes) throws IOException {
    addedBytes = 0;
    arrived = -1;
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
      int known = arrived;
      arrived = -1;
      MatchCode code =
          known == CellUtil.SAME_ROW
              ? matcher.matchNextColumn(c)
              : known == CellUtil.DIFFERENT_ROW ? matcher.matchPastRow() : matcher.match(c);
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
            addedBytes += CellUtil.serializedSize(result);
          }
          if (code == MatchCode.INCLUDE_AND_SEEK_NEXT_ROW) {
            seekToNextRow(c);
            return true;
          }
          if (code == MatchCode.INCLUDE_AND_SEEK_NEXT_COL) {
            seekToNextColumn(c);
          } else {
            heap.next();
          }
          if (out.size() >= maxCells || addedBytes >= maxBytes) {
            return false;
          }
          break;
        case SKIP:
          heap.next();
          break;
        case SEEK_NEXT_COL:
          seekToNextColumn(c);
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
    if (singleRow) {
      rowDone = true;
      return;
    }
    if (reversed) {
      heap.seekToPreviousRow(KeyValue.firstOnRow(CellUtil.cloneRow(c)));
      return;
    }
    if (!stepTo(c, false, null)) {
      heap.reseek(KeyValue.firstOnRow(Bytes.nextRow(CellUtil.cloneRow(c))));
    }
  }

  /**
   * Leaves the column of {@code c} for the next one the matcher wants. Forwards, the next cells are
   * often just a few steps away (the rest of a column's versions), so stepping first avoids
   * building a seek key and repositioning every source; only a longer run is sought over.
   */
  private void seekToNextColumn(Cell c) throws IOException {
    if (reversed) {
      heap.backwardSeek(matcher.keyForNextColumn(c));
      return;
    }
    if (matcher.nextColumnIsAdjacent()) {
      if (!stepTo(c, true, null)) {
        heap.reseek(matcher.keyForNextColumn(c));
      }
      return;
    }
    Cell key = matcher.keyForNextColumn(c);
    // Stepping would make the merge do every seek it has put off; a put-off seek may never be done.
    if (lazy || !stepTo(c, true, key)) {
      heap.reseek(key);
    }
  }

  /**
   * Steps forwards over at most {@link #STEPS_BEFORE_SEEK} cells until the next one is past the row
   * of {@code c} (or past its column, with {@code column}), or at or after {@code key} when one is
   * given. False when it did not get there: the caller seeks.
   */
  private boolean stepTo(Cell c, boolean column, Cell key) throws IOException {
    for (int i = 0; i < STEPS_BEFORE_SEEK; i++) {
      heap.next();
      Cell p = heap.peek();
      if (p == null) {
        return true;
      }
      if (key != null) {
        if (CellComparator.INSTANCE.compare(p, key) >= 0) {
          return true;
        }
        continue;
      }
      // Against the cell just stepped over: while stepping goes on, that cell is in the row (or
      // the column) of c, so either answers the question asked of c.
      int relation = heap.relationToLast();
      if (relation < 0) {
        relation = CellUtil.keyRelation(p, c);
      }
      if (relation == CellUtil.DIFFERENT_ROW || (column && relation == CellUtil.SAME_ROW)) {
        arrived = relation;
        return true;
      }
    }
    return false;
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
