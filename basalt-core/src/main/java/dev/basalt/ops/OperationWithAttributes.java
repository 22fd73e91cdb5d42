package dev.basalt.ops;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Named byte attributes an operation carries (HBase's {@code OperationWithAttributes}); the engine
 * passes them through untouched.
 */
public abstract class OperationWithAttributes {
  private Map<String, byte[]> attributes;

  public OperationWithAttributes setAttribute(String name, byte[] value) {
    if (attributes == null) {
      attributes = new LinkedHashMap<>();
    }
    if (value == null) {
      attributes.remove(name);
    } else {
      attributes.put(name, value);
    }
    return this;
  }

  public byte[] getAttribute(String name) {
    return attributes == null ? null : attributes.get(name);
  }

  public Map<String, byte[]> getAttributesMap() {
    return attributes == null ? Map.of() : Collections.unmodifiableMap(attributes);
  }
}
