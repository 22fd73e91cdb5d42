package dev.basalt.fs;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Who holds a directory lock ({@link Storage#lockDirectory}): the one line a holder writes into the
 * lock file, {@code pid=<pid> start=<start millis> host=<host name>}. The process start time tells
 * a live holder from a later process that happens to reuse its pid; the host says whether the pid
 * means anything on the reader's machine at all (a master only signals processes of its own host).
 *
 * @param pid the holder's process id
 * @param startMillis when the holder's process started, ms since the epoch ({@link
 *     ProcessHandle.Info#startInstant}), or -1 when the platform does not say
 * @param host the holder's host name
 */
public record LockHolder(long pid, long startMillis, String host) {
  public LockHolder {
    if (host == null || host.isEmpty() || host.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("a host name without blanks is required: '" + host + "'");
    }
  }

  /** This process. */
  public static LockHolder current() {
    ProcessHandle self = ProcessHandle.current();
    long start = self.info().startInstant().map(i -> i.toEpochMilli()).orElse(-1L);
    return new LockHolder(self.pid(), start, localHostName());
  }

  /** The local host's name as {@link InetAddress#getLocalHost} gives it, or "localhost". */
  static String localHostName() {
    try {
      String h = InetAddress.getLocalHost().getHostName();
      return h == null || h.isBlank() ? "localhost" : h.replaceAll("\\s", "");
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /** The lock file line. */
  public String format() {
    return "pid=" + pid + " start=" + startMillis + " host=" + host;
  }

  /**
   * Reads a line {@link #format} wrote (surrounding blanks and a trailing newline are fine), or
   * returns null for text that is not one (an empty lock file, another tool's, damage).
   */
  public static LockHolder parse(String text) {
    if (text == null) {
      return null;
    }
    String[] parts = text.strip().split(" ");
    if (parts.length != 3
        || !parts[0].startsWith("pid=")
        || !parts[1].startsWith("start=")
        || !parts[2].startsWith("host=")) {
      return null;
    }
    try {
      long pid = Long.parseLong(parts[0].substring(4));
      long start = Long.parseLong(parts[1].substring(6));
      String host = parts[2].substring(5);
      if (pid <= 0 || host.isEmpty()) {
        return null;
      }
      return new LockHolder(pid, start, host);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Whether the holder ran on this host (so its pid can be looked up here). */
  public boolean isOnThisHost() {
    return host.equals(localHostName());
  }

  /**
   * Whether the holder is a live process of this host: its pid is alive and, when both start times
   * are known, started when the holder says (else the pid was reused by another process).
   */
  public boolean isAliveOnThisHost() {
    if (!isOnThisHost()) {
      return false;
    }
    return ProcessHandle.of(pid)
        .map(
            p -> {
              if (!p.isAlive()) {
                return false;
              }
              if (startMillis < 0) {
                return true;
              }
              return p.info()
                  .startInstant()
                  .map(i -> Math.abs(i.toEpochMilli() - startMillis) < 1000)
                  .orElse(true);
            })
        .orElse(false);
  }
}
