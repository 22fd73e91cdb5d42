package dev.basalt.filter;

import dev.basalt.cell.Cell;
import java.util.Random;

/**
 * Keeps each row with probability {@code chance}: below 0 never, above 1 always. The source of
 * randomness can be seeded so that a test sees the same rows every time.
 */
public class RandomRowFilter extends Filter {
  private final Random random;
  private float chance;
  private boolean filterOutRow;

  public RandomRowFilter(float chance) {
    this(chance, new Random());
  }

  /** A filter whose choices repeat for equal seeds and equal row sequences. */
  public RandomRowFilter(float chance, long seed) {
    this(chance, new Random(seed));
  }

  private RandomRowFilter(float chance, Random random) {
    checkChance(chance);
    this.chance = chance;
    this.random = random;
  }

  private static void checkChance(float chance) {
    if (Float.isNaN(chance)) {
      throw new IllegalArgumentException("RandomRowFilter: chance must be a number, got NaN");
    }
  }

  public float getChance() {
    return chance;
  }

  public void setChance(float chance) {
    checkChance(chance);
    this.chance = chance;
  }

  @Override
  public void reset() {
    filterOutRow = false;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (chance < 0) {
      filterOutRow = true;
    } else if (chance > 1) {
      filterOutRow = false;
    } else {
      filterOutRow = !(random.nextFloat() < chance);
    }
    return filterOutRow;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return filterOutRow ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return filterOutRow;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "RandomRowFilter " + chance;
  }
}
