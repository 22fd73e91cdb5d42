package dev.basalt.shell;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Writes parsed values back as shell literals (the inverse of {@link StatementParser}). */
final class Literals {
  private Literals() {}

  static String render(Object value) {
    StringBuilder sb = new StringBuilder();
    append(sb, value);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Object value) {
    if (value == null) {
      sb.append("nil");
    } else if (value instanceof ShellString s) {
      appendString(sb, s.bytes());
    } else if (value instanceof Long || value instanceof Boolean) {
      sb.append(value);
    } else if (value instanceof List<?> list) {
      sb.append('[');
      for (int i = 0; i < list.size(); i++) {
        sb.append(i == 0 ? "" : ", ");
        append(sb, list.get(i));
      }
      sb.append(']');
    } else if (value instanceof Map<?, ?> map) {
      sb.append('{');
      Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        appendString(sb, ShellString.of((String) e.getKey()).bytes());
        sb.append(" => ");
        append(sb, e.getValue());
        sb.append(it.hasNext() ? ", " : "");
      }
      sb.append('}');
    } else {
      throw new IllegalArgumentException("not a shell value: " + value.getClass().getName());
    }
  }

  /** Double-quoted; printable ASCII as is, every other byte as \xNN. */
  private static void appendString(StringBuilder sb, byte[] bytes) {
    sb.append('"');
    for (byte b : bytes) {
      int c = b & 0xff;
      if (c == '"' || c == '\\') {
        sb.append('\\').append((char) c);
      } else if (c >= 0x20 && c < 0x7f) {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    sb.append('"');
  }
}
