package dev.basalt.sstable;

/**
 * A bloom filter over 64-bit key hashes, sized for about 1% false positives: 9.6 bits per key and 7
 * probes. Probe {@code i} of a key with hash {@code h1} sets or tests bit {@code ((h1 + i * h2) &
 * Long.MAX_VALUE) % m}, where {@code h2 = fmix64(h1 + 0x9E3779B97F4A7C15) | 1} (double hashing,
 * Kirsch and Mitzenmacher; deriving {@code h2} from {@code h1} keeps 8 bytes per key while the file
 * is written). Bit {@code j} lives in word {@code j / 64} at value {@code 1L << (j % 64)}.
 *
 * <p>Block payload (big-endian):
 *
 * <pre>
 * offset size field
 * 0      1    hash function: 1 = XXH64 with seed 0 over the bloom key (see BloomKeys)
 * 1      1    probe count k (1..30)
 * 2      8    bit count m (64..2^37, a multiple of 64)
 * 10     8    key count n (keys added while writing)
 * 18     8m/64 the bit words, each a big-endian long
 * </pre>
 *
 * Immutable and thread-safe once built.
 */
final class BloomFilter {
  static final byte HASH_XXH64 = 1;
  static final int PROBES = 7;
  static final double BITS_PER_KEY = 9.6;
  static final int HEADER = 18;
  private static final long MAX_BITS = 1L << 37; // 16 GiB of bits: more than a byte[] can hold

  private final long[] words;
  private final long bitCount;
  private final int probes;
  private final long keyCount;

  private BloomFilter(long[] words, int probes, long keyCount) {
    this.words = words;
    this.bitCount = (long) words.length * 64;
    this.probes = probes;
    this.keyCount = keyCount;
  }

  /** A filter holding the first {@code n} of {@code hashes}, sized from {@code n}. */
  static BloomFilter build(long[] hashes, int n) {
    long bits = Math.max(64, (long) Math.ceil(n * BITS_PER_KEY));
    long wordCount = (bits + 63) / 64;
    if (wordCount * 8 > Integer.MAX_VALUE - 64) {
      throw new IllegalStateException("bloom filter for " + n + " keys exceeds one block");
    }
    BloomFilter f = new BloomFilter(new long[(int) wordCount], PROBES, n);
    for (int i = 0; i < n; i++) {
      f.add(hashes[i]);
    }
    return f;
  }

  static long secondHash(long h1) {
    long h = h1 + 0x9E3779B97F4A7C15L;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h | 1;
  }

  private void add(long h1) {
    long h2 = secondHash(h1);
    long combined = h1;
    for (int i = 0; i < probes; i++) {
      long bit = (combined & Long.MAX_VALUE) % bitCount;
      words[(int) (bit >>> 6)] |= 1L << bit;
      combined += h2;
    }
  }

  /** False only when no key with this hash was added. */
  boolean mightContain(long h1) {
    long h2 = secondHash(h1);
    long combined = h1;
    for (int i = 0; i < probes; i++) {
      long bit = (combined & Long.MAX_VALUE) % bitCount;
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      combined += h2;
    }
    return true;
  }

  long bitCount() {
    return bitCount;
  }

  long keyCount() {
    return keyCount;
  }

  void encode(ByteSink out) {
    out.putByte(HASH_XXH64);
    out.putByte(probes);
    out.putLong(bitCount);
    out.putLong(keyCount);
    for (long w : words) {
      out.putLong(w);
    }
  }

  static BloomFilter decode(ByteReader in) throws CorruptStoreFileException {
    int hash = in.readByte("hash function");
    if (hash != HASH_XXH64) {
      throw in.corrupt("unknown hash function " + hash);
    }
    int k = in.readByte("probe count");
    if (k < 1 || k > 30) {
      throw in.corrupt("probe count " + k + " is outside 1..30");
    }
    long m = in.readLong("bit count");
    if (m < 64 || m > MAX_BITS || m % 64 != 0) {
      throw in.corrupt("bit count " + m + " is not a multiple of 64 in 64..2^37");
    }
    long n = in.readLong("key count");
    if (n < 0) {
      throw in.corrupt("key count " + n + " is negative");
    }
    if (in.remaining() != m / 8) {
      throw in.corrupt(m + " bits need " + m / 8 + " bytes, the block has " + in.remaining());
    }
    long[] words = new long[(int) (m / 64)];
    for (int i = 0; i < words.length; i++) {
      words[i] = in.readLong("bits");
    }
    return new BloomFilter(words, k, n);
  }
}
