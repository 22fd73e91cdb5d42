package dev.basalt.db;

import dev.basalt.ops.Result;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The results of a table scan, in row order (HBase's {@code ResultScanner}). Not thread-safe; close
 * it when done.
 */
public interface ResultScanner extends Closeable, Iterable<Result> {

  /** The next result, or null when the scan is finished. */
  Result next() throws IOException;

  @Override
  void close();

  /** Iterates the remaining results; I/O errors surface as {@link UncheckedIOException}. */
  @Override
  default Iterator<Result> iterator() {
    return new Iterator<>() {
      private Result next;
      private boolean done;

      @Override
      public boolean hasNext() {
        if (next == null && !done) {
          try {
            next = ResultScanner.this.next();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          done = next == null;
        }
        return next != null;
      }

      @Override
      public Result next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Result r = next;
        next = null;
        return r;
      }
    };
  }
}
