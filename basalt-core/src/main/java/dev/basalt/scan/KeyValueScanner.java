package dev.basalt.scan;

import dev.basalt.cell.Cell;
import java.io.Closeable;
import java.io.IOException;

/**
 * A positioned cursor over sorted cells: one memstore segment, one store file, or a merge of
 * several. Forward scans use {@link #seek}, {@link #reseek} and {@link #next}; reversed scans walk
 * each row forwards and move between rows with {@link #seekToPreviousRow}, {@link #backwardSeek}
 * and {@link #seekToLastRow}. Cells are returned in {@link dev.basalt.cell.CellComparator} order.
 * Not thread-safe: one scanner serves one reader.
 */
public interface KeyValueScanner extends Closeable {

  /** The current cell without moving, or null when exhausted. */
  Cell peek();

  /** Returns the current cell and moves to the next one; null when exhausted. */
  Cell next() throws IOException;

  /** Positions at the first cell at or after {@code key}; false when there is none. */
  boolean seek(Cell key) throws IOException;

  /**
   * Like {@link #seek} but only forwards from the current position ({@code key} must not sort
   * before the current cell), which lets implementations avoid work.
   */
  boolean reseek(Cell key) throws IOException;

  /**
   * Positions at the first cell of the last row that sorts before {@code key}'s row; false when
   * there is no such row.
   */
  boolean seekToPreviousRow(Cell key) throws IOException;

  /**
   * Positions at the first cell at or after {@code key} within {@code key}'s row, or, when that row
   * has none, at the first cell of the previous row.
   */
  boolean backwardSeek(Cell key) throws IOException;

  /** Positions at the first cell of the last row. */
  boolean seekToLastRow() throws IOException;

  /**
   * A {@link #seek} ({@code forward} false) or {@link #reseek} ({@code forward} true) that may be
   * put off: the scanner may instead show, through {@link #peek}, a placeholder cell that sorts at
   * or after {@code key} and no later than the cell the real seek would reach, and do the real seek
   * only in {@link #enforceSeek}. A merge that keeps such scanners behind the smallest real cell
   * never has to read them when that cell settles the read first (a get answered by a newer file
   * never opens the blocks of older ones).
   *
   * @return false when the scanner is known to be exhausted
   */
  default boolean requestSeek(Cell key, boolean forward) throws IOException {
    return forward ? reseek(key) : seek(key);
  }

  /** False while {@link #peek} shows a placeholder of a put-off seek. */
  default boolean realSeekDone() {
    return true;
  }

  /** Does the seek a {@link #requestSeek} put off; {@link #peek} is then a real cell or null. */
  default void enforceSeek() throws IOException {}

  /**
   * The {@link dev.basalt.cell.CellUtil#keyRelation} of {@link #peek} to the cell the last {@link
   * #next} returned, when known without comparing keys (a store file block knows where its rows and
   * columns end); -1 when not known, and always after a seek.
   */
  default int relationToLast() {
    return -1;
  }

  /** False when this source is known to hold no delete marker at all. */
  default boolean mayHoldDeleteMarkers() {
    return true;
  }

  /**
   * Orders scanners holding equal cells: higher means newer data. Memstores are newer than files.
   */
  long getScannerOrder();

  @Override
  void close();
}
