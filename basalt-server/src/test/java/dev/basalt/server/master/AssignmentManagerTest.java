package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.fs.LocalStorage;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.master.RegionAssignment.State;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master's assignment state machine against fake region servers that answer its commands as
 * real ones do (or, when told, do not answer): tables open and close, regions move, a restarted
 * master re-sends what was in flight, strays are closed, and a server that dies with regions open
 * leaves them waiting for recovery instead of reopening them without their log.
 */
class AssignmentManagerTest {
  private static final TableName T = TableName.valueOf("t");
  private static final ServerName A = new ServerName("a", 1, 1);
  private static final ServerName B = new ServerName("b", 2, 2);

  @TempDir Path root;

  private ClusterCatalog catalog;
  private MasterStore store;
  private ServerManager servers;
  private FakeServers fake;
  private AssignmentManager am;

  /** Region servers that answer opens and closes at once, unless muted. */
  final class FakeServers implements RegionCommands {
    final List<String> log = new CopyOnWriteArrayList<>();
    final Set<ServerName> muted = ConcurrentHashMap.newKeySet();
    final Map<String, ServerName> openOn = new ConcurrentHashMap<>();
    long seq = 10;

    @Override
    public void open(ServerName server, RegionInfo region, long op) throws IOException {
      log.add("open " + region.getEncodedName() + " on " + server.host());
      if (!muted.contains(server)) {
        openOn.put(region.getEncodedName(), server);
        am.opened(server, region, nextSeq());
      }
    }

    @Override
    public void close(ServerName server, RegionInfo region, ServerName destination, long op)
        throws IOException {
      log.add(
          "close "
              + region.getEncodedName()
              + " on "
              + server.host()
              + (destination == null ? "" : " for " + destination.host()));
      if (!muted.contains(server)) {
        openOn.remove(region.getEncodedName(), server);
        am.closed(server, region, nextSeq());
      }
    }

    @Override
    public void handOver(
        ServerName server,
        org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos
                .RegionStateTransition
            plan,
        long op)
        throws IOException {
      log.add("handOver " + plan.getTransitionCode() + " on " + server.host());
      if (muted.contains(server)) {
        return;
      }
      List<RegionInfo> regions = new ArrayList<>();
      for (var r : plan.getRegionInfoList()) {
        regions.add(dev.basalt.server.protocol.SchemaCodec.toRegionInfo(r));
      }
      boolean split =
          plan.getTransitionCode()
              == org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos
                  .RegionStateTransition.TransitionCode.READY_TO_SPLIT;
      if (revertHandOvers) {
        am.handOverReverted(server, split ? regions.subList(0, 1) : regions.subList(1, 3));
        return;
      }
      am.handedOver(
          server,
          split
              ? org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos
                  .RegionStateTransition.TransitionCode.SPLIT
              : org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos
                  .RegionStateTransition.TransitionCode.MERGED,
          regions,
          nextSeq());
    }

    volatile boolean revertHandOvers;

    private synchronized long nextSeq() {
      return ++seq;
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    catalog = ClusterCatalog.open(new LocalStorage(root), Clock.system(), true);
    store = MasterStore.open(root);
    servers = new ServerManager(Clock.system(), 30_000);
    fake = new FakeServers();
    am = newAssignmentManager(1);
    servers.startup(A, System.currentTimeMillis());
    servers.startup(B, System.currentTimeMillis());
    servers.znodes(List.of(A.toString(), B.toString()), 30_000); // assignable once seen
    am.start();
  }

  private AssignmentManager newAssignmentManager(long epoch) {
    AssignmentManager m =
        new AssignmentManager(catalog, store, servers, fake, Clock.system(), epoch, 200);
    servers.setListener(
        new ServerManager.Listener() {
          @Override
          public void serverAdded(ServerName server) {
            m.kick();
          }

          @Override
          public void serverDied(ServerName server) {
            m.serverDied(server);
          }
        });
    return m;
  }

  @AfterEach
  void tearDown() throws IOException {
    am.close();
    store.close();
  }

