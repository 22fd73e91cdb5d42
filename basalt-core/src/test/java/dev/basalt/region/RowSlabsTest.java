package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.region.RowSlabs.Row;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The row cache's slabs: ranges, reuse of emptied slabs, and readers of reused ones. */
class RowSlabsTest {
  private static List<Cell> row(int i) {
    return List.of(
        KeyValue.of(b("row"), F, b("a"), 5, CellType.PUT, new byte[1000]).withSequenceId(i),
        KeyValue.of(b("row"), F, b("b"), 5, CellType.PUT, b("v" + i)).withSequenceId(i + 1));
  }

  private static Row store(RowSlabs slabs, int i) {
    List<Cell> cells = row(i);
    int bytes = 0;
    for (Cell c : cells) {
      bytes += ((KeyValue) c).getLength();
    }
    return slabs.store(cells, RowSlabs.rangeLength(bytes, cells.size()));
  }

  @Test
  void aRowReadsBackWithItsSequenceIds() {
    RowSlabs slabs = new RowSlabs(1 << 20);
    Row r = store(slabs, 7);
    List<Cell> back = r.toResult().cells();
    assertThat(back).containsExactlyElementsOf(row(7));
    assertThat(back.get(0).getSequenceId()).isEqualTo(7);
    assertThat(back.get(1).getSequenceId()).isEqualTo(8);
    assertThat(slabs.store(List.of(), 0)).isSameAs(Row.EMPTY);
    assertThat(Row.EMPTY.toResult().isEmpty()).isTrue();
  }

  /**
   * A full slab whose rows all left the cache is reused; a reader that looked a row up before it
   * was released, and copies it after the slab was reused, gets null instead of the new rows'
   * bytes.
   */
  @Test
  void anEmptiedSlabIsReusedAndItsOldRowsReadAsGone() {
    RowSlabs slabs = new RowSlabs(0); // the smallest slabs
    List<Row> first = new ArrayList<>();
    Row r;
    do {
      r = store(slabs, first.size());
      first.add(r);
    } while (r.where().slab() == first.get(0).where().slab());
    Row onSecond = first.remove(first.size() - 1);
    RowSlabs.Location lookedUp = first.get(0).where();
    for (Row old : first) {
      slabs.release(old);
    }
    assertThat(first.get(0).toResult()).isNull(); // released
    assertThat(first.get(0).copy(lookedUp)).isNotNull(); // free, but not yet written over
    long made = slabs.slabsCreated();

    Row next;
    do {
      next = store(slabs, 1000);
    } while (next.where().slab() == onSecond.where().slab());
    assertThat(next.where().slab()).isSameAs(lookedUp.slab());
    assertThat(slabs.slabsCreated()).isEqualTo(made);
    assertThat(first.get(0).copy(lookedUp)).isNull();
    assertThat(onSecond.toResult().cells()).containsExactlyElementsOf(row(first.size()));
    assertThat(next.toResult().cells()).containsExactlyElementsOf(row(1000));
  }

  @Test
  void aSlabWithLiveRowsIsNotReused() {
    RowSlabs slabs = new RowSlabs(0);
    Row kept = store(slabs, 0);
    RowSlabs.Slab last;
    do {
      Row r = store(slabs, 1);
      last = r.where().slab();
      slabs.release(r);
    } while (last == kept.where().slab());
    for (int i = 0; i < 100; i++) {
      Row later = store(slabs, 2);
      assertThat(later.where().slab()).isNotSameAs(kept.where().slab());
      slabs.release(later);
    }
    assertThat(kept.toResult().cells()).containsExactlyElementsOf(row(0));
  }
}
