package dev.basalt.bench.chaos;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one chaos action did: its name, what it hit, and its times in milliseconds ({@code
 * recoveryMillis}: from the fault to the last affected region OPEN again, -1 when the action has no
 * recovery), plus named figures (a standby's takeover, a fault point that fired...).
 */
public record ActionReport(
    String action, String target, long recoveryMillis, Map<String, Object> details) {
  public ActionReport {
    details = Collections.unmodifiableMap(new LinkedHashMap<>(details)); // in the order given
  }

  static Builder of(String action) {
    return new Builder(action);
  }

  /** Collects an action's figures as it runs. */
  static final class Builder {
    private final String action;
    private String target = "";
    private long recoveryMillis = -1;
    private final Map<String, Object> details = new LinkedHashMap<>();

    private Builder(String action) {
      this.action = action;
    }

    Builder target(String t) {
      this.target = t;
      return this;
    }

    Builder recovery(long millis) {
      this.recoveryMillis = millis;
      return this;
    }

    Builder detail(String key, Object value) {
      details.put(key, value);
      return this;
    }

    ActionReport build() {
      return new ActionReport(action, target, recoveryMillis, details);
    }
  }

  /** A detail as a number, or -1. */
  public long detailMillis(String key) {
    Object v = details.get(key);
    return v instanceof Number n ? n.longValue() : -1;
  }

  @Override
  public String toString() {
    return action
        + (target.isEmpty() ? "" : " " + target)
        + (recoveryMillis >= 0 ? ": recovered in " + recoveryMillis + " ms" : "")
        + (details.isEmpty() ? "" : " " + details);
  }
}
