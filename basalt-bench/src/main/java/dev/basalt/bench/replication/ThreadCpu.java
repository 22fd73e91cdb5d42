package dev.basalt.bench.replication;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of a process's threads from {@code /proc/PID/task/TID/stat} (utime + stime, in clock
 * ticks of 10 ms), read from outside the JVM so that measuring costs the server nothing. Two
 * snapshots taken around a phase give the CPU each thread spent in it; threads are keyed by id, and
 * the name kept with each, so that the replication source's threads ({@code replication-...}) can
 * be told from the rest.
 */
final class ThreadCpu {
  /** Linux's USER_HZ on every platform the JVM runs on. */
  static final long MILLIS_PER_TICK = 10;

  private final Map<Long, Entry> threads;

  record Entry(String name, long ticks) {}

  private ThreadCpu(Map<Long, Entry> threads) {
    this.threads = threads;
  }

  /** The threads of {@code pid} now; an empty snapshot if the process is gone. */
  static ThreadCpu of(long pid) {
    Map<Long, Entry> threads = new HashMap<>();
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks)) {
      for (Path d : dirs) {
        try {
          String line = Files.readString(d.resolve("stat"));
          threads.put(Long.parseLong(d.getFileName().toString()), parse(line));
        } catch (IOException | RuntimeException e) {
          // the thread ended between the listing and the read: it counts as gone
        }
      }
    } catch (IOException e) {
      return new ThreadCpu(Map.of());
    }
    return new ThreadCpu(threads);
  }

  /** Name and utime + stime of one stat line ("tid (comm) state ... utime stime ..."). */
  static Entry parse(String statLine) {
    int open = statLine.indexOf('(');
    int close = statLine.lastIndexOf(')'); // a thread name may hold ')' itself
    if (open < 0 || close < open) {
      throw new IllegalArgumentException("not a stat line: " + statLine);
    }
    String name = statLine.substring(open + 1, close);
    String[] f = statLine.substring(close + 2).trim().split(" ");
    // after the name: state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
    // cmajflt utime(14) stime(15): indexes 11 and 12 here
    return new Entry(name, Long.parseLong(f[11]) + Long.parseLong(f[12]));
  }

  /** Milliseconds of CPU spent since {@code before} by every thread. */
  long millisSince(ThreadCpu before) {
    return millisSince(before, "");
  }

  /**
   * Milliseconds of CPU spent since {@code before} by the threads whose name starts with {@code
   * prefix} (a thread started meanwhile counts from 0).
   */
  long millisSince(ThreadCpu before, String prefix) {
    long ticks = 0;
    for (Map.Entry<Long, Entry> e : threads.entrySet()) {
      if (!e.getValue().name().startsWith(prefix)) {
        continue;
      }
      Entry then = before.threads.get(e.getKey());
      ticks += e.getValue().ticks() - (then == null ? 0 : then.ticks());
    }
    return ticks * MILLIS_PER_TICK;
  }
}
