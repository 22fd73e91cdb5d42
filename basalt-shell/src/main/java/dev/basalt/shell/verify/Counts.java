package dev.basalt.shell.verify;

import java.io.PrintWriter;

/** The counters of one table (or the sum over several); single-threaded. */
final class Counts {
  private final long[] values = new long[Counter.values().length];
  private long rechecks;
  private long recheckedGood;

  void good() {
    values[Counter.GOODROWS.ordinal()]++;
  }

  /** A row found bad for {@code reason} (one of {@link Counter#REASONS}), finally. */
  void bad(Counter reason) {
    values[Counter.BADROWS.ordinal()]++;
    values[reason.ordinal()]++;
  }

  /** One re-check of a row, and whether it found the row good. */
  void recheck(boolean good) {
    rechecks++;
    if (good) {
      recheckedGood++;
    }
  }

  long get(Counter c) {
    return values[c.ordinal()];
  }

  long rechecks() {
    return rechecks;
  }

  long recheckedGood() {
    return recheckedGood;
  }

  void add(Counts other) {
    for (int i = 0; i < values.length; i++) {
      values[i] += other.values[i];
    }
    rechecks += other.rechecks;
    recheckedGood += other.recheckedGood;
  }

  /** One COUNTER=value line each, in HBase's order, indented. */
  void print(PrintWriter out, String indent) {
    for (Counter c : Counter.values()) {
      out.println(indent + c.name() + "=" + get(c));
    }
  }
}
