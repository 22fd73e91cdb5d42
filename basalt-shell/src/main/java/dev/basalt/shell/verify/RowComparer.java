package dev.basalt.shell.verify;

import java.io.IOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;

/**
 * Compares one row of the two sides, cell by cell, as HBase's Result.compareResults does: the same
 * cells (family, qualifier, timestamp, type) with the same values, in the same order. Walks both
 * cursors through the row together, so a row is never held whole.
 */
final class RowComparer {
  private static final CellComparator CELLS = CellComparator.getInstance();

  private RowComparer() {}

  /**
   * The row whose cells come first: the lower of the two cursors' current rows (either may be
   * exhausted, not both). The returned cell's row stays readable after the cursors move on.
   */
  static Cell lowerRow(CellCursor source, CellCursor peer) {
    if (!peer.hasCell()) {
      return source.cell();
    }
    if (!source.hasCell()) {
      return peer.cell();
    }
    return CELLS.compareRows(source.cell(), peer.cell()) <= 0 ? source.cell() : peer.cell();
  }

  /**
   * Consumes the cells of {@code rowCell}'s row from both cursors and says how the row compares;
   * {@code null} when neither side has it. Differences go to {@code diff}.
   */
  static Counter compareRow(Cell rowCell, CellCursor source, CellCursor peer, RowDiff diff)
      throws IOException {
    byte[] row = rowCell.getRowArray();
    int off = rowCell.getRowOffset();
    int len = rowCell.getRowLength();
    boolean inSource = source.onRow(row, off, len);
    boolean inPeer = peer.onRow(row, off, len);
    boolean differs = false;
    while (true) {
      boolean s = source.onRow(row, off, len);
      boolean p = peer.onRow(row, off, len);
      if (s && p) {
        int c = CELLS.compareWithoutRow(source.cell(), peer.cell());
        if (c == 0) {
          if (!CellUtil.matchingValue(source.cell(), peer.cell())) {
            differs = true;
            diff.valueDiffers(source.cell(), peer.cell());
          }
          source.advance();
          peer.advance();
        } else if (c < 0) {
          differs = true;
          diff.onlyInSource(source.cell());
          source.advance();
        } else {
          differs = true;
          diff.onlyInPeer(peer.cell());
          peer.advance();
        }
      } else if (s) {
        differs = true;
        diff.onlyInSource(source.cell());
        source.advance();
      } else if (p) {
        differs = true;
        diff.onlyInPeer(peer.cell());
        peer.advance();
      } else {
        break;
      }
    }
    if (inSource && inPeer) {
      return differs ? Counter.CONTENT_DIFFERENT_ROWS : Counter.GOODROWS;
    }
    if (inSource) {
      return Counter.ONLY_IN_SOURCE_TABLE_ROWS;
    }
    return inPeer ? Counter.ONLY_IN_PEER_TABLE_ROWS : null;
  }
}
