package dev.basalt.server.regionserver;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a region server that was paused (SIGSTOP, a long GC or a frozen VM) from answering before
 * it knows that its ZooKeeper session outlived the pause (issue 28, zombies).
 *
 * <p>A paused process learns that ZooKeeper expired its session only after it runs again, when its
 * ZooKeeper client reconnects; its RPC handlers run again at the same moment and would answer the
 * requests queued meanwhile: reads of regions the master has since reopened elsewhere (stale), and
 * writes (on HDFS the recovered log refuses them; on a local file system the master killed the
 * process before reopening them). So a clock thread ticks every {@code tick}; a request that finds
 * the last tick older than {@code threshold} (the process, or at least this thread, did not run for
 * that long) first asks ZooKeeper whether the session is alive: alive, the server serves on;
 * expired, the server aborts and the request gets RegionServerAbortedException; unknown (ZooKeeper
 * unreachable), the request gets a retryable error and the next one asks again. The clock thread
 * makes the same check itself, so a resumed server with no traffic aborts too.
 *
 * <p>A pause shorter than the threshold cannot have cost the session: ZooKeeper expires a session
 * after {@code zookeeper.session.timeout} without a word from it, and its client speaks every third
 * of that. Cost per request: one {@code System.nanoTime()} and a volatile read. What is left: a
 * pause that falls inside one request, between its check and its read, of which the answer is sent
 * after the pause; HBase has no guard at all.
 */
public final class PauseGuard implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PauseGuard.class);

  /** What the session says after a pause. */
  public enum Session {
    ALIVE,
    EXPIRED
  }

  /** Asks ZooKeeper about this server's session. */
  @FunctionalInterface
  public interface SessionCheck {
    /**
     * @throws IOException when ZooKeeper could not tell in time
     */
    Session check() throws IOException;
  }

  private final long tickNanos;
  private final long thresholdNanos;
  private final SessionCheck session;
  private final Consumer<String> abort;
  private final Supplier<ServerName> self;
  private final Thread ticker;
  private final Clock clock;
  private volatile long lastTick;
  private volatile boolean closed;
  private volatile boolean expired;

  /**
   * @param tickMillis how often the clock thread ticks
   * @param thresholdMillis a gap between ticks longer than this is a pause (below a third of the
   *     session timeout)
   * @param abort stops the server, given why
   * @param self the server's name, for messages
   * @param clock whose nanoTime measures the gaps
   */
  public PauseGuard(
      Clock clock,
      long tickMillis,
      long thresholdMillis,
      SessionCheck session,
      Consumer<String> abort,
      Supplier<ServerName> self) {
    if (tickMillis < 1 || thresholdMillis <= tickMillis) {
      throw new IllegalArgumentException(
          "pause threshold " + thresholdMillis + " ms must exceed the tick " + tickMillis + " ms");
    }
    this.tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMillis);
    this.thresholdNanos = TimeUnit.MILLISECONDS.toNanos(thresholdMillis);
    this.session = Objects.requireNonNull(session, "session");
    this.abort = Objects.requireNonNull(abort, "abort");
    this.self = Objects.requireNonNull(self, "self");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lastTick = clock.nanoTime();
    this.ticker = new Thread(this::run, "basalt-pause-guard");
    ticker.setDaemon(true);
  }

  public PauseGuard start() {
    lastTick = clock.nanoTime();
    ticker.start();
    return this;
  }

  /**
   * Returns at once unless the process was paused since the last tick; then returns once ZooKeeper
   * says the session is alive.
   *
   * @throws BasaltIOException RegionServerAbortedException when the session expired (the server
   *     aborts); ServerNotRunningYetException (retried by the client) when ZooKeeper cannot tell
   */
  public void check() throws BasaltIOException {
    if (expired) {
      throw RegionServerExceptions.aborting(self.get());
    }
    if (clock.nanoTime() - lastTick > thresholdNanos) {
      confirm();
    }
  }

  /** Asks ZooKeeper once for every thread that found the clock stale. */
  private synchronized void confirm() throws BasaltIOException {
    long gap = clock.nanoTime() - lastTick;
    if (expired) {
      throw RegionServerExceptions.aborting(self.get());
    }
    if (gap <= thresholdNanos) {
      return; // another thread confirmed the session meanwhile
    }
    long asked = clock.nanoTime(); // alive when answered means alive since at least now
    Session s;
    try {
      s = session.check();
    } catch (IOException e) {
      LOG.warn(
          "not serving: no tick for {} ms (a pause?) and ZooKeeper cannot confirm the session: {}",
          TimeUnit.NANOSECONDS.toMillis(gap),
          e.toString());
      throw new BasaltIOException(
          "Server "
              + self.get()
              + " is confirming its ZooKeeper session after a pause of "
              + TimeUnit.NANOSECONDS.toMillis(gap)
              + " ms",
          RegionServerExceptions.NOT_RUNNING_YET,
          false);
    }
    if (s == Session.EXPIRED) {
      expired = true;
      String why =
          "its ZooKeeper session expired during a pause of "
              + TimeUnit.NANOSECONDS.toMillis(gap)
              + " ms";
      LOG.error("aborting: {}", why);
      abort.accept(why);
      throw RegionServerExceptions.aborting(self.get());
    }
    LOG.info(
        "no tick for {} ms (a pause?); the ZooKeeper session is alive, serving on",
        TimeUnit.NANOSECONDS.toMillis(gap));
    lastTick = asked;
  }

  private void run() {
    while (!closed) {
      try {
        TimeUnit.NANOSECONDS.sleep(tickNanos);
      } catch (InterruptedException e) {
        return;
      }
      // the time read once: a pause right after the comparison leaves lastTick at the time
      // before it, so requests after the pause still ask ZooKeeper first
      long now = clock.nanoTime();
      if (now - lastTick <= thresholdNanos) {
        lastTick = now;
        continue;
      }
      try {
        confirm();
      } catch (BasaltIOException e) {
        if (expired) {
          return;
        }
        // ZooKeeper could not tell: ask again at the next tick
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    ticker.interrupt();
  }
}
