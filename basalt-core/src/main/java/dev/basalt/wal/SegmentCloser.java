package dev.basalt.wal;

import dev.basalt.fs.WritableFile;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Forces and closes the segments a {@link Wal} rolled away from, on one background thread, in the
 * order they were rolled. Forcing a full segment (128 MiB by default) takes from milliseconds to
 * seconds; done on the writer's thread it stalled the write that happened to trigger the roll, and
 * every writer queued behind it.
 *
 * <p>A segment counts as closed ({@code onClosed}, after which it may be archived) only once it is
 * forced and closed. Writers that need their entries forced call {@link #awaitAll} before they
 * report them forced, so that entries of a segment still being closed are covered too. A failed
 * force is reported to {@code onFailure} and by every later {@link #awaitAll}.
 *
 * <p>Thread-safe; {@link #close(WritableFile, Wal.Segment)} is called by one thread at a time.
 */
final class SegmentCloser {
  private final ExecutorService thread;
  private final Consumer<Wal.Segment> onClosed;
  private final Consumer<IOException> onFailure;
  private volatile CompletableFuture<Void> last = CompletableFuture.completedFuture(null);

  SegmentCloser(String name, Consumer<Wal.Segment> onClosed, Consumer<IOException> onFailure) {
    this.thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
    this.onClosed = onClosed;
    this.onFailure = onFailure;
  }

  /** Forces and closes {@code file} (its trailer already written) in the background. */
  void close(WritableFile file, Wal.Segment segment) {
    CompletableFuture<Void> previous = last;
    last =
        previous.thenRunAsync(
            () -> {
              try {
                file.sync();
                file.close();
              } catch (IOException e) {
                onFailure.accept(e);
                throw new UncheckedIOException(e);
              }
              onClosed.accept(segment);
            },
            thread);
  }

  /**
   * Waits until every segment handed over so far is forced and closed.
   *
   * @throws IOException when forcing or closing one of them failed
   */
  void awaitAll() throws IOException {
    CompletableFuture<Void> f = last;
    if (f.isDone() && !f.isCompletedExceptionally()) {
      return;
    }
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a WAL segment to be forced");
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      while ((c instanceof UncheckedIOException
              || c instanceof java.util.concurrent.CompletionException)
          && c.getCause() != null) {
        c = c.getCause();
      }
      throw c instanceof IOException ? (IOException) c : new IOException(c);
    }
  }

  /** Stops the thread once the closes handed over are done. */
  void shutdown() {
    thread.shutdown();
  }
}
