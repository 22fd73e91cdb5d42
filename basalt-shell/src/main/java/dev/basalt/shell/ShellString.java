package dev.basalt.shell;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A string literal of the shell language. HBase shell strings are Ruby byte strings ("\x00" is one
 * zero byte), so the value is bytes; {@link #text()} reads them as UTF-8 where a name is wanted
 * (tables, families, option values).
 */
final class ShellString {
  private final byte[] bytes;

  ShellString(byte[] bytes) {
    this.bytes = bytes.clone();
  }

  static ShellString of(String text) {
    return new ShellString(text.getBytes(StandardCharsets.UTF_8));
  }

  byte[] bytes() {
    return bytes.clone();
  }

  String text() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShellString s && Arrays.equals(bytes, s.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** The value as a double-quoted literal that parses back to the same bytes. */
  @Override
  public String toString() {
    return Literals.render(this);
  }
}
