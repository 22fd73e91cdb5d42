package dev.basalt.server.regionserver;

import dev.basalt.region.Region;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/** Finds the open region a request names. */
@FunctionalInterface
public interface RegionLookup {
  String NOT_SERVING = "org.apache.hadoop.hbase.NotServingRegionException";

  /**
   * The region the specifier names.
   *
   * @throws IOException named {@link #NOT_SERVING} (with the region's encoded name in the message)
   *     when this server does not serve it, so the client re-reads hbase:meta and retries
   */
  Region region(HBaseProtos.RegionSpecifier spec) throws IOException;

  /**
   * Throws when this server must not serve any region now (a cluster region server that is
   * stopping, aborting, or confirming its session after a pause); {@link #region} checks it too.
   * Calls that continue with a region found earlier (a scanner's next call) check it themselves.
   */
  default void checkServing() throws IOException {}
}
