package dev.basalt.shell;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;

/** The arguments of one command call, with typed access and one-line usage errors. */
final class Arguments {
  private final String command;
  private final List<Object> values;

  Arguments(String command, List<Object> values) {
    this.command = command;
    this.values = values;
  }

  String command() {
    return command;
  }

  int count() {
    return values.size();
  }

  Object get(int i) {
    return i < values.size() ? values.get(i) : null;
  }

  boolean has(int i) {
    return i < values.size();
  }

  boolean isHash(int i) {
    return get(i) instanceof Map<?, ?>;
  }

  boolean isString(int i) {
    return get(i) instanceof ShellString;
  }

  /** Fails unless there are between min and max arguments. */
  void expect(int min, int max, String usage) throws UsageException {
    if (values.size() < min || values.size() > max) {
      throw new UsageException(
          command
              + " takes "
              + describe(min, max)
              + " (got "
              + values.size()
              + "); usage: "
              + usage);
    }
  }

  private static String describe(int min, int max) {
    if (min == max) {
      return min + (min == 1 ? " argument" : " arguments");
    }
    return max == Integer.MAX_VALUE
        ? "at least " + min + " arguments"
        : min + " to " + max + " arguments";
  }

  ShellString string(int i, String what) throws UsageException {
    Object v = get(i);
    if (v instanceof ShellString s) {
      return s;
    }
    if (v instanceof Long l) {
      return ShellString.of(Long.toString(l));
    }
    throw new UsageException(
        command + ": argument " + (i + 1) + " must be " + what + " in quotes, got " + shown(v));
  }

  String text(int i, String what) throws UsageException {
    return string(i, what).text();
  }

  byte[] bytes(int i, String what) throws UsageException {
    return string(i, what).bytes();
  }

  long number(int i, String what) throws UsageException {
    Object v = get(i);
    if (v instanceof Long l) {
      return l;
    }
    throw new UsageException(
        command
            + ": argument "
            + (i + 1)
            + " must be "
            + what
            + " (a whole number), got "
            + shown(v));
  }

  TableName table(int i) throws UsageException {
    return tableName(command, text(i, "a table name"));
  }

  static TableName tableName(String command, String name) throws UsageException {
    try {
      return TableName.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          command + ": bad table name '" + name + "': " + firstLine(e.getMessage()));
    }
  }

  /** The hash at {@code i} as options, or no options when there is no argument there. */
  Options options(int i) throws UsageException {
    Object v = get(i);
    if (v == null && !has(i)) {
      return new Options(command, Map.of());
    }
    if (v instanceof Map<?, ?> m) {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) m;
      return new Options(command, map);
    }
    throw new UsageException(
        command
            + ": argument "
            + (i + 1)
            + " must be a hash of options such as {LIMIT => 10}, got "
            + shown(v));
  }

  static String shown(Object v) {
    String s = Literals.render(v);
    return s.length() > 40 ? s.substring(0, 37) + "..." : s;
  }

  static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).trim();
  }
}
