package dev.basalt.server.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.db.Database;
import dev.basalt.filter.KeyOnlyFilter;
import dev.basalt.ops.Get;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionScanner;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** hbase:meta as the stock client's region locator and admin calls read it (document 3.2, 3.3). */
class MetaTableTest {
  private static final ServerName RS = new ServerName("127.0.0.1", 16020, 1_700_000_000_123L);
  @TempDir Path dir;
  private Database db;
  private MetaTable meta;

  @BeforeEach
  void setUp() throws IOException {
    db = Database.open(dir);
    db.createTable(table("t1"), new byte[][] {Bytes.toBytes("g"), Bytes.toBytes("p")});
    db.createTable(table("t10"));
    db.createNamespace(NamespaceDescriptor.create("ns").build());
    db.createTable(table("ns:t1"));
    db.createTable(table("off"));
    db.disableTable(TableName.valueOf("off"));
    meta = new MetaTable(new DatabaseMetaSource(db, () -> RS));
  }

  @AfterEach
  void tearDown() throws IOException {
    db.close();
  }

  private static TableDescriptor table(String name) {
    return TableDescriptorBuilder.newBuilder(TableName.valueOf(name))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Bytes.toBytes("f")))
        .build();
  }

  /** The sync client's locateRegionInMeta: reversed, from table,row,99999999999999 to table,,. */
  private RegionInfo locate(String table, String row) throws IOException {
    Scan scan =
        new Scan()
            .withStartRow(Bytes.toBytes(table + "," + row + ",99999999999999"))
            .withStopRow(Bytes.toBytes(table + ",,"), true)
            .addFamily(MetaRows.INFO)
            .setReversed(true);
    try (RegionScanner s = meta.getScanner(scan)) {
      Result r = s.next();
      return r == null ? null : regionInfo(r);
    }
  }

  private static RegionInfo regionInfo(Result r) throws IOException {
    byte[] v = r.getValue(MetaRows.INFO, MetaRows.REGIONINFO);
    assertThat(Arrays.copyOf(v, 4)).isEqualTo(Bytes.toBytes("PBUF"));
    return SchemaCodec.toRegionInfo(
        HBaseProtos.RegionInfo.parseFrom(Arrays.copyOfRange(v, 4, v.length)));
  }

  private List<Result> scanAll(Scan scan) throws IOException {
    List<Result> out = new ArrayList<>();
    try (RegionScanner s = meta.getScanner(scan)) {
      for (Result r = s.next(); r != null; r = s.next()) {
        out.add(r);
      }
    }
    return out;
  }

  @Test
  void theRegionLocatorFindsTheRegionHoldingARow() throws IOException {
    assertThat(Bytes.toString(locate("t1", "").getStartKey())).isEmpty();
    assertThat(Bytes.toString(locate("t1", "a").getStartKey())).isEmpty();
    assertThat(Bytes.toString(locate("t1", "g").getStartKey())).isEqualTo("g");
    assertThat(Bytes.toString(locate("t1", "g\u0000").getStartKey())).isEqualTo("g");
    assertThat(Bytes.toString(locate("t1", "o,zz").getStartKey())).isEqualTo("g");
    assertThat(Bytes.toString(locate("t1", "zzz").getStartKey())).isEqualTo("p");
    assertThat(locate("t10", "x").getTable()).isEqualTo(TableName.valueOf("t10"));
    assertThat(locate("ns:t1", "x").getTable()).isEqualTo(TableName.valueOf("ns:t1"));
    assertThat(locate("nosuch", "x")).isNull();
  }

  @Test
  void aForwardTableScanBracketsExactlyOneTable() throws IOException {
    List<Result> rows =
        scanAll(
            new Scan()
                .withStartRow(Bytes.toBytes("t1,,"))
                .withStopRow(Bytes.toBytes("t1 ,,"))
                .addFamily(MetaRows.INFO));
    assertThat(rows).hasSize(3);
    List<String> starts = new ArrayList<>();
    for (Result r : rows) {
      RegionInfo info = regionInfo(r);
      assertThat(info.getTable()).isEqualTo(TableName.valueOf("t1"));
      assertThat(Bytes.toString(r.getValue(MetaRows.INFO, MetaRows.SERVER)))
          .isEqualTo("127.0.0.1:16020");
      assertThat(Bytes.toLong(r.getValue(MetaRows.INFO, MetaRows.STARTCODE)))
          .isEqualTo(RS.startCode());
      starts.add(Bytes.toString(info.getStartKey()));
    }
    assertThat(starts).containsExactly("", "g", "p");
  }

  @Test
  void theLastRegionIsFoundFromTheTableNameAndAZeroByte() throws IOException {
    Scan scan =
        new Scan()
            .withStartRow(Bytes.toBytes("t1\u0000"))
            .withStopRow(Bytes.toBytes("t1,,"), true)
            .addFamily(MetaRows.INFO)
            .setReversed(true);
    List<Result> rows = scanAll(scan);
    assertThat(Bytes.toString(regionInfo(rows.get(0)).getStartKey())).isEqualTo("p");
  }

  @Test
  void tableStateRowsAreTableStateMessagesWithoutMagic() throws IOException {
    Get enabled = new Get(Bytes.toBytes("t1")).addColumn(MetaRows.TABLE, MetaRows.STATE);
    assertThat(meta.get(enabled).getValue(MetaRows.TABLE, MetaRows.STATE))
        .containsExactly(0x08, 0x00);
    Get disabled = new Get(Bytes.toBytes("off")).addColumn(MetaRows.TABLE, MetaRows.STATE);
    assertThat(meta.get(disabled).getValue(MetaRows.TABLE, MetaRows.STATE))
        .containsExactly(0x08, 0x01);
    assertThat(meta.get(new Get(Bytes.toBytes("ns:t1"))).isEmpty()).isFalse();
    assertThat(meta.get(new Get(Bytes.toBytes("gone"))).isEmpty()).isTrue();
    assertThat(meta.get(new Get(Bytes.toBytes("t1")).setCheckExistenceOnly(true)).getExists())
        .isTrue();
  }

  @Test
  void regionsOfADisabledTableAreClosedButKeepTheirServer() throws IOException {
    // the stock client must reach a server, get NotServingRegionException, re-read the table
    // state and fail with TableNotEnabledException (with no server it would throw
    // NoServerForRegionException at once)
    RegionInfo r = db.getRegions(TableName.valueOf("off")).get(0);
    Result row = meta.get(new Get(r.getRegionName()));
    assertThat(Bytes.toString(row.getValue(MetaRows.INFO, MetaRows.SERVER)))
        .isEqualTo(RS.hostAndPort());
    assertThat(Bytes.toLong(row.getValue(MetaRows.INFO, MetaRows.STARTCODE)))
        .isEqualTo(RS.startCode());
    assertThat(Bytes.toString(row.getValue(MetaRows.INFO, MetaRows.STATE))).isEqualTo("CLOSED");
    assertThat(regionInfo(row)).isEqualTo(r);
  }

  @Test
  void rowsAreInCellOrderAndColumnsAreSelected() throws IOException {
    RegionInfo r = db.getRegions(TableName.valueOf("t1")).get(1);
    Result all = meta.get(new Get(r.getRegionName()));
    List<String> qualifiers = new ArrayList<>();
    for (Cell c : all.rawCells()) {
      qualifiers.add(Bytes.toString(CellUtil.cloneQualifier(c)));
    }
    assertThat(qualifiers)
        .containsExactly(
            "regioninfo", "seqnumDuringOpen", "server", "serverstartcode", "sn", "state");
    Result one = meta.get(new Get(r.getRegionName()).addColumn(MetaRows.INFO, MetaRows.SERVER));
    assertThat(one.size()).isEqualTo(1);
    assertThat(meta.get(new Get(r.getRegionName()).addFamily(MetaRows.TABLE)).isEmpty()).isTrue();
  }

  @Test
  void batchCutsRowsIntoSlices() throws IOException {
    RegionInfo r = db.getRegions(TableName.valueOf("t10")).get(0);
    Scan scan = new Scan().withStartRow(r.getRegionName()).withStopRow(r.getRegionName(), true);
    scan.setBatch(4);
    List<Result> slices = scanAll(scan);
    assertThat(slices).hasSize(2);
    assertThat(slices.get(0).mayHaveMoreCellsInRow()).isTrue();
    assertThat(slices.get(0).size() + slices.get(1).size()).isEqualTo(6);
  }

  @Test
  void unknownFamiliesAndFiltersAreRefusedByName() {
    assertThatThrownBy(() -> meta.get(new Get(Bytes.toBytes("t1")).addFamily(Bytes.toBytes("x"))))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e ->
                assertThat(e.hbaseExceptionClass())
                    .isEqualTo("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException"));
    assertThatThrownBy(() -> meta.getScanner(new Scan().setFilter(new KeyOnlyFilter())))
        .isInstanceOfSatisfying(
            BasaltIOException.class, e -> assertThat(e.isDoNotRetry()).isTrue());
  }

  @Test
  void aDroppedTableLeavesMeta() throws IOException {
    db.disableTable(TableName.valueOf("t10"));
    db.deleteTable(TableName.valueOf("t10"));
    assertThat(locate("t10", "x")).isNull();
    assertThat(meta.get(new Get(Bytes.toBytes("t10"))).isEmpty()).isTrue();
  }
}
