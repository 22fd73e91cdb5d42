package dev.basalt.region;

import dev.basalt.cell.KeyValue;
import dev.basalt.memstore.Memstore;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.ColumnFamilyDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * One column family of one region: its memstore (and, once store files exist, its files).
 * Thread-safe.
 */
final class Store {
  private final ColumnFamilyDescriptor family;
  private final byte[] familyName;
  private final Memstore memstore = new Memstore();

  Store(ColumnFamilyDescriptor family) {
    this.family = family;
    this.familyName = family.getName();
  }

  byte[] familyName() {
    return familyName;
  }

  ColumnFamilyDescriptor family() {
    return family;
  }

  /** Adds a cell carrying its sequence id; returns the memstore size change. */
  long add(KeyValue kv) {
    return memstore.add(kv);
  }

  /** Removes cells of a mutation that failed before it committed; returns the size change. */
  long rollback(KeyValue kv) {
    return memstore.remove(kv);
  }

  /** Fresh, unpositioned scanners over everything a reader at {@code readPoint} may see. */
  List<KeyValueScanner> scanners(long readPoint) {
    List<KeyValueScanner> out = new ArrayList<>(1);
    out.add(memstore.scanner(readPoint));
    return out;
  }

  long memstoreSize() {
    return memstore.heapSize();
  }
}
