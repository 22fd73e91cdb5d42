package dev.basalt.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import java.util.List;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** addFamily/addColumn on Get and Scan narrow and widen exactly as HBase's do. */
class QueryColumnsTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");
  private static final byte[] Q1 = Bytes.toBytes("q1");
  private static final byte[] Q2 = Bytes.toBytes("q2");

  /** Adapts Get and Scan to one shape so every case runs on both. */
  private interface Columns {
    Columns family(byte[] f);

    Columns column(byte[] f, byte[] q);

    NavigableMap<byte[], NavigableSet<byte[]>> map();

    boolean hasFamilies();
  }

  private static Columns get() {
    Get g = new Get(Bytes.toBytes("r"));
    return new Columns() {
      @Override
      public Columns family(byte[] f) {
        assertThat(g.addFamily(f)).isSameAs(g);
        return this;
      }

      @Override
      public Columns column(byte[] f, byte[] q) {
        assertThat(g.addColumn(f, q)).isSameAs(g);
        return this;
      }

      @Override
      public NavigableMap<byte[], NavigableSet<byte[]>> map() {
        return g.getFamilyMap();
      }

      @Override
      public boolean hasFamilies() {
        return g.hasFamilies();
      }
    };
  }

  private static Columns scan() {
    Scan s = new Scan();
    return new Columns() {
      @Override
      public Columns family(byte[] f) {
        assertThat(s.addFamily(f)).isSameAs(s);
        return this;
      }

      @Override
      public Columns column(byte[] f, byte[] q) {
        assertThat(s.addColumn(f, q)).isSameAs(s);
        return this;
      }

      @Override
      public NavigableMap<byte[], NavigableSet<byte[]>> map() {
        return s.getFamilyMap();
      }

      @Override
      public boolean hasFamilies() {
        return s.hasFamilies();
      }
    };
  }

  private static final List<Supplier<Columns>> BOTH =
      List.of(QueryColumnsTest::get, QueryColumnsTest::scan);

  @Test
  void nothingAddedReadsEveryFamily() {
    for (Supplier<Columns> q : BOTH) {
      assertThat(q.get().hasFamilies()).isFalse();
      assertThat(q.get().map()).isEmpty();
    }
  }

  @Test
  void addFamilyReadsTheWholeFamily() {
    for (Supplier<Columns> q : BOTH) {
      Columns c = q.get().family(F);
      assertThat(c.hasFamilies()).isTrue();
      assertThat(c.map()).containsKey(F);
      assertThat(c.map().get(F)).isNull(); // null set: the whole family
    }
  }

  @Test
  void addColumnAfterAddFamilyNarrows() {
    for (Supplier<Columns> q : BOTH) {
      Columns c = q.get().family(F).column(F, Q1);
      assertThat(c.map().get(F)).containsExactly(Q1);
    }
  }

  @Test
  void addFamilyAfterAddColumnWidens() {
    for (Supplier<Columns> q : BOTH) {
      Columns c = q.get().column(F, Q1).column(F, Q2).family(F);
      assertThat(c.map()).containsKey(F);
      assertThat(c.map().get(F)).isNull();
    }
  }

  @Test
  void columnsAccumulateSortedAndDeduplicated() {
    for (Supplier<Columns> q : BOTH) {
      Columns c = q.get().column(F, Q2).column(F, Q1).column(F, Q2).column(G, Q1);
      assertThat(c.map().keySet()).containsExactly(F, G);
      assertThat(c.map().get(F)).containsExactly(Q1, Q2);
      assertThat(c.map().get(G)).containsExactly(Q1);
    }
  }

  @Test
  void nullQualifierIsTheEmptyQualifier() {
    for (Supplier<Columns> q : BOTH) {
      Columns c = q.get().column(F, null);
      assertThat(c.map().get(F)).hasSize(1);
      assertThat(c.map().get(F).first()).isEmpty();
    }
  }

  @Test
  void familiesAreIndependent() {
    for (Supplier<Columns> q : BOTH) {
      Columns c = q.get().family(G).column(F, Q1);
      assertThat(c.map().get(G)).isNull();
      assertThat(c.map().get(F)).containsExactly(Q1);
      assertThat(c.map()).containsKey(G);
    }
  }

  @Test
  void familyMapIsReadOnly() {
    for (Supplier<Columns> q : BOTH) {
      Columns c = q.get().family(F);
      assertThatThrownBy(() -> c.map().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
  }

  @Test
  void getDefaultsAndSettings() {
    Get get = new Get(Bytes.toBytes("r"));
    assertThat(get.getRow()).isEqualTo(Bytes.toBytes("r"));
    assertThat(get.getMaxVersions()).isEqualTo(1);
    assertThat(get.getTimeRange().isAllTime()).isTrue();
    assertThat(get.isCheckExistenceOnly()).isFalse();
    assertThat(get.setCheckExistenceOnly(true).isCheckExistenceOnly()).isTrue();
    assertThat(get.setTimestamp(5).getTimeRange()).isEqualTo(TimeRange.at(5));
    assertThat(get.readAllVersions().getMaxVersions()).isEqualTo(Integer.MAX_VALUE);
    assertThatThrownBy(() -> get.readVersions(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
    assertThatThrownBy(() -> get.setTimeRange(-1, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
    assertThatThrownBy(() -> get.setRowOffsetPerColumnFamily(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
