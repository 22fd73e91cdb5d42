package dev.basalt.bench.chaos;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The linked-list table, in the node format of HBase's IntegrationTestBigLinkedList: a node is a
 * row with a random 16-byte key; family {@code meta} holds {@code prev} (the key of the node its
 * writer wrote before it, empty for a list's first node), {@code client} (the writer's number) and
 * {@code count} (the node's position in its list).
 */
public final class NodeKeys {
  public static final byte[] FAMILY = Bytes.toBytes("meta");
  public static final byte[] PREV = Bytes.toBytes("prev");
  public static final byte[] CLIENT = Bytes.toBytes("client");
  public static final byte[] COUNT = Bytes.toBytes("count");
  static final int KEY_LENGTH = 16;

  private NodeKeys() {}

  /**
   * Creates the table with {@code regions} regions splitting the key space evenly on the first two
   * bytes (random keys then spread over every region).
   */
  public static void createTable(Admin admin, TableName name, int regions) throws IOException {
    if (regions < 1 || regions > 1024) {
      throw new IllegalArgumentException(regions + " regions: 1 to 1024");
    }
    TableDescriptorBuilder b =
        TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY));
    if (regions == 1) {
      admin.createTable(b.build());
      return;
    }
    admin.createTable(b.build(), splits(regions));
  }

  /** The {@code regions - 1} split keys: 2-byte prefixes at even steps of 65,536. */
  static byte[][] splits(int regions) {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      int prefix = (int) ((65536L * i) / regions);
      splits[i - 1] = new byte[] {(byte) (prefix >>> 8), (byte) prefix};
    }
    return splits;
  }

  /** A random key as {hi, lo}, never the all-zero key {@link KeySet} reserves. */
  static long[] random(Random random) {
    long hi;
    long lo;
    do {
      hi = random.nextLong();
      lo = random.nextLong();
    } while (hi == 0 && lo == 0);
    return new long[] {hi, lo};
  }

  static byte[] toBytes(long hi, long lo) {
    byte[] b = new byte[KEY_LENGTH];
    Bytes.putLong(b, 0, hi);
    Bytes.putLong(b, 8, lo);
    return b;
  }

  static long hi(byte[] key) {
    return Bytes.toLong(key, 0);
  }

  static long lo(byte[] key) {
    return Bytes.toLong(key, 8);
  }

  static String toString(long hi, long lo) {
    return Bytes.toHex(toBytes(hi, lo));
  }
}
