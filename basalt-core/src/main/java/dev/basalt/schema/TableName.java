package dev.basalt.schema;

import dev.basalt.cell.Bytes;

/**
 * A table's namespace and qualifier, written {@code ns:table} ({@code default} namespace when
 * omitted). Validated with HBase's rules: namespaces are letters, digits and '_'; qualifiers also
 * allow '-' and '.', but cannot start with either. Immutable.
 */
public final class TableName implements Comparable<TableName> {
  public static final String DEFAULT_NAMESPACE = "default";
  public static final String SYSTEM_NAMESPACE = "hbase";
  public static final TableName META = new TableName(SYSTEM_NAMESPACE, "meta");

  private final String namespace;
  private final String qualifier;

  private TableName(String namespace, String qualifier) {
    this.namespace = namespace;
    this.qualifier = qualifier;
  }

  /**
   * Parses {@code table} or {@code namespace:table}.
   *
   * @throws IllegalArgumentException naming the illegal character and its position
   */
  public static TableName valueOf(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("table name cannot be empty");
    }
    int colon = name.indexOf(':');
    if (colon < 0) {
      return valueOf(DEFAULT_NAMESPACE, name);
    }
    return valueOf(name.substring(0, colon), name.substring(colon + 1));
  }

  public static TableName valueOf(byte[] name) {
    return valueOf(Bytes.toString(name));
  }

  public static TableName valueOf(String namespace, String qualifier) {
    checkNamespace(namespace);
    checkQualifier(qualifier);
    return new TableName(namespace, qualifier);
  }

  /**
   * @throws IllegalArgumentException when the namespace name is not legal
   */
  public static String checkNamespace(String ns) {
    if (ns == null || ns.isEmpty()) {
      throw new IllegalArgumentException("namespace name cannot be empty");
    }
    for (int i = 0; i < ns.length(); i++) {
      char c = ns.charAt(i);
      if (!(Character.isLetterOrDigit(c) && c < 128) && c != '_') {
        throw new IllegalArgumentException(
            "illegal character '"
                + printable(c)
                + "' at position "
                + i
                + " of namespace '"
                + ns
                + "': namespaces may contain only letters, digits and '_'");
      }
    }
    return ns;
  }

  private static void checkQualifier(String q) {
    if (q == null || q.isEmpty()) {
      throw new IllegalArgumentException("table qualifier cannot be empty");
    }
    if (q.charAt(0) == '.' || q.charAt(0) == '-') {
      throw new IllegalArgumentException(
          "table name '" + q + "' cannot start with '" + q.charAt(0) + "'");
    }
    for (int i = 0; i < q.length(); i++) {
      char c = q.charAt(i);
      if (!(Character.isLetterOrDigit(c) && c < 128) && c != '_' && c != '-' && c != '.') {
        throw new IllegalArgumentException(
            "illegal character '"
                + printable(c)
                + "' at position "
                + i
                + " of table name '"
                + q
                + "': table names may contain only letters, digits, '_', '-' and '.'");
      }
    }
  }

  private static String printable(char c) {
    return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
  }

  public String getNamespaceAsString() {
    return namespace;
  }

  public String getQualifierAsString() {
    return qualifier;
  }

  /** {@code ns:table}, or just {@code table} in the default namespace (HBase's form). */
  public String getNameAsString() {
    return DEFAULT_NAMESPACE.equals(namespace) ? qualifier : namespace + ":" + qualifier;
  }

  public byte[] getName() {
    return Bytes.toBytes(getNameAsString());
  }

  public boolean isSystemTable() {
    return SYSTEM_NAMESPACE.equals(namespace);
  }

  @Override
  public int compareTo(TableName o) {
    int c = namespace.compareTo(o.namespace);
    return c != 0 ? c : qualifier.compareTo(o.qualifier);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableName
        && ((TableName) o).namespace.equals(namespace)
        && ((TableName) o).qualifier.equals(qualifier);
  }

  @Override
  public int hashCode() {
    return namespace.hashCode() * 31 + qualifier.hashCode();
  }

  @Override
  public String toString() {
    return getNameAsString();
  }
}
