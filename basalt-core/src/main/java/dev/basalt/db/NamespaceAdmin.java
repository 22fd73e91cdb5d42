package dev.basalt.db;

import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

/**
 * Creates, changes and removes namespaces. {@code default} and {@code hbase} always exist and
 * cannot be removed; user tables go in any namespace ({@code hbase} too, as in HBase) except under
 * the names of HBase's system tables. A namespace is removed only when it holds no table. Changes
 * run under the database's DDL lock; reads do not need it. Thread-safe.
 */
final class NamespaceAdmin {
  /** HBase 2's system table of namespaces, {@code hbase:namespace}. */
  static final String NAMESPACE_TABLE = "namespace";

  private final Catalog catalog;

  /** The names of the tables that exist (counted when a namespace is removed). */
  private final Supplier<? extends Collection<TableName>> tables;

  private final Object ddl;
  private final Map<String, NamespaceDescriptor> namespaces = new ConcurrentSkipListMap<>();

  NamespaceAdmin(
      Catalog catalog,
      Supplier<? extends Collection<TableName>> tables,
      Object ddl,
      List<NamespaceDescriptor> existing) {
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
      for (TableName t : tables.get()) {
        if (t.getNamespaceAsString().equals(name)) {
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
   * Checks that a user table may be created under this name (call under the DDL lock). As in HBase,
   * the system namespace takes user tables too (HBase's Canary creates {@code hbase:canary}); only
   * the names of HBase's own system tables there are taken.
   *
   * @throws NamespaceNotFoundException when its namespace does not exist
   * @throws TableExistsException for {@code hbase:meta}, which always exists
   * @throws BasaltIOException (DoNotRetryIOException) for {@code hbase:namespace}, HBase 2's
   *     namespace table, whose name stays reserved although Basalt keeps namespaces in its catalog
   */
  void requireUserNamespace(TableName table) throws IOException {
    if (table.equals(TableName.META)) {
      throw new TableExistsException(table.getNameAsString());
    }
    if (table.isSystemTable() && table.getQualifierAsString().equals(NAMESPACE_TABLE)) {
      throw BasaltIOException.doNotRetry(
          "table name "
              + table.getNameAsString()
              + " is reserved: it is HBase's system table of namespaces");
    }
    get(table.getNamespaceAsString());
  }
}
