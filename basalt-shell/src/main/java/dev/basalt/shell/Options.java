package dev.basalt.shell;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** A hash of {@code KEY => value} options with typed access and one-line usage errors. */
final class Options {
  private final String command;
  private final Map<String, Object> map;

  Options(String command, Map<String, Object> map) {
    this.command = command;
    this.map = map;
  }

  Map<String, Object> map() {
    return map;
  }

  String command() {
    return command;
  }

  boolean has(String key) {
    return map.containsKey(key);
  }

  /** Fails on a key outside {@code known}, suggesting the closest known key. */
  void allowOnly(Collection<String> known) throws UsageException {
    for (String key : map.keySet()) {
      if (!known.contains(key)) {
        String near = Suggest.closest(key, known);
        throw new UsageException(
            command
                + ": unknown option "
                + key
                + (near != null
                    ? "; did you mean " + near + "?"
                    : "; known: " + String.join(", ", known)));
      }
    }
  }

  ShellString string(String key) throws UsageException {
    Object v = map.get(key);
    if (v instanceof ShellString s) {
      return s;
    }
    if (v instanceof Long || v instanceof Boolean) {
      return ShellString.of(v.toString());
    }
    throw bad(key, "a string", v);
  }

  String text(String key) throws UsageException {
    return string(key).text();
  }

  byte[] bytes(String key) throws UsageException {
    return string(key).bytes();
  }

  long number(String key) throws UsageException {
    Object v = map.get(key);
    if (v instanceof Long l) {
      return l;
    }
    if (v instanceof ShellString s) {
      try {
        return Long.parseLong(s.text().trim());
      } catch (NumberFormatException e) {
        // fall through to the error
      }
    }
    throw bad(key, "a whole number", v);
  }

  int integer(String key) throws UsageException {
    long n = number(key);
    if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
      throw bad(key, "a number that fits in 32 bits", map.get(key));
    }
    return (int) n;
  }

  boolean bool(String key) throws UsageException {
    Object v = map.get(key);
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof ShellString s) {
      String t = s.text();
      if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
        return Boolean.parseBoolean(t);
      }
    }
    throw bad(key, "true or false", v);
  }

  /** A string or an array of strings. */
  List<ShellString> strings(String key) throws UsageException {
    Object v = map.get(key);
    List<ShellString> out = new ArrayList<>();
    if (v instanceof ShellString s) {
      out.add(s);
      return out;
    }
    if (v instanceof List<?> list) {
      for (Object o : list) {
        if (!(o instanceof ShellString s)) {
          throw bad(key, "a string or an array of strings", v);
        }
        out.add(s);
      }
      return out;
    }
    throw bad(key, "a string or an array of strings", v);
  }

  /** [from, to): two whole numbers. */
  long[] range(String key) throws UsageException {
    Object v = map.get(key);
    if (v instanceof List<?> list
        && list.size() == 2
        && list.get(0) instanceof Long a
        && list.get(1) instanceof Long b) {
      return new long[] {a, b};
    }
    throw bad(key, "[from, to], two timestamps in milliseconds", v);
  }

  Map<String, Object> hash(String key) throws UsageException {
    Object v = map.get(key);
    if (v instanceof Map<?, ?> m) {
      @SuppressWarnings("unchecked")
      Map<String, Object> h = (Map<String, Object>) m;
      return h;
    }
    throw bad(key, "a hash such as {'key' => 'value'}", v);
  }

  private UsageException bad(String key, String expected, Object got) {
    return new UsageException(
        command + ": " + key + " must be " + expected + ", got " + Arguments.shown(got));
  }
}
