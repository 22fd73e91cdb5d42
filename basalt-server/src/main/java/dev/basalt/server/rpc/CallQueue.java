package dev.basalt.server.rpc;

/**
 * Where a connection hands its calls to be run off the event loop. {@link CallExecutor} is the
 * server's; tests run calls on the calling thread.
 */
interface CallQueue {
  /** What became of a submitted call. */
  enum Admission {
    QUEUED,
    QUEUE_FULL,
    STOPPED
  }

  /** Queues a call; never blocks and never runs it when the answer is not QUEUED. */
  Admission submit(Runnable call);

  /** How many calls may wait, for the CallQueueTooBigException message. */
  int capacity();
}
