package dev.basalt.server.regionserver;

import dev.basalt.db.Database;
import dev.basalt.region.Region;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * The regions of a database, found by the name a request carries. HBase's client always sends the
 * full region name; an encoded name alone is not supported yet and gets a clear error.
 */
public final class DatabaseRegions implements RegionLookup {
  private final Database db;

  public DatabaseRegions(Database db) {
    this.db = db;
  }

  @Override
  public Region region(HBaseProtos.RegionSpecifier spec) throws IOException {
    if (MetaTable.isMeta(spec)) {
      throw BasaltIOException.doNotRetry(
          "hbase:meta is kept by the Basalt server from its catalog; it can be read (Get, Scan)"
              + " but not written, and it is not part of batches");
    }
    if (spec.getType() != HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME) {
      throw BasaltIOException.doNotRetry(
          "regions are looked up by full region name; " + spec.getType() + " is not supported");
    }
    return db.onlineRegion(spec.getValue().toByteArray());
  }
}