  private List<RegionInfo> createTable(int regions) throws IOException {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 0; i < splits.length; i++) {
      splits[i] = Bytes.toBytes("r" + (i + 1));
    }
    return catalog
        .createTable(
            TableDescriptorBuilder.newBuilder(T)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
                .build(),
            splits)
        .regionInfos();
  }

  private static void await(java.util.concurrent.CompletableFuture<Void> f) throws Exception {
    f.get(20, TimeUnit.SECONDS);
  }

  private Map<ServerName, Integer> perServer() {
    Map<ServerName, Integer> out = new HashMap<>();
    for (RegionAssignment a : am.snapshot().values()) {
      if (a.state() == State.OPEN) {
        out.merge(a.location(), 1, Integer::sum);
      }
    }
    return out;
  }

  @Test
  void anEnabledTableOpensSpreadAndPersisted() throws Exception {
    List<RegionInfo> regions = createTable(4);
    await(am.awaitOpen(T));
    assertThat(perServer()).containsEntry(A, 2).containsEntry(B, 2);
    Map<String, String> stored = store.regions();
    for (RegionInfo r : regions) {
      RegionAssignment a = RegionAssignment.decode(stored.get(r.getEncodedName()));
      assertThat(a.state()).isEqualTo(State.OPEN);
      assertThat(a.openSeqNum()).isPositive();
      assertThat(fake.openOn.get(r.getEncodedName())).isEqualTo(a.location());
    }

    catalog.setEnabled(T, false, Map.of());
    await(am.awaitClosed(T));
    assertThat(fake.openOn).isEmpty();
    am.kick();
    // The last sequence ids the servers reported become the regions' floors in the catalog.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (ClusterCatalog.readRegionFloor(catalog.storage(), regions.get(0)) == 0
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(ClusterCatalog.readRegionFloor(catalog.storage(), regions.get(0))).isPositive();
  }

  @Test
  void aMoveClosesWithTheDestinationThenOpensThere() throws Exception {
    RegionInfo r = createTable(1).get(0);
    await(am.awaitOpen(T));
    ServerName from = am.snapshot().get(r.getEncodedName()).location();
    ServerName to = from.equals(A) ? B : A;
    long seqBefore = am.snapshot().get(r.getEncodedName()).openSeqNum();
    await(am.move(r.getEncodedName(), to));
    RegionAssignment a = am.snapshot().get(r.getEncodedName());
    assertThat(a.state()).isEqualTo(State.OPEN);
    assertThat(a.location()).isEqualTo(to);
    assertThat(a.openSeqNum()).as("seqnumDuringOpen grows").isGreaterThan(seqBefore);
    assertThat(fake.log)
        .contains("close " + r.getEncodedName() + " on " + from.host() + " for " + to.host());
    assertThatThrownBy(() -> am.move(r.getEncodedName(), new ServerName("nowhere", 9, 9)))
        .hasMessageContaining("no such live region server");
  }

