package dev.basalt.region;

import dev.basalt.cell.Cell;
import dev.basalt.scan.KeyValueScanner;
import java.io.IOException;

/** A store file scanner that gives back its file reference when closed. Not thread-safe. */
final class ReleasingScanner implements KeyValueScanner {
  private final KeyValueScanner delegate;
  private final StoreFile file;
  private boolean closed;

  ReleasingScanner(KeyValueScanner delegate, StoreFile file) {
    this.delegate = delegate;
    this.file = file;
  }

  @Override
  public Cell peek() {
    return delegate.peek();
  }

  @Override
  public Cell next() throws IOException {
    return delegate.next();
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    return delegate.seek(key);
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    return delegate.reseek(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    return delegate.seekToPreviousRow(key);
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    return delegate.backwardSeek(key);
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    return delegate.seekToLastRow();
  }

  @Override
  public boolean requestSeek(Cell key, boolean forward) throws IOException {
    return delegate.requestSeek(key, forward);
  }

  @Override
  public boolean realSeekDone() {
    return delegate.realSeekDone();
  }

  @Override
  public void enforceSeek() throws IOException {
    delegate.enforceSeek();
  }

  @Override
  public boolean mayHoldDeleteMarkers() {
    return delegate.mayHoldDeleteMarkers();
  }

  @Override
  public long getScannerOrder() {
    return delegate.getScannerOrder();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      delegate.close();
      file.release();
    }
  }
}
