package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import java.util.SplittableRandom;

/** The table shape and key generation shared by the region benchmarks. */
final class RegionFixture {
  static final byte[] FAMILY = Bytes.toBytes("f");
  static final byte[] QUALIFIER = Bytes.toBytes("q");
  static final int ROW_LENGTH = 16;
  static final int VALUE_LENGTH = 100;

  /** One family, default settings. */
  static final TableDescriptor TABLE =
      TableDescriptorBuilder.newBuilder(TableName.valueOf("bench"))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
          .build();

  private RegionFixture() {}

  /** A fresh, empty in-memory region (no edit log) covering the whole key space. */
  static Region newRegion() {
    return Region.inMemory(TABLE, RegionServices.defaults());
  }

  /** The 16-byte row key of row number {@code n}: "user" + 12 decimal digits. */
  static byte[] row(long n) {
    byte[] b = new byte[ROW_LENGTH];
    b[0] = 'u';
    b[1] = 's';
    b[2] = 'e';
    b[3] = 'r';
    for (int i = ROW_LENGTH - 1; i >= 4; i--) {
      b[i] = (byte) ('0' + (n % 10));
      n /= 10;
    }
    return b;
  }

  /** A 100-byte value of random bytes. */
  static byte[] value(long seed) {
    byte[] v = new byte[VALUE_LENGTH];
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < v.length; i++) {
      v[i] = (byte) rnd.nextInt(256);
    }
    return v;
  }
}
