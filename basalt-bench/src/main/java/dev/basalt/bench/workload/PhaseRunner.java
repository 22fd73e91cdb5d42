package dev.basalt.bench.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the phases of one invocation against one store: the load, then workloads, each with its own
 * threads, sessions, statistics and progress lines. The insert sequence carries over from phase to
 * phase, so records inserted by D are known to the phases after it, until a reload: that drops and
 * re-creates the table and loads the records again, as YCSB's procedure does before E (D's inserts
 * would otherwise change what E scans, and E would read a table other workloads' updates have
 * aged).
 */
final class PhaseRunner {
  private final RunnerOptions options;
  private final DataStore store;
  private InsertSequence inserts;
  private final PrintStream out;
  private int phaseIndex;
  private boolean opLogStarted; // the first run phase replaces what the op log file held

  PhaseRunner(RunnerOptions options, DataStore store, PrintStream out) {
    this.options = options;
    this.store = store;
    this.inserts = new InsertSequence(options.records());
    this.out = out;
  }

  PhaseResult runPhase(String phase) throws IOException, InterruptedException {
    phaseIndex++;
    return switch (phase) {
      case "load" -> load(phase, "insert " + options.records() + " records");
      case "reload" -> {
        store.prepareTable(true, options.regions());
        inserts = new InsertSequence(options.records());
        yield load(phase, "drop and re-create the table, insert " + options.records() + " records");
      }
      default -> workload(options.workload(phase));
    };
  }

  private PhaseResult load(String phase, String description)
      throws IOException, InterruptedException {
    PhaseControl control = new PhaseControl(options.records(), false);
    OperationStats stats = new OperationStats();
    AtomicLong nextRecord = new AtomicLong();
    List<DataStore.Session> sessions = new ArrayList<>();
    List<Runnable> workers = new ArrayList<>();
    try {
      for (int t = 0; t < options.threads(); t++) {
        DataStore.Session s = store.openSession();
        sessions.add(s);
        workers.add(
            new LoadWorker(
                control,
                s,
                stats,
                throttle(),
                nextRecord,
                options.records(),
                options.fieldCount(),
                options.fieldLength(),
                random(t)));
      }
      return execute(phase, description, "-", control, stats, workers, 0, 0);
    } finally {
      closeAll(sessions);
    }
  }

  private PhaseResult workload(WorkloadSpec spec) throws IOException, InterruptedException {
    PhaseControl control = new PhaseControl(options.operations(), options.warmupSeconds() > 0);
    OperationStats stats = new OperationStats();
    List<DataStore.Session> sessions = new ArrayList<>();
    List<Runnable> workers = new ArrayList<>();
    OpLog log = options.opLogFile() == null ? null : new OpLog();
    try {
      for (int t = 0; t < options.threads(); t++) {
        DataStore.Session s = store.openSession();
        sessions.add(s);
        SplittableRandom random = random(t);
        workers.add(
            new TransactionWorker(
                control,
                s,
                stats,
                log == null ? null : log.writer(),
                throttle(),
                spec,
                KeyChoosers.forWorkload(spec, inserts, options.operations(), random),
                inserts,
                options.fieldCount(),
                options.fieldLength(),
                random));
      }
      long start = System.nanoTime();
      PhaseResult result =
          execute(
              spec.name(),
              spec.description(),
              spec.distribution().label(),
              control,
              stats,
              workers,
              options.warmupSeconds(),
              options.maxSeconds());
      if (log != null) {
        log.appendTo(Path.of(options.opLogFile()), !opLogStarted, spec.name(), start);
        opLogStarted = true;
      }
      return result;
    } finally {
      closeAll(sessions);
    }
  }

  /** Each worker of each phase gets its own stream, derived from the run's seed. */
  private SplittableRandom random(int thread) {
    return new SplittableRandom(options.seed() * 1_000_003L + phaseIndex * 1009L + thread);
  }

  private Throttle throttle() {
    double perThread = options.targetOpsPerSecond() / options.threads();
    return perThread > 0 ? new Throttle(perThread, System.nanoTime()) : Throttle.unlimited();
  }

  private PhaseResult execute(
      String phase,
      String description,
      String distribution,
      PhaseControl control,
      OperationStats stats,
      List<Runnable> workers,
      long warmupSeconds,
      long maxSeconds)
      throws InterruptedException {
    long start = System.nanoTime();
    ProgressReporter progress = new ProgressReporter(out, options.label(), phase, start);
    ScheduledExecutorService status =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "workload-status");
              t.setDaemon(true);
              return t;
            });
    long interval = options.statusIntervalSeconds();
    status.scheduleAtFixedRate(
        () -> progress.report(control, stats, System.nanoTime()),
        interval,
        interval,
        TimeUnit.SECONDS);

    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < workers.size(); i++) {
      Thread t = new Thread(workers.get(i), "workload-" + phase + "-" + i);
      threads.add(t);
      t.start();
    }
    if (warmupSeconds > 0) {
      joinUntil(threads, System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds));
      control.startMeasuring();
    }
    long cpuBefore = ServerCpu.millis(options.serverPid());
    long measureStart = System.nanoTime();
    long deadline =
        maxSeconds > 0 ? measureStart + TimeUnit.SECONDS.toNanos(maxSeconds) : Long.MAX_VALUE;
    joinUntil(threads, deadline);
    control.stop();
    joinUntil(threads, Long.MAX_VALUE);
    long measureEnd = System.nanoTime();
    long cpuAfter = ServerCpu.millis(options.serverPid());
    status.shutdownNow();
    status.awaitTermination(1, TimeUnit.MINUTES);
    stats.sample();

    Throwable error = control.firstError();
    if (error != null) {
      out.println("[" + options.label() + " " + phase + "] first error: " + error);
    }
    return new PhaseResult(
        phase,
        description,
        distribution,
        options.threads(),
        options.targetOpsPerSecond(),
        stats.completedCount(),
        (measureEnd - measureStart) / 1e9,
        stats.results(),
        ServerCpu.between(cpuBefore, cpuAfter));
  }

  /** Waits for every thread, or until {@code deadline} (System.nanoTime), whichever is first. */
  private static void joinUntil(List<Thread> threads, long deadline) throws InterruptedException {
    for (Thread t : threads) {
      if (deadline == Long.MAX_VALUE) {
        t.join();
        continue;
      }
      while (t.isAlive()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        TimeUnit.NANOSECONDS.timedJoin(t, Math.min(left, TimeUnit.SECONDS.toNanos(1)));
      }
    }
  }

  private static void closeAll(List<DataStore.Session> sessions) throws IOException {
    IOException first = null;
    for (DataStore.Session s : sessions) {
      try {
        s.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
