package dev.basalt.bench.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON this module needs for its result files: writing maps, lists, strings, numbers,
 * booleans and nulls, and parsing them back (objects to LinkedHashMap, arrays to ArrayList,
 * integers to Long, other numbers to Double). Not a general-purpose library: no streaming, and
 * errors name the offset where parsing stopped.
 */
final class Json {
  private Json() {}

  static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb, 0);
    return sb.toString();
  }

  private static void write(Object value, StringBuilder sb, int indent) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String s) {
      quote(s, sb);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      sb.append(Double.isFinite(d) ? Double.toString(d) : "null");
    } else if (value instanceof Number || value instanceof Boolean) {
      sb.append(value);
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        sb.append("{}");
        return;
      }
      sb.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        pad(sb, indent + 2);
        quote(String.valueOf(e.getKey()), sb);
        sb.append(": ");
        write(e.getValue(), sb, indent + 2);
        sb.append(++i < map.size() ? ",\n" : "\n");
      }
      pad(sb, indent);
      sb.append('}');
    } else if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        sb.append("[]");
        return;
      }
      sb.append("[\n");
      for (int i = 0; i < list.size(); i++) {
        pad(sb, indent + 2);
        write(list.get(i), sb, indent + 2);
        sb.append(i + 1 < list.size() ? ",\n" : "\n");
      }
      pad(sb, indent);
      sb.append(']');
    } else {
      throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
    }
  }

  private static void pad(StringBuilder sb, int n) {
    sb.append(" ".repeat(n));
  }

  private static void quote(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  static Object parse(String text) {
    Parser p = new Parser(text);
    Object v = p.value();
    p.skipSpace();
    if (p.at < text.length()) {
      throw p.error("unexpected text after the value");
    }
    return v;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value, String what) {
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException(what + " is not a JSON object");
    }
    return (Map<String, Object>) value;
  }

  static List<Object> array(Object value, String what) {
    if (!(value instanceof List<?> list)) {
      throw new IllegalArgumentException(what + " is not a JSON array");
    }
    return new ArrayList<>(list);
  }

  static String string(Map<String, Object> object, String key) {
    if (!(object.get(key) instanceof String s)) {
      throw new IllegalArgumentException("field '" + key + "' is missing or not a string");
    }
    return s;
  }

  static Number number(Map<String, Object> object, String key) {
    if (!(object.get(key) instanceof Number n)) {
      throw new IllegalArgumentException("field '" + key + "' is missing or not a number");
    }
    return n;
  }

  private static final class Parser {
    private final String s;
    private int at;

    Parser(String s) {
      this.s = s;
    }

    IllegalArgumentException error(String problem) {
      return new IllegalArgumentException("JSON at offset " + at + ": " + problem);
    }

    void skipSpace() {
      while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
        at++;
      }
    }

    Object value() {
      skipSpace();
      if (at >= s.length()) {
        throw error("unexpected end");
      }
      char c = s.charAt(at);
      if (c == '{') {
        return object();
      }
      if (c == '[') {
        return array();
      }
      if (c == '"') {
        return string();
      }
      if (s.startsWith("true", at)) {
        at += 4;
        return Boolean.TRUE;
      }
      if (s.startsWith("false", at)) {
        at += 5;
        return Boolean.FALSE;
      }
      if (s.startsWith("null", at)) {
        at += 4;
        return null;
      }
      if (c == '-' || (c >= '0' && c <= '9')) {
        return number();
      }
      throw error("unexpected character '" + c + "'");
    }

    private Map<String, Object> object() {
      Map<String, Object> m = new LinkedHashMap<>();
      at++; // {
      skipSpace();
      if (at < s.length() && s.charAt(at) == '}') {
        at++;
        return m;
      }
      while (true) {
        skipSpace();
        if (at >= s.length() || s.charAt(at) != '"') {
          throw error("expected a field name");
        }
        String key = string();
        skipSpace();
        expect(':');
        m.put(key, value());
        skipSpace();
        if (at < s.length() && s.charAt(at) == ',') {
          at++;
          continue;
        }
        expect('}');
        return m;
      }
    }

    private List<Object> array() {
      List<Object> l = new ArrayList<>();
      at++; // [
      skipSpace();
      if (at < s.length() && s.charAt(at) == ']') {
        at++;
        return l;
      }
      while (true) {
        l.add(value());
        skipSpace();
        if (at < s.length() && s.charAt(at) == ',') {
          at++;
          continue;
        }
        expect(']');
        return l;
      }
    }

    private void expect(char c) {
      if (at >= s.length() || s.charAt(at) != c) {
        throw error("expected '" + c + "'");
      }
      at++;
    }

    private String string() {
      at++; // opening quote
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (at >= s.length()) {
          throw error("unterminated string");
        }
        char c = s.charAt(at++);
        if (c == '"') {
          return sb.toString();
        }
        if (c != '\\') {
          sb.append(c);
          continue;
        }
        if (at >= s.length()) {
          throw error("unterminated escape");
        }
        char e = s.charAt(at++);
        switch (e) {
          case '"', '\\', '/' -> sb.append(e);
          case 'n' -> sb.append('\n');
          case 'r' -> sb.append('\r');
          case 't' -> sb.append('\t');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'u' -> {
            if (at + 4 > s.length()) {
              throw error("short \\u escape");
            }
            try {
              sb.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("bad \\u escape");
            }
            at += 4;
          }
          default -> throw error("bad escape '\\" + e + "'");
        }
      }
    }

    private Number number() {
      int start = at;
      boolean integral = true;
      while (at < s.length()) {
        char c = s.charAt(at);
        if (c == '.' || c == 'e' || c == 'E') {
          integral = false;
        } else if (!(c == '-' || c == '+' || (c >= '0' && c <= '9'))) {
          break;
        }
        at++;
      }
      String t = s.substring(start, at);
      try {
        return integral ? (Number) Long.parseLong(t) : (Number) Double.parseDouble(t);
      } catch (NumberFormatException e) {
        at = start;
        throw error("bad number '" + t + "'");
      }
    }
  }
}
