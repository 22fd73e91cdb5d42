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

  /** The placeholder {@link #peek} shows while a requested seek is put off, else null. */
  private KeyValue placeholder;

  private Cell pendingKey;
  private boolean pendingIsSeek; // an absolute seek: the position below means nothing
  private final long maxTimestamp;

  /**
   * {@link #current} when {@link #next} reached it within the block of the cell it returned, else
   * null; {@link #relationToLast} holds for it. Every repositioning makes a new current, so a seek
   * outdates this without being told.
   */
  private KeyValue relationOf;

  private int relationToLast;

  /** Run once by the first {@link #close} (a store gives back its file reference); may be null. */
  private Runnable onClose;

  StoreFileScanner(StoreFileReader reader, long readPoint, Runnable onClose) {
    this.onClose = onClose;
    this.reader = reader;
    this.index = reader.index();
    this.readPoint = readPoint;
    this.order = reader.info().maxSequenceId();
    this.maxTimestamp = reader.info().maxTimestamp();
  }

  @Override
  public Cell peek() {
    return placeholder != null ? placeholder : current;
  }

  /**
   * Puts off a seek to a column when the file holds nothing as new as the key asks for: every cell
   * of the column here is at or below the file's maximum timestamp, so the real position cannot
   * sort before (row, family, qualifier, max timestamp). The merge reads this file only once the
   * newer sources have been read past that point; a get for the latest version of a column that a
   * newer file holds never reads this one. Keys without a family (row starts) are sought at once:
   * their placeholder would sort before every real cell of the row and gain nothing.
   */
  @Override
  public boolean requestSeek(Cell key, boolean forward) throws IOException {
    boolean absolute = !forward || (placeholder != null && pendingIsSeek);
    placeholder = null;
    pendingKey = null;
    if (!absolute && current == null) {
      return false;
    }
    if (index.size() == 0) {
      current = null;
      return false;
    }
    if (key.getFamilyLength() > 0 && key.getTimestamp() > maxTimestamp) {
      placeholder =
          KeyValue.firstOnColumnAt(
              CellUtil.cloneRow(key),
              CellUtil.cloneFamily(key),
              CellUtil.cloneQualifier(key),
              maxTimestamp);
      pendingKey = key;
      pendingIsSeek = absolute;
      return true;
    }
    return absolute ? seek(key) : reseek(key);
  }

  @Override
  public boolean mayHoldDeleteMarkers() {
    return reader.info().deleteMarkerCount() > 0;
  }

  @Override
  public boolean realSeekDone() {
    return placeholder == null;
  }

  @Override
  public void enforceSeek() throws IOException {
    if (placeholder != null) {
      placeholder = null;
      Cell key = pendingKey;
      pendingKey = null;
      if (pendingIsSeek) {
        seek(key);
      } else {
        reseek(key);
      }
    }
  }

  @Override
  public Cell next() throws IOException {
    enforceSeek();
    KeyValue out = current;
    if (out != null) {
      int from = ++pos;
      int fromBlock = blockNo;
      settle();
      if (current != null && blockNo == fromBlock) {
        relationToLast = block.relationThrough(from, pos);
        relationOf = current;
      } else {
        relationOf = null;
      }
    }
    return out;
  }

  @Override
  public int relationToLast() {
    return placeholder == null && current != null && current == relationOf ? relationToLast : -1;
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
    placeholder = null;
    pendingKey = null;
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
    if (placeholder != null) {
      // The position below is still where it was before the put-off seek (or meaningless after
      // a put-off absolute seek); the new key is at or past the old one.
      boolean absolute = pendingIsSeek;
      placeholder = null;
      pendingKey = null;
      if (absolute) {
        return seek(key);
      }
    }
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
    if (pos < last && block.compare(pos + 1, kb, ko, kl, ks) >= 0) {
      pos++; // the usual reseek target (next column, next row) is the very next cell
    } else if (block.compare(last, kb, ko, kl, ks) >= 0) {
      pos = block.ceiling(pos, kb, ko, kl, ks); // still in this block: search what is left of it
    } else {
      position(k, blockNo);
    }
    settle();
    return current != null;
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    placeholder = null;
    pendingKey = null;
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
    Runnable r = onClose;
    onClose = null;
    if (r != null) {
      r.run();
    }
    current = null;
    placeholder = null;
    pendingKey = null;
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
