package dev.basalt.server.rpc;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The handler threads: a fixed pool with a bounded queue, so that a flood of requests is answered
 * with CallQueueTooBigException (the client backs off) instead of growing the heap. Only calls an
 * {@link InlineRule} accepts run on the network event loop instead, which must stay free to read
 * and write every connection.
 *
 * <p>Thread-safe.
 */
final class CallExecutor implements CallQueue, AutoCloseable {
  private final ThreadPoolExecutor pool;

  CallExecutor(String name, int threads, int queueLength) {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory factory =
        r -> {
          Thread t = new Thread(r, name + "-handler-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(queueLength),
            factory,
            new ThreadPoolExecutor.AbortPolicy());
  }

  @Override
  public Admission submit(Runnable call) {
    if (pool.isShutdown()) {
      return Admission.STOPPED;
    }
    try {
      pool.execute(call);
      return Admission.QUEUED;
    } catch (RejectedExecutionException e) {
      return pool.isShutdown() ? Admission.STOPPED : Admission.QUEUE_FULL;
    }
  }

  @Override
  public int capacity() {
    return pool.getQueue().remainingCapacity() + pool.getQueue().size();
  }

  /** Stops taking calls, lets running ones finish for a moment, then interrupts them. */
  @Override
  public void close() {
    pool.shutdown();
    try {
      if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
