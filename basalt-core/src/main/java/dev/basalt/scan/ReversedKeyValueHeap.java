package dev.basalt.scan;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import java.io.IOException;
import java.util.List;

/**
 * The merge for reversed scans: rows in descending order, each row's cells in ascending order.
 * Every scanner walks its current row forwards; when it leaves the row it is moved to the start of
 * its previous row. Forward seeks are not supported; within-row seeks use {@link #backwardSeek}.
 * Not thread-safe.
 */
public final class ReversedKeyValueHeap extends KeyValueHeap {

  public ReversedKeyValueHeap(List<? extends KeyValueScanner> scanners) throws IOException {
    super(scanners, CellComparator.REVERSED_ROWS);
  }

  @Override
  public Cell next() throws IOException {
    if (current == null) {
      return null;
    }
    Cell out = current.next();
    Cell nextOfCurrent = current.peek();
    if (nextOfCurrent == null || !CellUtil.matchingRows(nextOfCurrent, out)) {
      // The scanner left the row (forwards): bring it to the row before instead.
      if (current.seekToPreviousRow(out)) {
        heap.add(current);
      } else {
        retire(current);
      }
      current = heap.poll();
    } else {
      KeyValueScanner top = heap.peek();
      if (top != null && scannerOrder.compare(current, top) > 0) {
        heap.add(current);
        current = heap.poll();
      }
    }
    return out;
  }

  /** Not known: the merge reorders rows by seeking, and nothing here asks. */
  @Override
  public int relationToLast() {
    return -1;
  }

  @Override
  public boolean seek(Cell key) {
    throw new UnsupportedOperationException("use backwardSeek on a reversed heap");
  }

  @Override
  public boolean reseek(Cell key) {
    throw new UnsupportedOperationException("use backwardSeek on a reversed heap");
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    if (current == null) {
      return false;
    }
    heap.add(current);
    current = null;
    KeyValueScanner s;
    while ((s = heap.poll()) != null) {
      if (CellComparator.INSTANCE.compareRows(s.peek(), key) < 0) {
        // The top scanner's row is already before the key's row; so are all others.
        heap.add(s);
        break;
      }
      if (s.seekToPreviousRow(key)) {
        heap.add(s);
      } else {
        retire(s);
      }
    }
    current = heap.poll();
    return current != null;
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    if (current == null) {
      return false;
    }
    heap.add(current);
    current = null;
    KeyValueScanner s;
    while ((s = heap.poll()) != null) {
      Cell top = s.peek();
      boolean atOrAfterInRow =
          CellUtil.matchingRows(key, top) && CellComparator.INSTANCE.compare(key, top) <= 0;
      if (atOrAfterInRow || CellComparator.INSTANCE.compareRows(key, top) > 0) {
        heap.add(s);
        break;
      }
      if (s.backwardSeek(key)) {
        heap.add(s);
      } else {
        retire(s);
      }
    }
    current = heap.poll();
    return current != null;
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    for (KeyValueScanner s : drainAll()) {
      if (s.seekToLastRow()) {
        heap.add(s);
      } else {
        retire(s);
      }
    }
    current = heap.poll();
    return current != null;
  }
}
