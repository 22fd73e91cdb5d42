package dev.basalt.util;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Named points in engine code where a test can inject a failure: an exception, an immediate halt of
 * the JVM (a crash at an exact step), or any custom action. Engine code calls {@link #hit(String)}
 * at each step worth testing; when nothing is armed that is one volatile read.
 *
 * <p>Points can be armed in-process with {@link #arm} or, for child JVMs in crash tests, with the
 * system property {@code basalt.faultpoints=name=halt,other=throw}.
 */
public final class FaultPoints {
  /** What an armed fault point does when reached. */
  @FunctionalInterface
  public interface Action {
    void run(String point);
  }

  /** Throws {@link InjectedFault}. */
  public static final Action THROW =
      point -> {
        throw new InjectedFault(point);
      };

  /** Stops the JVM at once, as {@code kill -9} would: no shutdown hooks, no flushing. */
  public static final Action HALT = point -> Runtime.getRuntime().halt(137);

  private static final Map<String, Action> ARMED = new ConcurrentHashMap<>();
  private static volatile boolean anyArmed;

  static {
    String spec = System.getProperty("basalt.faultpoints");
    if (spec != null && !spec.isBlank()) {
      for (String part : spec.split(",")) {
        String[] kv = part.trim().split("=", 2);
        String action = kv.length == 2 ? kv[1].trim() : "throw";
        switch (action) {
          case "halt":
            arm(kv[0].trim(), HALT);
            break;
          case "throw":
            arm(kv[0].trim(), THROW);
            break;
          default:
            throw new IllegalArgumentException(
                "basalt.faultpoints: unknown action '" + action + "' (use halt or throw)");
        }
      }
    }
  }

  private FaultPoints() {}

  /** Marks a step; runs the armed action, if any. */
  public static void hit(String point) {
    if (anyArmed) {
      Action a = ARMED.get(point);
      if (a != null) {
        a.run(point);
      }
    }
  }

  public static synchronized void arm(String point, Action action) {
    ARMED.put(point, action);
    anyArmed = true;
  }

  public static synchronized void disarm(String point) {
    ARMED.remove(point);
    anyArmed = !ARMED.isEmpty();
  }

  public static synchronized void disarmAll() {
    ARMED.clear();
    anyArmed = false;
  }

  /** The failure {@link #THROW} raises. */
  public static final class InjectedFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InjectedFault(String point) {
      super("injected fault at " + point);
    }
  }
}
