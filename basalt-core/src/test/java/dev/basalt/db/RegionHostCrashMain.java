package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.region.Region;
import dev.basalt.schema.RegionInfo;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.WalSettings;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The child process of {@link RegionHostKillTest}: a region host that opens every region of the
 * table and writes until it is killed, reporting each acknowledged operation as one line ({@code
 * put <row>} or {@code inc <row> <nonce>}; the first line is {@code ready}). Arguments: root,
 * server name, report file.
 */
public final class RegionHostCrashMain {
  private RegionHostCrashMain() {}

  public static void main(String[] args) throws Exception {
    dev.basalt.fs.LocalStorage storage = new dev.basalt.fs.LocalStorage(Path.of(args[0]));
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    ClusterCatalog.TableEntry t = catalog.requireTable(RegionHostRecoveryTest.T);
    // Small segments: the kill finds several, rolled ones among them.
    Config config = Config.builder().set(WalSettings.ROLL_SIZE, 16L * 1024).build();
    RegionHost host = RegionHost.start(storage, args[1], config, Clock.system());
    List<RegionInfo> regions = t.regionInfos();
    for (RegionInfo r : regions) {
      host.open(r, t.descriptor(), 0);
    }
    try (FileOutputStream out = new FileOutputStream(args[2])) {
      out.write("ready\n".getBytes(StandardCharsets.UTF_8));
      for (long i = 0; i < 10_000_000; i++) {
        String row = "r" + (i % 10) + "-" + i;
        byte[] rowBytes = Bytes.toBytes(row);
        String line;
        if (i % 4 == 3) {
          byte[] counter = Bytes.toBytes("r" + (i % 10) + "-counter");
          Region region =
              host.region(RegionHostRecoveryTest.regionOf(regions, counter).getEncodedName());
          Increment inc =
              new Increment(counter)
                  .addColumn(RegionHostRecoveryTest.FAMILIES[0], Bytes.toBytes("n"), 1);
          inc.setNonce(5, i + 1);
          region.increment(inc);
          line = "inc " + Bytes.toString(counter) + " " + (i + 1) + "\n";
        } else {
          Region region =
              host.region(RegionHostRecoveryTest.regionOf(regions, rowBytes).getEncodedName());
          region.put(
              new Put(rowBytes)
                  .addColumn(
                      RegionHostRecoveryTest.FAMILIES[(int) (i % 2)],
                      Bytes.toBytes("q"),
                      Bytes.toBytes("v" + i)));
          line = "put " + row + "\n";
        }
        out.write(line.getBytes(StandardCharsets.UTF_8)); // acknowledged: reported
        out.flush();
      }
    }
    host.close();
  }
}
