package dev.basalt.db;

import dev.basalt.fs.Storage;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens a table's regions from their directories ({@link Catalog#regionDir}), with the database's
 * services (WAL, block cache, background work) and each region's sequence floor. Thread-safe.
 */
final class RegionOpener {
  private final Storage storage;
  private final RegionServices services;

  RegionOpener(Storage storage, RegionServices services) {
    this.storage = storage;
    this.services = services;
  }

  Region open(RegionInfo info, TableDescriptor desc, long sequenceFloor) throws IOException {
    String dir = Catalog.regionDir(info);
    return Region.open(info, desc, services, storage, dir, Catalog.archiveOf(dir), sequenceFloor);
  }

  /** Opens every region of the set; on failure closes those already open. */
  RegionMap openAll(TableDescriptor desc, RegionSet set) throws IOException {
    List<ServedRegion> open = new ArrayList<>(set.members().size());
    try {
      for (RegionSet.Member m : set.members()) {
        open.add(new ServedRegion(open(m.info(), desc, m.sequenceFloor())));
      }
    } catch (IOException | RuntimeException e) {
      for (ServedRegion r : open) {
        r.region().close();
      }
      throw e;
    }
    return new RegionMap(open);
  }
}
