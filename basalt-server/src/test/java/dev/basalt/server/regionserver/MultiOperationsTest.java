package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Get;
import dev.basalt.region.EditLog;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.rpc.RpcCall;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Action;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionAction;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ClientService.Multi and Mutate/Get as the stock client shapes them (wire spec 3.5.3-3.5.4). */
class MultiOperationsTest {
  private static final byte[] F = Bytes.toBytes("f");

  /** The call the tests' multis arrive in (named by the log line of failed actions). */
  private static final RpcCall CALL =
      new RpcCall(
          1,
          "ClientService",
          "Multi",
          List.of(),
          true,
          0,
          0,
          "tester",
          new java.net.InetSocketAddress("127.0.0.1", 1));

  private Region region;
  private HBaseProtos.RegionSpecifier here;
  private HBaseProtos.RegionSpecifier elsewhere;
  private MultiOperations multi;
  private ClientOperations single;

  @BeforeEach
  void setUp() {
    region =
        Region.inMemory(
            TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
                .build(),
            RegionServices.of(new ManualClock(1_000_000), Config.defaults(), EditLog.NONE));
    here = spec(region.getRegionInfo().getRegionName());
    elsewhere = spec(Bytes.toBytes("t,x,1.0123456789abcdef0123456789abcdef."));
    RegionLookup lookup =
        s -> {
          if (!s.equals(here)) {
            throw new BasaltIOException("not here", RegionLookup.NOT_SERVING, false);
          }
          return region;
        };
    ServerNonces nonces = new ServerNonces(new ManualClock(0), ServerNonces.GRACE_MILLIS);
    multi = new MultiOperations(lookup, nonces);
    single = new ClientOperations(lookup, null, nonces);
  }

