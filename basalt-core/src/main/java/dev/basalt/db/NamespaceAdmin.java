package dev.basalt.db;

import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Creates, changes and removes namespaces. {@code default} and {@code hbase} always exist and
 * cannot be removed; user tables go anywhere but {@code hbase}, which is reserved for system
 * tables. A namespace is removed only when it holds no table. Changes run under the database's DDL
 * lock; reads do not need it. Thread-safe.
 */
final class NamespaceAdmin {
  private final Catalog catalog;
  private final LiveTables tables;
  private final Object ddl;
  private final Map<String, NamespaceDescriptor> namespaces = new ConcurrentSkipListMap<>();

  NamespaceAdmin(
      Catalog catalog, LiveTables tables, Object ddl, List<NamespaceDescriptor> existing) {
    this.catalog = catalog;
    this.tables = tables;
    this.ddl = ddl;
    for (NamespaceDescriptor d : existing) {
      namespaces.put(d.getName(), d);
    }
  }

  void create(NamespaceDescriptor ns) throws IOException {
    synchronized (ddl) {
      if (namespaces.containsKey(ns.getName())) {
        throw new NamespaceExistException("namespace '" + ns.getName() + "' already exists");
      }
      catalog.writeNamespace(ns);
      namespaces.put(ns.getName(), ns);
    }
  }

  void modify(NamespaceDescriptor ns) throws IOException {
    synchronized (ddl) {
      get(ns.getName());
      catalog.writeNamespace(ns);
      namespaces.put(ns.getName(), ns);
    }
  }

  void delete(String name) throws IOException {
    synchronized (ddl) {
      if (NamespaceDescriptor.isReserved(name)) {
        throw new ConstraintException("Reserved namespace " + name + " cannot be removed.");
      }
      get(name);
      int n = 0;
      for (LiveTable t : tables.all()) {
        if (t.name().getNamespaceAsString().equals(name)) {
          n++;
        }
      }
      if (n > 0) {
        throw new ConstraintException(
            "Only empty namespaces can be removed. Namespace " + name + " has " + n + " table(s)");
      }
      catalog.deleteNamespace(name);
      namespaces.remove(name);
    }
  }

  /**
   * @throws NamespaceNotFoundException when it does not exist
   */
  NamespaceDescriptor get(String name) throws NamespaceNotFoundException {
    NamespaceDescriptor d = namespaces.get(name);
    if (d == null) {
      throw new NamespaceNotFoundException("namespace '" + name + "' does not exist");
    }
    return d;
  }

  List<NamespaceDescriptor> list() {
    return new ArrayList<>(namespaces.values());
  }

  /**
   * Checks that a user table may be created under this name (call under the DDL lock).
   *
   * @throws NamespaceNotFoundException when its namespace does not exist
   * @throws ConstraintException when it is the system namespace
   */
  void requireUserNamespace(TableName table) throws IOException {
    String ns = table.getNamespaceAsString();
    if (TableName.SYSTEM_NAMESPACE.equals(ns)) {
      throw new ConstraintException(
          "namespace '"
              + ns
              + "' is reserved for system tables; cannot create "
              + table.getNameAsString());
    }
    get(ns);
  }
}
