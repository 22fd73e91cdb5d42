package dev.basalt.server.regionserver;

import dev.basalt.db.Database;
import dev.basalt.db.RegionMetrics;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.region.Region;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * The regions of a database, found by the name a request carries: the full region name (what
 * HBase's client sends with data requests) or the encoded name (the hex digest at the end of the
 * full name, which some admin tools send).
 */
public final class DatabaseRegions implements ServedRegions {
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
    return switch (spec.getType()) {
      case REGION_NAME -> db.onlineRegion(spec.getValue().toByteArray());
      case ENCODED_REGION_NAME -> db.onlineRegion(byEncodedName(spec.getValue().toStringUtf8()));
      default ->
          throw BasaltIOException.doNotRetry(
              "regions are looked up by region name or encoded region name; "
                  + spec.getType()
                  + " is not supported");
    };
  }

  @Override
  public List<RegionMetrics> regionMetrics() {
    return db.getRegionMetrics();
  }

  @Override
  public List<RegionMetrics> regionMetrics(TableName table) {
    try {
      return db.getRegionMetrics(table);
    } catch (TableNotFoundException e) {
      return List.of(); // as HBase: this server holds no region of it
    }
  }

  @Override
  public Region online(byte[] regionName) {
    try {
      return db.onlineRegion(regionName);
    } catch (BasaltIOException notOnline) {
      return null;
    }
  }

  @Override
  public boolean compactionsEnabled() {
    return db.compactionsEnabled();
  }

  @Override
  public boolean switchCompactions(boolean on) {
    return db.switchCompactions(on);
  }

  @Override
  public void rollWal() {
    db.getWal().requestRoll();
  }

  /** The full name of the table region with this encoded name. */
  private byte[] byEncodedName(String encoded) throws BasaltIOException {
    for (TableName t : db.listTableNames()) {
      try {
        for (RegionInfo r : db.getRegions(t)) {
          if (r.getEncodedName().equals(encoded)) {
            return r.getRegionName();
          }
        }
      } catch (TableNotFoundException e) {
        // dropped while we looked
      }
    }
    throw new BasaltIOException(
        "region " + encoded + " is not online on this server", NOT_SERVING, false);
  }
}