  private static HBaseProtos.RegionSpecifier spec(byte[] name) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(name))
        .build();
  }

  private static KeyValue put(String row, String q, String v) {
    return KeyValue.of(
        Bytes.toBytes(row), F, Bytes.toBytes(q), Long.MAX_VALUE, CellType.PUT, Bytes.toBytes(v));
  }

  private static Action mutationAction(
      int index, String row, MutationProto.MutationType t, int cells) {
    return Action.newBuilder()
        .setIndex(index)
        .setMutation(
            MutationProto.newBuilder()
                .setRow(ByteString.copyFromUtf8(row))
                .setMutateType(t)
                .setAssociatedCellCount(cells))
        .build();
  }

  /** A mutation carrying one column's value inside the message (no cell block). */
  private static MutationProto.Builder oneColumn(
      String row, MutationProto.MutationType t, byte[] family, String q, byte[] value) {
    return MutationProto.newBuilder()
        .setRow(ByteString.copyFromUtf8(row))
        .setMutateType(t)
        .addColumnValue(
            MutationProto.ColumnValue.newBuilder()
                .setFamily(ByteString.copyFrom(family))
                .addQualifierValue(
                    MutationProto.ColumnValue.QualifierValue.newBuilder()
                        .setQualifier(ByteString.copyFromUtf8(q))
                        .setValue(ByteString.copyFrom(value))));
  }

  private static Action getAction(int index, String row) {
    return Action.newBuilder()
        .setIndex(index)
        .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFromUtf8(row)))
        .build();
  }

  private String value(String row, String q) throws IOException {
    byte[] v = region.get(new Get(Bytes.toBytes(row))).getValue(F, Bytes.toBytes(q));
    return v == null ? null : Bytes.toString(v);
  }

  @Test
  void aBatchOverTwoRegionsKeepsOrderIndexesAndCellAlignment() throws IOException {
    region.put(
        new dev.basalt.ops.Put(Bytes.toBytes("g"))
            .addColumn(F, Bytes.toBytes("q"), Bytes.toBytes("old")));
    List<Cell> requestCells =
        List.of(
            put("x", "q", "lost"), // the region action for another server
            put("a", "q", "1"),
            put("b", "q", "2"),
            KeyValue.of(
                Bytes.toBytes("n"),
                F,
                Bytes.toBytes("c"),
                Long.MAX_VALUE,
                CellType.PUT,
                Bytes.toBytes(7L)));
    MultiRequest req =
        MultiRequest.newBuilder()
            .addRegionAction(
                RegionAction.newBuilder()
                    .setRegion(elsewhere)
                    .addAction(mutationAction(0, "x", MutationProto.MutationType.PUT, 1)))
            .addRegionAction(
                RegionAction.newBuilder()
                    .setRegion(here)
                    .addAction(getAction(5, "g"))
                    .addAction(mutationAction(1, "a", MutationProto.MutationType.PUT, 1))
                    .addAction(mutationAction(2, "b", MutationProto.MutationType.PUT, 1))
                    .addAction(mutationAction(3, "n", MutationProto.MutationType.INCREMENT, 1)))
            .build();
    List<Cell> out = new ArrayList<>();
    MultiResponse r = multi.multi(req, requestCells.iterator(), out, CALL);
    assertThat(r.getRegionActionResultCount()).isEqualTo(2);
    RegionActionResult away = r.getRegionActionResult(0);
    assertThat(away.getException().getName()).isEqualTo(RegionLookup.NOT_SERVING);
    RegionActionResult ok = r.getRegionActionResult(1);
    assertThat(ok.getResultOrExceptionList())
        .extracting(ClientProtos.ResultOrException::getIndex)
        .containsExactly(5, 1, 2, 3);
    assertThat(ok.getResultOrException(0).getResult().getAssociatedCellCount()).isEqualTo(1);
    assertThat(ok.getResultOrException(3).getResult().getAssociatedCellCount()).isEqualTo(1);
    // The get's cell first, then the increment's: the order of the results that count them.
    assertThat(Bytes.toString(CellUtil.cloneValue(out.get(0)))).isEqualTo("old");
    assertThat(Bytes.toLong(CellUtil.cloneValue(out.get(1)))).isEqualTo(7L);
    assertThat(value("a", "q")).as("the cells of the refused action were skipped").isEqualTo("1");
    assertThat(value("b", "q")).isEqualTo("2");
    assertThat(value("x", "q")).isNull();
  }

  @Test
  void aFailingActionFailsAloneWithItsClassName() throws IOException {
    MultiRequest req =
        MultiRequest.newBuilder()
            .addRegionAction(
                RegionAction.newBuilder()
                    .setRegion(here)
                    .addAction(
                        Action.newBuilder()
                            .setIndex(0)
                            .setMutation(
                                oneColumn(
                                    "a", MutationProto.MutationType.PUT, b("nope"), "q", b("v"))))
                    .addAction(mutationAction(1, "b", MutationProto.MutationType.PUT, 1)))
            .build();
    MultiResponse r =
        multi.multi(req, List.<Cell>of(put("b", "q", "2")).iterator(), new ArrayList<>(), CALL);
    RegionActionResult rr = r.getRegionActionResult(0);
    assertThat(rr.getResultOrException(0).getException().getName())
        .isEqualTo("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException");
    assertThat(rr.getResultOrException(1).hasException()).isFalse();
    assertThat(value("b", "q")).isEqualTo("2");
  }

  @Test
  void atomicAndConditionalRegionActions() throws IOException {
    MultiRequest atomic =
        MultiRequest.newBuilder()
            .addRegionAction(
                RegionAction.newBuilder()
                    .setRegion(here)
                    .setAtomic(true)
                    .addAction(mutationAction(0, "r", MutationProto.MutationType.PUT, 1))
                    .addAction(mutationAction(1, "r", MutationProto.MutationType.PUT, 1)))
            .build();
    MultiResponse r =
        multi.multi(
            atomic,
            List.<Cell>of(put("r", "a", "1"), put("r", "b", "2")).iterator(),
            new ArrayList<>(),
            CALL);
    assertThat(r.getRegionActionResult(0).getProcessed()).isTrue();
    assertThat(r.getProcessed()).isTrue();
    assertThat(value("r", "b")).isEqualTo("2");

    ClientProtos.Condition cond =
        ClientProtos.Condition.newBuilder()
            .setRow(ByteString.copyFromUtf8("r"))
            .setFamily(ByteString.copyFrom(F))
            .setQualifier(ByteString.copyFromUtf8("a"))
            .setCompareType(HBaseProtos.CompareType.EQUAL)
            .setComparator(
                ComparatorProtos.Comparator.newBuilder()
                    .setName("org.apache.hadoop.hbase.filter.BinaryComparator")
                    .setSerializedComparator(
                        ComparatorProtos.BinaryComparator.newBuilder()
                            .setComparable(
                                ComparatorProtos.ByteArrayComparable.newBuilder()
                                    .setValue(ByteString.copyFromUtf8("nope")))
                            .build()
                            .toByteString()))
            .build();
    MultiRequest conditional =
        MultiRequest.newBuilder()
            .addRegionAction(
                RegionAction.newBuilder()
                    .setRegion(here)
                    .setCondition(cond)
                    .addAction(mutationAction(0, "r", MutationProto.MutationType.PUT, 1)))
            .build();
    r =
        multi.multi(
            conditional,
            List.<Cell>of(put("r", "a", "changed")).iterator(),
            new ArrayList<>(),
            CALL);
    assertThat(r.getRegionActionResult(0).getProcessed()).as("a != nope").isFalse();
    assertThat(r.getRegionActionResult(0).getResultOrExceptionCount()).isOne();
    assertThat(value("r", "a")).isEqualTo("1");
  }

  @Test
  void atomicResultsAreIndexedByPositionLikeHBaseWhenActionsCarryNoIndex() throws IOException {
    // Table.mutateRow sends full protobuf mutations without Action.index; the 2.6 client files
    // each ResultOrException under its index and fails the call ("Server sent us neither results
    // nor exceptions") unless they are 0..n-1.
    RegionAction.Builder ra = RegionAction.newBuilder().setRegion(here).setAtomic(true);
    for (String q : List.of("a", "b", "c")) {
      ra.addAction(
          Action.newBuilder()
              .setMutation(oneColumn("m", MutationProto.MutationType.PUT, F, q, b(q))));
    }
    MultiResponse r =
        multi.multi(
            MultiRequest.newBuilder().addRegionAction(ra).build(),
            List.<Cell>of().iterator(),
            new ArrayList<>(),
            CALL);
    RegionActionResult rr = r.getRegionActionResult(0);
    assertThat(rr.getProcessed()).isTrue();
    assertThat(rr.getResultOrExceptionList())
        .extracting(ClientProtos.ResultOrException::getIndex)
        .containsExactly(0, 1, 2);
    assertThat(value("m", "c")).isEqualTo("c");
  }

  @Test
  void atomicIncrementsAndAppendsAnswerTheirCellsTogetherOnIndexZero() throws IOException {
    region.put(
        new dev.basalt.ops.Put(Bytes.toBytes("m")).addColumn(F, Bytes.toBytes("s"), b("ab")));
    List<Cell> requestCells =
        List.of(
            put("m", "p", "v"),
            KeyValue.of(
                Bytes.toBytes("m"),
                F,
                Bytes.toBytes("n"),
                Long.MAX_VALUE,
                CellType.PUT,
                Bytes.toBytes(4L)),
            put("m", "s", "cd"));
    MultiRequest req =
        MultiRequest.newBuilder()
            .addRegionAction(
                RegionAction.newBuilder()
                    .setRegion(here)
                    .setAtomic(true)
                    .addAction(mutationAction(0, "m", MutationProto.MutationType.PUT, 1))
                    .addAction(mutationAction(1, "m", MutationProto.MutationType.INCREMENT, 1))
                    .addAction(mutationAction(2, "m", MutationProto.MutationType.APPEND, 1)))
            .build();
    List<Cell> out = new ArrayList<>();
    RegionActionResult rr =
        multi.multi(req, requestCells.iterator(), out, CALL).getRegionActionResult(0);
    assertThat(rr.getProcessed()).isTrue();
    assertThat(rr.getResultOrException(0).getResult().getAssociatedCellCount()).isEqualTo(2);
    assertThat(rr.getResultOrException(1).getResult().getAssociatedCellCount()).isZero();
    assertThat(out).hasSize(2);
    assertThat(Bytes.toLong(CellUtil.cloneValue(out.get(0)))).isEqualTo(4L);
    assertThat(Bytes.toString(CellUtil.cloneValue(out.get(1)))).isEqualTo("abcd");
    assertThat(value("m", "p")).isEqualTo("v");
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  @Test
  void singleMutationsAndGets() throws IOException {
    ClientProtos.MutateResponse m =
        single.mutate(
            ClientProtos.MutateRequest.newBuilder()
                .setRegion(here)
                .setMutation(
                    oneColumn("c", MutationProto.MutationType.INCREMENT, F, "n", Bytes.toBytes(3L)))
                .build(),
            List.<Cell>of().iterator(),
            null);
    assertThat(m.getProcessed()).isTrue();
    assertThat(m.getResult().getCell(0).getValue().toByteArray()).isEqualTo(Bytes.toBytes(3L));
    ClientProtos.GetResponse g =
        single.get(
            ClientProtos.GetRequest.newBuilder()
                .setRegion(here)
                .setGet(
                    ClientProtos.Get.newBuilder()
                        .setRow(ByteString.copyFromUtf8("c"))
                        .setExistenceOnly(true))
                .build(),
            new ArrayList<>());
    assertThat(g.getResult().getExists()).isTrue();
  }

  @Test
  void aRetriedIncrementWithTheSameNonceIsAppliedOnce() throws IOException {
    ServerNonces nonces = new ServerNonces(new ManualClock(0), ServerNonces.GRACE_MILLIS);
    RegionLookup lookup = s -> region;
    ClientOperations mutate = new ClientOperations(lookup, null, nonces);
    MultiOperations batch = new MultiOperations(lookup, nonces);
    KeyValue plusFive =
        KeyValue.of(
            Bytes.toBytes("n"),
            F,
            Bytes.toBytes("c"),
            Long.MAX_VALUE,
            CellType.PUT,
            Bytes.toBytes(5L));
    ClientProtos.MutateRequest inc =
        ClientProtos.MutateRequest.newBuilder()
            .setRegion(here)
            .setNonceGroup(77)
            .setMutation(
                MutationProto.newBuilder()
                    .setRow(ByteString.copyFromUtf8("n"))
                    .setMutateType(MutationProto.MutationType.INCREMENT)
                    .setAssociatedCellCount(1)
                    .setNonce(1234))
            .build();
    for (int attempt = 0; attempt < 3; attempt++) {
      List<Cell> out = new ArrayList<>();
      mutate.mutate(inc, List.<Cell>of(plusFive).iterator(), out);
      assertThat(Bytes.toLong(CellUtil.cloneValue(out.get(0))))
          .as("attempt %d answers the value after the one increment", attempt)
          .isEqualTo(5L);
    }
    // The same pair inside a Multi (the client retried through a batch) is not applied either; a
    // new nonce is.
    MultiRequest retried =
        MultiRequest.newBuilder()
            .setNonceGroup(77)
            .addRegionAction(
                RegionAction.newBuilder()
                    .setRegion(here)
                    .addAction(Action.newBuilder().setIndex(0).setMutation(inc.getMutation()))
                    .addAction(
                        Action.newBuilder()
                            .setIndex(1)
                            .setMutation(inc.getMutation().toBuilder().setNonce(5678))))
            .build();
    batch.multi(retried, List.<Cell>of(plusFive, plusFive).iterator(), new ArrayList<>(), CALL);
    byte[] v = region.get(new Get(Bytes.toBytes("n"))).getValue(F, Bytes.toBytes("c"));
    assertThat(Bytes.toLong(v)).isEqualTo(10L);
  }

  @Test
  void theNoncesOfIncrementsReachTheEditLogFromMutateAndMulti() throws IOException {
    List<String> logged = new ArrayList<>();
    EditLog recording =
        new EditLog() {
          @Override
          public long append(
              dev.basalt.schema.RegionInfo r,
              List<KeyValue> cells,
              Durability d,
              long nonceGroup,
              long nonce,
              List<java.util.UUID> clusterIds) {
            logged.add(nonceGroup + "/" + nonce);
            return 0;
          }

          @Override
          public void sync(long ticket, Durability d) {}
        };
    Region logging =
        Region.inMemory(
            TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
                .build(),
            RegionServices.of(new ManualClock(1_000_000), Config.defaults(), recording));
    HBaseProtos.RegionSpecifier at = spec(logging.getRegionInfo().getRegionName());
    ServerNonces nonces = new ServerNonces(new ManualClock(0), ServerNonces.GRACE_MILLIS);
    RegionLookup lookup = s -> logging;
    KeyValue plusOne =
        KeyValue.of(
            Bytes.toBytes("n"),
            F,
            Bytes.toBytes("c"),
            Long.MAX_VALUE,
            CellType.PUT,
            Bytes.toBytes(1L));
    MutationProto inc =
        MutationProto.newBuilder()
            .setRow(ByteString.copyFromUtf8("n"))
            .setMutateType(MutationProto.MutationType.INCREMENT)
            .setAssociatedCellCount(1)
            .setNonce(1234)
            .build();
    new ClientOperations(lookup, null, nonces)
        .mutate(
            ClientProtos.MutateRequest.newBuilder()
                .setRegion(at)
                .setNonceGroup(77)
                .setMutation(inc)
                .build(),
            List.<Cell>of(plusOne).iterator(),
            new ArrayList<>());
    new MultiOperations(lookup, nonces)
        .multi(
            MultiRequest.newBuilder()
                .setNonceGroup(78)
                .addRegionAction(
                    RegionAction.newBuilder()
                        .setRegion(at)
                        .addAction(
                            Action.newBuilder()
                                .setIndex(0)
                                .setMutation(inc.toBuilder().setNonce(5678)))
                        .addAction(
                            Action.newBuilder()
                                .setIndex(1)
                                .setMutation(
                                    MutationProto.newBuilder()
                                        .setRow(ByteString.copyFromUtf8("p"))
                                        .setMutateType(MutationProto.MutationType.PUT)
                                        .setAssociatedCellCount(1))))
                .build(),
            List.<Cell>of(plusOne, put("p", "c", "v")).iterator(),
            new ArrayList<>(),
            CALL);
    assertThat(logged).containsExactly("77/1234", "78/5678", "0/0");
  }
}