  @Test
  void aRestartedMasterResendsWhatWasInFlight() throws Exception {
    fake.muted.add(A);
    fake.muted.add(B);
    List<RegionInfo> regions = createTable(2);
    am.kick();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (am.inTransitionCount() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(am.inTransitionCount()).isEqualTo(2);
    // The master stops with both opens persisted but unanswered; the next one finds them.
    am.close();
    fake.muted.clear();
    am = newAssignmentManager(2);
    am.start();
    await(am.awaitOpen(T));
    for (RegionInfo r : regions) {
      assertThat(am.snapshot().get(r.getEncodedName()).state()).isEqualTo(State.OPEN);
    }
  }

  /**
   * A master that takes over is told of live region servers (a kick) before it has loaded the
   * stored assignment: no pass may run on the empty one, which placed every region again while it
   * was open elsewhere (a region on two servers after two take-overs, found by the chaos suite).
   */
  @Test
  void aNewMasterDoesNothingBeforeItHasLoadedTheStoredAssignment() throws Exception {
    List<RegionInfo> regions = createTable(4);
    await(am.awaitOpen(T));
    Map<String, RegionAssignment> before = am.snapshot();
    Map<String, String> storedBefore = store.regions();
    am.close();
    fake.log.clear();

    am = newAssignmentManager(2);
    am.kick(); // as a region server's registration does, before start
    Thread.sleep(300);
    assertThat(fake.log).as("commands sent before the records were loaded").isEmpty();
    assertThat(store.regions()).isEqualTo(storedBefore);
    am.load();
    am.kick();
    Thread.sleep(300);
    assertThat(fake.log).as("a pass before start").isEmpty();

    am.start();
    await(am.awaitOpen(T));
    Thread.sleep(300); // a pass or two
    for (RegionInfo r : regions) {
      String name = r.getEncodedName();
      assertThat(am.snapshot().get(name).location())
          .as("region %s stays where it was open", name)
          .isEqualTo(before.get(name).location());
    }
    assertThat(fake.log).noneMatch(line -> line.startsWith("open "));
  }

  @Test
  void aServerThatOpensARegionPlacedElsewhereIsToldToCloseIt() throws Exception {
    RegionInfo r = createTable(1).get(0);
    await(am.awaitOpen(T));
    ServerName owner = am.snapshot().get(r.getEncodedName()).location();
    ServerName stray = owner.equals(A) ? B : A;
    fake.log.clear();
    am.opened(stray, r, 99);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!fake.log.contains("close " + r.getEncodedName() + " on " + stray.host())
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(fake.log).contains("close " + r.getEncodedName() + " on " + stray.host());
    assertThat(am.snapshot().get(r.getEncodedName()).location()).isEqualTo(owner);
  }

  /**
   * A region server that dies in the middle of a split: the plan is abandoned (the catalog switch
   * never happened), the caller is told, the parent opens again as it was, and no plan is left to
   * hold the table's janitor off, in this master or the next.
   */
  @Test
  void aSplitWhoseServerDiesIsAbandonedAndTheParentOpensAgain() throws Exception {
    RegionInfo parent = createTable(1).get(0);
    await(am.awaitOpen(T));
    String name = parent.getEncodedName();
    ServerName owner = am.snapshot().get(name).location();
    fake.muted.add(owner); // takes the hand-over, never reports
    java.util.concurrent.CompletableFuture<List<RegionInfo>> split =
        am.split(name, Bytes.toBytes("m"));
    assertThat(am.stateOf(name)).isEqualTo(State.SPLITTING);
    assertThat(store.plans()).hasSize(1);

    servers.died(owner);
    assertThatThrownBy(() -> split.get(10, TimeUnit.SECONDS))
        .hasMessageContaining("died during the split or merge");
    assertThat(am.stateOf(name)).isEqualTo(State.ABNORMALLY_CLOSED);
    assertThat(store.plans()).isEmpty();
    assertThat(am.unlessHandingOver(T, () -> {})).as("the janitor may run").isTrue();

    am.logRecovered(owner);
    await(am.awaitOpen(T));
    assertThat(am.stateOf(name)).isEqualTo(State.OPEN);
    assertThat(catalog.requireTable(T).regionInfos()).containsExactly(parent);

    // a plan a dead server left in the store before this was tidied: the next master drops it
    am.close();
    store.putPlan(4242L, "AA==");
    am = newAssignmentManager(2);
    am.start();
    await(am.awaitOpen(T));
    assertThat(store.plans()).isEmpty();
  }

  @Test
  void regionsOfAServerThatDiedOpenWaitForRecovery() throws Exception {
    List<RegionInfo> regions = createTable(4);
    await(am.awaitOpen(T));
    List<String> onA = new ArrayList<>();
    for (RegionInfo r : regions) {
      if (A.equals(am.snapshot().get(r.getEncodedName()).location())) {
        onA.add(r.getEncodedName());
      }
    }
    servers.died(A);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (am.stateOf(onA.get(0)) != State.ABNORMALLY_CLOSED && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    for (String name : onA) {
      assertThat(am.stateOf(name)).isEqualTo(State.ABNORMALLY_CLOSED);
    }
    assertThat(servers.deadServers()).contains(A);
    assertThat(am.awaitingRecovery()).containsExactly(A);
    assertThatThrownBy(() -> am.assign(onA.get(0))).hasMessageContaining("recovery");
    // A dead server's next life is refused under the old name.
    assertThatThrownBy(() -> servers.startup(A, System.currentTimeMillis()))
        .hasMessageContaining("dead");
    // Its log recovered, its regions open on the server left.
    am.logRecovered(A);
    await(am.awaitOpen(T));
    for (String name : onA) {
      assertThat(am.stateOf(name)).isEqualTo(State.OPEN);
      assertThat(am.snapshot().get(name).location()).isEqualTo(B);
    }
    assertThat(am.awaitingRecovery()).isEmpty();
  }

  @Test
  void aRegionOpeningOnAServerThatDiesWaitsForThatServersRecovery() throws Exception {
    fake.muted.add(A);
    fake.muted.add(B);
    List<RegionInfo> regions = createTable(2);
    am.kick();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (am.inTransitionCount() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    String onA = null;
    for (RegionInfo r : regions) {
      if (A.equals(am.snapshot().get(r.getEncodedName()).target())) {
        onA = r.getEncodedName();
      }
    }
    assertThat(onA).as("one region opens on A").isNotNull();
    // A may have opened it and taken writes before it died: its log first.
    servers.died(A);
    assertThat(am.stateOf(onA)).isEqualTo(State.ABNORMALLY_CLOSED);
    assertThat(am.snapshot().get(onA).location()).isEqualTo(A);
    fake.muted.clear();
    am.logRecovered(A);
    await(am.awaitOpen(T));
    assertThat(am.snapshot().get(onA).location()).isEqualTo(B);
  }

  @Test
  void repeatedFailedOpensLeaveTheRegionFailedOpen() throws Exception {
    am.close();
    RegionCommands failing =
        new RegionCommands() {
          @Override
          public void open(ServerName server, RegionInfo region, long op) throws IOException {
            am.failedOpen(server, region);
          }

          @Override
          public void close(ServerName s, RegionInfo region, ServerName d, long op) {}

          @Override
          public void handOver(
              ServerName s,
              org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos
                      .RegionStateTransition
                  plan,
              long op) {}
        };
    am = new AssignmentManager(catalog, store, servers, failing, Clock.system(), 3, 200);
    RegionInfo r = createTable(1).get(0);
    am.start();
    await(am.awaitOpen(T)); // completes: the region cannot open
    assertThat(am.stateOf(r.getEncodedName())).isEqualTo(State.FAILED_OPEN);
  }

  @Test
  void recordsSurviveTheirTextForm() {
    RegionAssignment a = new RegionAssignment(State.CLOSING, A, B, 42, 7, A, true, 2);
    assertThat(RegionAssignment.decode(a.encode())).isEqualTo(a);
    assertThat(RegionAssignment.decode(RegionAssignment.NEW.encode()))
        .isEqualTo(RegionAssignment.NEW);
    assertThatThrownBy(() -> RegionAssignment.decode("state=OPEN"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void splitsAndMergesSwitchTheCatalogAndOpenTheNewRegionsWhereTheOldOnesWere() throws Exception {
    RegionInfo parent = createTable(1).get(0);
    await(am.awaitOpen(T));
    ServerName server = am.snapshot().get(parent.getEncodedName()).location();
    List<RegionInfo> daughters =
        am.split(parent.getEncodedName(), Bytes.toBytes("m")).get(20, TimeUnit.SECONDS);
    assertThat(daughters).hasSize(2);
    assertThat(catalog.requireTable(T).regionInfos()).isEqualTo(daughters);
    for (RegionInfo d : daughters) {
      RegionAssignment a = am.snapshot().get(d.getEncodedName());
      assertThat(a.state()).isEqualTo(State.OPEN);
      assertThat(a.location()).isEqualTo(server);
    }
    assertThat(am.snapshot()).doesNotContainKey(parent.getEncodedName());
    assertThat(store.plans()).isEmpty();
    assertThatThrownBy(() -> am.split(daughters.get(0).getEncodedName(), Bytes.toBytes("")))
        .hasMessageContaining("not strictly inside");

    // Apart on two servers, the merge first brings them together.
    ServerName other = server.equals(A) ? B : A;
    await(am.move(daughters.get(1).getEncodedName(), other));
    List<RegionInfo> merged =
        am.merge(daughters.get(1).getEncodedName(), daughters.get(0).getEncodedName())
            .get(20, TimeUnit.SECONDS);
    assertThat(merged).hasSize(1);
    assertThat(merged.get(0).getStartKey()).isEmpty();
    assertThat(merged.get(0).getEndKey()).isEmpty();
    assertThat(catalog.requireTable(T).regionInfos()).isEqualTo(merged);
    assertThat(am.stateOf(merged.get(0).getEncodedName())).isEqualTo(State.OPEN);

    // A region server that cannot do it serves the region as before.
    fake.revertHandOvers = true;
    String whole = merged.get(0).getEncodedName();
    assertThatThrownBy(() -> am.split(whole, Bytes.toBytes("m")).get(20, TimeUnit.SECONDS))
        .hasMessageContaining("could not split or merge");
    assertThat(am.stateOf(whole)).isEqualTo(State.OPEN);
    assertThat(catalog.requireTable(T).regionInfos()).isEqualTo(merged);
  }

  @Test
  void assignAndUnassignFollowHBasesRules() throws Exception {
    RegionInfo r = createTable(1).get(0);
    await(am.awaitOpen(T));
    String name = r.getEncodedName();
    assertThatThrownBy(() -> am.assign(name))
        .hasMessageContaining("Unexpected state for state=OPEN");
    await(am.unassign(name));
    assertThat(am.stateOf(name)).isEqualTo(State.CLOSED);
    am.kick();
    Thread.sleep(300);
    assertThat(am.stateOf(name)).as("held closed until assigned").isEqualTo(State.CLOSED);
    assertThatThrownBy(() -> am.unassign(name))
        .hasMessageContaining("Unexpected state for state=CLOSED");
    await(am.assign(name));
    assertThat(am.stateOf(name)).isEqualTo(State.OPEN);
  }

  @Test
  void aRegionInTransitionIsNotMovedSplitOrMergedUntilOpen() throws Exception {
    List<RegionInfo> regions = createTable(2);
    await(am.awaitOpen(T));
    RegionInfo r = regions.get(0);
    String name = r.getEncodedName();
    ServerName from = am.snapshot().get(name).location();
    ServerName to = from.equals(A) ? B : A;
    // the destination takes the open command but does not answer yet: the region is OPENING
    fake.muted.add(to);
    java.util.concurrent.CompletableFuture<Void> move = am.move(name, to);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (am.stateOf(name) != State.OPENING && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(am.stateOf(name)).isEqualTo(State.OPENING);

    String refusal = name + " is not OPEN; state=OPENING";
    for (org.assertj.core.api.ThrowableAssert.ThrowingCallable c :
        List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
            () -> am.split(name, Bytes.toBytes("r0")),
            () -> am.merge(name, regions.get(1).getEncodedName()),
            () -> am.move(name, from))) {
      assertThatThrownBy(c)
          .isInstanceOfSatisfying(
              dev.basalt.util.BasaltIOException.class,
              e -> {
                assertThat(e.hbaseExceptionClass())
                    .isEqualTo("org.apache.hadoop.hbase.client.DoNotRetryRegionException");
                assertThat(e.isDoNotRetry()).isTrue();
              })
          .hasMessageContaining(refusal);
    }
    // nothing was planned: the move completes as it would have, then a split goes ahead
    fake.muted.remove(to);
    am.opened(to, r, 1_000);
    move.get(20, TimeUnit.SECONDS);
    assertThat(am.snapshot().get(name).location()).isEqualTo(to);
    List<RegionInfo> daughters = am.split(name, Bytes.toBytes("r0")).get(20, TimeUnit.SECONDS);
    assertThat(daughters).hasSize(2);
    for (RegionInfo d : daughters) {
      assertThat(am.stateOf(d.getEncodedName())).isEqualTo(State.OPEN);
    }
  }
}
