package dev.basalt.sstable;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import java.io.IOException;
import java.util.Arrays;

/**
 * Scans one store file, hiding cells above the read point. The position is a (block, index) pair
 * over the decoded blocks; {@link #next} steps through the current block and allocates one {@link
 * KeyValue} wrapper per cell, seeks find the block with the in-memory index and binary-search it.
 * The two most recent blocks are kept, so moving back and forth across a block boundary (reversed
 * scans) does not read a block again when it is not cached.
 *
 * <p>Reversed operations step back one cell from the start of a row to find the previous row, then
 * seek to that row's first visible cell; a row whose cells are all above the read point is skipped.
 * Not thread-safe.
 */
final class StoreFileScanner implements KeyValueScanner {
  private final StoreFileReader reader;
  private final BlockIndex index;
  private final long readPoint;
  private final long order;

  private int blockNo = -1;
  private DataBlock block;
  private int otherBlockNo = -1;
  private DataBlock otherBlock;
  private int pos;
  private KeyValue current;

  StoreFileScanner(StoreFileReader reader, long readPoint) {
    this.reader = reader;
    this.index = reader.index();
    this.readPoint = readPoint;
    this.order = reader.info().maxSequenceId();
  }

  @Override
  public Cell peek() {
    return current;
  }

  @Override
  public Cell next() throws IOException {
    KeyValue out = current;
    if (out != null) {
      pos++;
      settle();
    }
    return out;
  }

  private void load(int b) throws IOException {
    if (b == blockNo) {
      return;
    }
    if (b == otherBlockNo) {
      DataBlock t = block;
      block = otherBlock;
      otherBlock = t;
      otherBlockNo = blockNo;
      blockNo = b;
      return;
    }
    DataBlock next = reader.dataBlock(b);
    otherBlock = block;
    otherBlockNo = blockNo;
    block = next;
    blockNo = b;
  }

  /** Moves from the position to the first visible cell at or after it, across blocks. */
  private void settle() throws IOException {
    while (true) {
      int n = block.count();
      for (; pos < n; pos++) {
        if (block.seqId(pos) <= readPoint) {
          current = block.cell(pos);
          return;
        }
      }
      if (blockNo + 1 >= index.size()) {
        current = null;
        return;
      }
      load(blockNo + 1);
      pos = 0;
    }
  }

  private static KeyValue asKeyValue(Cell c) {
    return c instanceof KeyValue kv ? kv : KeyValue.copyOf(c);
  }

  /**
   * Positions at the first cell at or after the key, visible or not, searching blocks from {@code
   * fromBlock}; the position may be one past the end of a block.
   */
  private void position(KeyValue k, int fromBlock) throws IOException {
    byte[] kb = k.getBuffer();
    int ko = k.keyOffset();
    int kl = k.keyLength();
    long ks = k.getSequenceId();
    load(index.find(fromBlock, kb, ko, kl, ks));
    pos = block.ceiling(0, kb, ko, kl, ks);
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    if (index.size() == 0) {
      current = null;
      return false;
    }
    position(asKeyValue(key), 0);
    settle();
    return current != null;
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    if (current == null) {
      return false;
    }
    if (CellComparator.INSTANCE.compare(current, key) >= 0) {
      return true;
    }
    KeyValue k = asKeyValue(key);
    byte[] kb = k.getBuffer();
    int ko = k.keyOffset();
    int kl = k.keyLength();
    long ks = k.getSequenceId();
    int last = block.count() - 1;
    if (block.compare(last, kb, ko, kl, ks) >= 0) {
      pos = block.ceiling(pos, kb, ko, kl, ks); // still in this block: search what is left of it
    } else {
      position(k, blockNo);
    }
    settle();
    return current != null;
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    if (index.size() == 0) {
      current = null;
      return false;
    }
    byte[] row = CellUtil.cloneRow(key);
    while (true) {
      position(KeyValue.firstOnRow(row), 0);
      // The cell before the position is the last one of the previous row.
      if (pos > 0) {
        pos--;
      } else if (blockNo > 0) {
        load(blockNo - 1);
        pos = block.count() - 1;
      } else {
        current = null;
        return false;
      }
      byte[] prevRow = CellUtil.cloneRow(block.cell(pos));
      if (Arrays.compareUnsigned(prevRow, row) >= 0) {
        throw new CorruptStoreFileException(
            reader.file(),
            index.blockOffset(blockNo),
            "data block: cells out of order (row before the seek row sorts after it)");
      }
      position(KeyValue.firstOnRow(prevRow), 0);
      settle();
      if (current != null && CellUtil.matchingRow(current, prevRow)) {
        return true;
      }
      row = prevRow; // every cell of that row is above the read point: try the one before
    }
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    if (seek(key) && CellUtil.matchingRows(current, key)) {
      return true;
    }
    return seekToPreviousRow(key);
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    Cell last = reader.info().lastKey();
    if (last == null) {
      current = null;
      return false;
    }
    return backwardSeek(KeyValue.firstOnRow(CellUtil.cloneRow(last)));
  }

  @Override
  public long getScannerOrder() {
    return order;
  }

  @Override
  public void close() {
    current = null;
    block = null;
    otherBlock = null;
    blockNo = -1;
    otherBlockNo = -1;
  }

  @Override
  public String toString() {
    return "StoreFileScanner{"
        + reader.path()
        + ", readPoint="
        + readPoint
        + ", at "
        + current
        + "}";
  }
}
