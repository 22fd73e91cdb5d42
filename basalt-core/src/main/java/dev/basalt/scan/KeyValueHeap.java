package dev.basalt.scan;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges several scanners into one sorted stream. The scanner holding the smallest cell is kept out
 * of the priority queue as {@code current}, so a run of cells from one source costs one comparison
 * each rather than a queue operation. Seeks move only the scanners that are behind the key. Not
 * thread-safe.
 */
public class KeyValueHeap implements KeyValueScanner {
  protected final CellComparator comparator;
  protected final PriorityQueue<KeyValueScanner> heap;
  protected final Comparator<KeyValueScanner> scannerOrder;
  protected KeyValueScanner current;
  private final boolean lazy;
  private final List<KeyValueScanner> exhausted = new ArrayList<>();

  /**
   * Set when a comparison found the queue's top in a later row than {@code current}'s cell; while
   * {@code current} then reports cells of that same row ({@link KeyValueScanner#relationToLast})
   * they need no comparison with the top. Cleared whenever {@code current} or the queue changes.
   */
  private boolean topInLaterRow;

  /**
   * The scanner that returned the cell the last {@link #next} returned, while it is still {@code
   * current}: then nothing from another source lies between that cell and {@link #peek}, and the
   * scanner's own {@link KeyValueScanner#relationToLast} is the merge's. Null after seeks.
   */
  private KeyValueScanner lastFrom;

  public KeyValueHeap(List<? extends KeyValueScanner> scanners, CellComparator comparator)
      throws IOException {
    this(scanners, comparator, false);
  }

  /**
   * @param lazy whether {@link #reseek} puts scanners' seeks off ({@link
   *     KeyValueScanner#requestSeek}); scanners may arrive with seeks already put off either way
   */
  public KeyValueHeap(
      List<? extends KeyValueScanner> scanners, CellComparator comparator, boolean lazy)
      throws IOException {
    this.comparator = comparator;
    this.lazy = lazy;
    this.scannerOrder =
        (a, b) -> {
          int c = comparator.compare(a.peek(), b.peek());
          return c != 0 ? c : Long.compare(b.getScannerOrder(), a.getScannerOrder());
        };
    this.heap = new PriorityQueue<>(Math.max(1, scanners.size()), scannerOrder);
    for (KeyValueScanner s : scanners) {
      if (s.peek() != null) {
        heap.add(s);
      } else {
        retire(s);
      }
    }
    current = pollReal();
  }

  /**
   * Takes the scanner with the smallest cell out of the queue, first doing the seeks put off by
   * scanners that reach the top (their placeholder is only a lower bound of their real cell, so
   * each goes back into the queue once it is really positioned). {@code current} is always really
   * positioned, so nobody reads a placeholder.
   */
  protected KeyValueScanner pollReal() throws IOException {
    topInLaterRow = false;
    KeyValueScanner s;
    while ((s = heap.poll()) != null && !s.realSeekDone()) {
      s.enforceSeek();
      if (s.peek() == null) {
        retire(s);
      } else {
        heap.add(s);
      }
    }
    return s;
  }

  protected void retire(KeyValueScanner s) {
    exhausted.add(s);
  }

  @Override
  public Cell peek() {
    return current == null ? null : current.peek();
  }

  @Override
  public Cell next() throws IOException {
    if (current == null) {
      return null;
    }
    KeyValueScanner from = current;
    lastFrom = from;
    Cell out = from.next();
    Cell nextOfCurrent = from.peek();
    if (nextOfCurrent == null) {
      retire(from);
      current = pollReal();
    } else if (!topInLaterRow || from.relationToLast() < CellUtil.SAME_ROW) {
      KeyValueScanner top = heap.peek();
      if (top != null) {
        // Rows first: when they differ (the usual case between sources) that is the whole answer,
        // and it stays true for the rest of this row of current.
        int rows = comparator.compareRows(nextOfCurrent, top.peek());
        if (rows < 0) {
          topInLaterRow = true;
        } else if (rows > 0 || scannerOrder.compare(from, top) > 0) {
          heap.add(from);
          current = pollReal();
        } else {
          topInLaterRow = false;
        }
      }
    }
    return out;
  }

  @Override
  public int relationToLast() {
    return current != null && current == lastFrom ? current.relationToLast() : -1;
  }

  /** A seek repositions the scanners: what {@link #next} learnt about the order no longer holds. */
  private void forgetSteps() {
    topInLaterRow = false;
    lastFrom = null;
  }

  /** Takes every scanner out of the heap, exhausted ones included, for an absolute seek. */
  protected List<KeyValueScanner> drainAll() {
    forgetSteps();
    List<KeyValueScanner> all = new ArrayList<>(heap);
    if (current != null) {
      all.add(current);
    }
    all.addAll(exhausted);
    exhausted.clear();
    heap.clear();
    current = null;
    return all;
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    // A seek may move backwards, so every scanner seeks, exhausted ones too.
    for (KeyValueScanner s : drainAll()) {
      if (s.seek(key)) {
        heap.add(s);
      } else {
        retire(s);
      }
    }
    current = pollReal();
    return current != null;
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    forgetSteps();
    if (current == null) {
      return false;
    }
    // The common case (the next cell of the current scanner is already past the key, and so is
    // every queued scanner) moves nothing and touches the queue only to look at its top.
    if (comparator.compare(key, current.peek()) > 0) {
      if (!moveTo(current, key)) {
        retire(current);
        current = null;
      } else if (!current.realSeekDone()) {
        heap.add(current);
        current = null;
      }
    }
    KeyValueScanner s;
    while ((s = heap.peek()) != null && comparator.compare(key, s.peek()) > 0) {
      heap.poll();
      if (moveTo(s, key)) {
        heap.add(s);
      } else {
        retire(s);
      }
    }
    if (current == null) {
      current = pollReal();
    } else if (s != null && scannerOrder.compare(current, s) > 0) {
      heap.add(current);
      current = pollReal();
    }
    return current != null;
  }

  private boolean moveTo(KeyValueScanner s, Cell key) throws IOException {
    return lazy ? s.requestSeek(key, true) : s.reseek(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    throw new UnsupportedOperationException("a forward heap cannot seek backwards");
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    throw new UnsupportedOperationException("a forward heap cannot seek backwards");
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    throw new UnsupportedOperationException("a forward heap cannot seek backwards");
  }

  @Override
  public long getScannerOrder() {
    return 0;
  }

  @Override
  public void close() {
    if (current != null) {
      current.close();
      current = null;
    }
    for (KeyValueScanner s : heap) {
      s.close();
    }
    heap.clear();
    for (KeyValueScanner s : exhausted) {
      s.close();
    }
    exhausted.clear();
  }
}
