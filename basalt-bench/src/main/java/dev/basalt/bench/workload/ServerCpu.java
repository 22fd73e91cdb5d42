package dev.basalt.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a server process has spent so far, every thread of it, read from outside its JVM in
 * {@code /proc/PID/stat} (utime + stime, in clock ticks of 10 ms). The process-wide counters also
 * keep the time of threads that have ended (a sum over {@code /proc/PID/task/*} would lose it), so
 * two readings around a phase's measured window give all the CPU the server spent in it: request
 * handlers, flushes, compactions, JIT and GC alike. Only meaningful when the client and the server
 * run on the same machine, as compare-hbase.sh runs them.
 */
final class ServerCpu {
  /** Linux's USER_HZ on every platform the JVM runs on. */
  static final long MILLIS_PER_TICK = 10;

  private ServerCpu() {}

  /**
   * The process's CPU time so far in milliseconds, or -1 when it cannot be read (gone, no /proc).
   */
  static long millis(long pid) {
    if (pid <= 0) {
      return -1;
    }
    try {
      return parseTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")))
          * MILLIS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** utime + stime of a stat line ("pid (comm) state ppid ... utime stime ..."), in ticks. */
  static long parseTicks(String statLine) {
    int close = statLine.lastIndexOf(')'); // the command name may hold ')' and spaces itself
    if (statLine.indexOf('(') < 0 || close < 0 || close + 2 > statLine.length()) {
      throw new IllegalArgumentException("not a /proc stat line: " + statLine);
    }
    String[] f = statLine.substring(close + 2).trim().split(" ");
    // after the name: state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
    // cmajflt utime(14) stime(15): indexes 11 and 12 here
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** CPU milliseconds between two readings, or -1 when either is missing. */
  static long between(long before, long after) {
    return before < 0 || after < 0 ? -1 : after - before;
  }
}
