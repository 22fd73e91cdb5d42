package dev.basalt.server.regionserver;

import dev.basalt.cell.Bytes;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.RegionHost;
import dev.basalt.fs.Storage;
import dev.basalt.region.Region;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ExecuteProceduresRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ExecuteProceduresResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionResponse.RegionOpeningState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.RemoteProcedureRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.StopServerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.StopServerResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition.TransitionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's commands to a cluster region server, added to its AdminService: OpenRegion,
 * CloseRegion and StopServer (docs/formats/cluster.md, "Master <-> region server protocol").
 *
 * <p>Both region commands are refused (DoNotRetryIOException) when their {@code serverStartCode}
 * names another life of this server, or their {@code initiating_master_active_time} (the master's
 * epoch) is older than the newest epoch seen ({@link MasterEpochs}); a field left out is not
 * checked. They are idempotent, and answer at once: the work runs on small thread pools (three
 * openers, three closers, as HBase's executor defaults) and its outcome goes to the master through
 * {@link TransitionReporter} as OPENED (open_seq_num = the region's next sequence id), FAILED_OPEN,
 * or CLOSED (open_seq_num = the region's last sequence id). Reports echo the command's operation id
 * and epoch.
 *
 * <pre>
 * OpenRegion, per region              answer          then
 * open here                           ALREADY_OPENED  OPENED reported again
 * being opened                        OPENED          the open in progress reports (for this command)
 * being closed                        OPENED          opened once the close ended
 * table descriptor unreadable         FAILED_OPENING  FAILED_OPEN reported
 * otherwise                           OPENED          opened, OPENED or FAILED_OPEN reported
 *
 * CloseRegion                         answer          then
 * open here                           closed=true     flushed and closed, CLOSED reported; for a move
 *                                                     clients get RegionMovedException for 2 min
 * being closed                        closed=true     the close in progress reports (for this command)
 * being opened                        closed=true     closed once the open ended
 * not here                            closed=true     CLOSED reported again (when the region is known)
 * </pre>
 *
 * A close whose final flush fails leaves the region open and served (its edits are in the log; the
 * master's retry closes it); HBase aborts the server instead. Opens are refused once a graceful
 * stop began. Thread-safe.
 */
public final class RegionAssignmentHandlers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionAssignmentHandlers.class);
  private static final int OPENERS = 3;
  private static final int CLOSERS = 3;

  private final HostedRegions regions;
  private final Storage storage;
  private final MasterEpochs epochs;
  private final TransitionReporter reporter;
  private final Runnable stopServer;
  private final ExecutorService openers;
  private final ExecutorService closers;
  private volatile boolean refuseOpens;

  /**
   * @param storage the shared root, where region servers read table descriptors and sequence floors
   * @param stopServer starts a graceful stop and returns at once (StopServer)
   */
  public RegionAssignmentHandlers(
      HostedRegions regions,
      Storage storage,
      MasterEpochs epochs,
      TransitionReporter reporter,
      Runnable stopServer) {
    this(
        regions,
        storage,
        epochs,
        reporter,
        stopServer,
        pool("basalt-rs-open", OPENERS),
        pool("basalt-rs-close", CLOSERS));
  }

  /** With the pools that open and close regions (tests hold tasks back). */
  RegionAssignmentHandlers(
      HostedRegions regions,
      Storage storage,
      MasterEpochs epochs,
      TransitionReporter reporter,
      Runnable stopServer,
      ExecutorService openers,
      ExecutorService closers) {
    this.openers = openers;
    this.closers = closers;
    this.regions = Objects.requireNonNull(regions, "regions");
    this.storage = Objects.requireNonNull(storage, "storage");
    this.epochs = Objects.requireNonNull(epochs, "epochs");
    this.reporter = Objects.requireNonNull(reporter, "reporter");
    this.stopServer = Objects.requireNonNull(stopServer, "stopServer");
  }

  /**
   * Adds OpenRegion, CloseRegion, ExecuteProcedures (opens, closes and the master's splits and
   * merges) and StopServer to an AdminService being built.
   */
  public RpcService.Builder register(RpcService.Builder builder) {
    return builder
        .method(
            "ExecuteProcedures",
            ExecuteProceduresRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(executeProcedures(req)))
        .method(
            "OpenRegion",
            OpenRegionRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(openRegion(req)))
        .method(
            "CloseRegion",
            CloseRegionRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(closeRegion(req)))
        .method(
            "StopServer",
            StopServerRequest.getDefaultInstance(),
            (req, call) -> {
              LOG.info("stop requested by {}: {}", call.remoteAddress(), req.getReason());
              stopServer.run();
              return RpcReply.of(StopServerResponse.getDefaultInstance());
            });
  }

  /** From now on OpenRegion is refused with RegionServerStoppedException (a graceful stop). */
  public void refuseOpens() {
    refuseOpens = true;
  }

  // ---- OpenRegion ---------------------------------------------------------------------------

  OpenRegionResponse openRegion(OpenRegionRequest req) throws IOException {
    regions.checkServing();
    if (refuseOpens) {
      throw RegionServerExceptions.stopping(regions.self());
    }
    Long epoch = req.hasInitiatingMasterActiveTime() ? req.getInitiatingMasterActiveTime() : null;
    checkTarget(req.hasServerStartCode(), req.getServerStartCode(), epoch);
    OpenRegionResponse.Builder b = OpenRegionResponse.newBuilder();
    for (OpenRegionRequest.RegionOpenInfo oi : req.getOpenInfoList()) {
      RegionInfo info = SchemaCodec.toRegionInfo(oi.getRegion());
      b.addOpeningState(openOne(info, new InTransition.Command(oi.getOpenProcId(), epoch, null)));
    }
    return b.build();
  }

  private RegionOpeningState openOne(RegionInfo info, InTransition.Command cmd) {
    RegionOpeningState known = alreadyOpenOrOpening(info, cmd);
    if (known != null) {
      return known;
    }
    TableDescriptor desc;
    try {
      desc = ClusterCatalog.readDescriptor(storage, info.getTable());
    } catch (IOException | RuntimeException e) {
      LOG.error(
          "cannot open region {}: the descriptor of table {} cannot be read",
          info.getEncodedName(),
          info.getTable(),
          e);
      reporter.report(transition(TransitionCode.FAILED_OPEN, info, -1, cmd));
      return RegionOpeningState.FAILED_OPENING;
    }
    synchronized (regions.lock()) {
      known = alreadyOpenOrOpening(info, cmd); // another command may have started it meanwhile
      if (known != null) {
        return known;
      }
      InTransition closing = regions.transition(info.getEncodedName());
      InTransition open = regions.beginOpen(info, cmd);
      openers.execute(() -> runOpen(open, desc, closing));
    }
    return RegionOpeningState.OPENED;
  }

  /** The answer for a region open or being opened here, or null when neither. */
  private RegionOpeningState alreadyOpenOrOpening(RegionInfo info, InTransition.Command cmd) {
    String name = info.getEncodedName();
    synchronized (regions.lock()) {
      InTransition t = regions.transition(name);
      if (t != null && t.opening) {
        t.retarget(cmd);
        return RegionOpeningState.OPENED;
      }
      if (t == null && regions.host().region(name) != null) {
        reporter.report(transition(TransitionCode.OPENED, info, regions.openSeqNum(name), cmd));
        return RegionOpeningState.ALREADY_OPENED;
      }
      return null;
    }
  }

  private void runOpen(InTransition t, TableDescriptor desc, InTransition previousClose) {
    try {
      if (previousClose != null) {
        previousClose.done.join();
      }
      RegionHost host = regions.host();
      long floor = ClusterCatalog.readRegionFloor(storage, t.info);
      Region r = host.open(t.info, desc, floor);
      long openSeqNum = r.getLastSequenceId() + 1;
      regions.endOpen(t, openSeqNum);
      LOG.info(
          "opened region {} of {} (open sequence number {})",
          t.encodedName(),
          t.info.getTable(),
          openSeqNum);
      reporter.report(transition(TransitionCode.OPENED, t.info, openSeqNum, t.command()));
    } catch (IOException | RuntimeException e) {
      LOG.error("could not open region {}; reporting FAILED_OPEN", t.info, e);
      regions.endOpen(t, null);
      reporter.report(transition(TransitionCode.FAILED_OPEN, t.info, -1, t.command()));
    } finally {
      t.done.complete(null);
    }
  }

  // ---- ExecuteProcedures: batched commands, splits and merges --------------------------------

  /** The {@code proc_class} of a split or merge the master planned. */
  public static final String HAND_OVER = "dev.basalt.RegionHandOver";

  /** Splits and merges done here lately, by operation id: their report, to send again. */
  private final Map<Long, RegionStateTransition> handedOver =
      java.util.Collections.synchronizedMap(
          new java.util.LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, RegionStateTransition> e) {
              return size() > 100;
            }
          });

  ExecuteProceduresResponse executeProcedures(ExecuteProceduresRequest req) throws IOException {
    for (OpenRegionRequest open : req.getOpenRegionList()) {
      openRegion(open);
    }
    for (CloseRegionRequest close : req.getCloseRegionList()) {
      closeRegion(close);
    }
    for (RemoteProcedureRequest proc : req.getProcList()) {
      if (!HAND_OVER.equals(proc.getProcClass())) {
        throw BasaltIOException.doNotRetry(
            "procedure class " + proc.getProcClass() + " is not run by Basalt's region servers");
      }
      handOver(proc);
    }
    return ExecuteProceduresResponse.getDefaultInstance();
  }

  /**
   * A split ({@code READY_TO_SPLIT [parent, a, b]}) or merge ({@code READY_TO_MERGE [merged, a,
   * b]}) planned by the master: the old regions close (flushed) and their data goes to the new
   * regions through references ({@link RegionHost#handOver}); SPLIT or MERGED is reported with the
   * old regions' last sequence id, or SPLIT_REVERTED / MERGE_REVERTED when it could not be done
   * (the old regions serve again). A repeated command for an operation done here repeats its
   * report.
   */
  private void handOver(RemoteProcedureRequest proc) throws IOException {
    regions.checkAcceptsCloses();
    Long epoch = proc.hasInitiatingMasterActiveTime() ? proc.getInitiatingMasterActiveTime() : null;
    if (epoch != null) {
      epochs.check(epoch);
    }
    RegionStateTransition plan = RegionStateTransition.parseFrom(proc.getProcData());
    boolean split = plan.getTransitionCode() == TransitionCode.READY_TO_SPLIT;
    if (!split && plan.getTransitionCode() != TransitionCode.READY_TO_MERGE) {
      throw BasaltIOException.doNotRetry("not a split or merge plan: " + plan.getTransitionCode());
    }
    List<RegionInfo> all = new ArrayList<>();
    for (HBaseProtos.RegionInfo r : plan.getRegionInfoList()) {
      all.add(SchemaCodec.toRegionInfo(r));
    }
    List<RegionInfo> olds = split ? all.subList(0, 1) : all.subList(1, all.size());
    List<RegionInfo> news = split ? all.subList(1, all.size()) : all.subList(0, 1);
    InTransition.Command cmd = new InTransition.Command(proc.getProcId(), epoch, null);
    List<InTransition> closing = new ArrayList<>();
    synchronized (regions.lock()) {
      RegionStateTransition done = handedOver.get(proc.getProcId());
      if (done != null) {
        reporter.report(done);
        return;
      }
      for (RegionInfo o : olds) {
        if (regions.transition(o.getEncodedName()) != null) {
          throw BasaltIOException.doNotRetry(
              "region " + o.getEncodedName() + " is being opened or closed; try again later");
        }
        if (regions.host().region(o.getEncodedName()) == null) {
          throw new BasaltIOException(
              o.getRegionNameAsString() + " is not online on " + regions.self(),
              RegionLookup.NOT_SERVING,
              false);
        }
      }
      for (RegionInfo o : olds) {
        closing.add(regions.beginClose(o, cmd));
      }
    }
    closers.execute(() -> runHandOver(closing, olds, news, all, split, cmd));
  }

  private void runHandOver(
      List<InTransition> closing,
      List<RegionInfo> olds,
      List<RegionInfo> news,
      List<RegionInfo> all,
      boolean split,
      InTransition.Command cmd) {
    RegionStateTransition.Builder report = RegionStateTransition.newBuilder();
    all.forEach(r -> report.addRegionInfo(SchemaCodec.toProto(r)));
    if (cmd.procId() != -1) {
      report.addProcId(cmd.procId());
    }
    if (cmd.epoch() != null) {
      report.setInitiatingMasterActiveTime(cmd.epoch());
    }
    try {
      List<String> names = new ArrayList<>();
      olds.forEach(o -> names.add(o.getEncodedName()));
      RegionHost.HandOver h = regions.host().handOver(names, news);
      for (InTransition t : closing) {
        regions.endClose(t, h.lastSequenceId());
      }
      report
          .setTransitionCode(split ? TransitionCode.SPLIT : TransitionCode.MERGED)
          .setOpenSeqNum(h.lastSequenceId());
      RegionStateTransition built = report.build();
      handedOver.put(cmd.procId(), built);
      LOG.info("{} {} into {}", split ? "split" : "merged", names, news);
      reporter.report(built);
    } catch (IOException | RuntimeException e) {
      LOG.error("could not {} {}; they serve as before", split ? "split" : "merge", olds, e);
      for (InTransition t : closing) {
        regions.closeFailed(t);
      }
      reporter.report(
          report
              .setTransitionCode(
                  split ? TransitionCode.SPLIT_REVERTED : TransitionCode.MERGE_REVERTED)
              .build());
    } finally {
      for (InTransition t : closing) {
        t.done.complete(null);
      }
    }
  }

  // ---- CloseRegion --------------------------------------------------------------------------

  CloseRegionResponse closeRegion(CloseRegionRequest req) throws IOException {
    regions.checkAcceptsCloses();
    Long epoch = req.hasInitiatingMasterActiveTime() ? req.getInitiatingMasterActiveTime() : null;
    checkTarget(req.hasServerStartCode(), req.getServerStartCode(), epoch);
    ServerName destination = null;
    if (req.hasDestinationServer()) {
      HBaseProtos.ServerName d = req.getDestinationServer();
      destination = new ServerName(d.getHostName(), d.getPort(), d.getStartCode());
    }
    InTransition.Command cmd = new InTransition.Command(req.getCloseProcId(), epoch, destination);
    String name = encodedName(req.getRegion());
    synchronized (regions.lock()) {
      InTransition t = regions.transition(name);
      if (t != null && !t.opening) {
        t.retarget(cmd);
      } else {
        Region r = regions.host().region(name);
        if (t == null && r == null) {
          reportClosedAgain(req.getRegion(), name, cmd);
        } else {
          RegionInfo info = t != null ? t.info : r.getRegionInfo();
          InTransition close = regions.beginClose(info, cmd);
          closers.execute(() -> runClose(close, t));
        }
      }
    }
    return CloseRegionResponse.newBuilder().setClosed(true).build();
  }

  private void runClose(InTransition t, InTransition previousOpen) {
    try {
      if (previousOpen != null) {
        previousOpen.done.join();
      }
      long last = regions.host().close(t.encodedName()); // flushes first; -1 when not open
      regions.endClose(t, last);
      ServerName to = t.command().destination();
      LOG.info(
          "closed region {} of {} (last sequence id {}){}",
          t.encodedName(),
          t.info.getTable(),
          last,
          to == null ? "" : ", moving to " + to);
      reporter.report(transition(TransitionCode.CLOSED, t.info, last, t.command()));
    } catch (IOException | RuntimeException e) {
      LOG.error(
          "could not close region {}; it stays open here, and the master may ask again", t.info, e);
      regions.closeFailed(t);
    } finally {
      t.done.complete(null);
    }
  }

  /** A close of a region not here: the master did not get the CLOSED report, or asks again. */
  private void reportClosedAgain(
      HBaseProtos.RegionSpecifier spec, String name, InTransition.Command cmd) {
    HostedRegions.Closed closed = regions.closedHere(name);
    RegionInfo info = closed != null ? closed.info() : null;
    if (info == null
        && spec.getType() == HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME) {
      info = fromRegionName(spec.getValue().toByteArray(), name);
    }
    if (info == null) {
      LOG.warn("asked to close region {}, which was not open here; nothing to report", name);
      return;
    }
    reporter.report(
        transition(
            TransitionCode.CLOSED, info, closed == null ? -1 : closed.lastSequenceId(), cmd));
  }

  /**
   * Closes every region still open here, flushed, reporting each (the end of a graceful stop, or a
   * stop without a master). Waits for opens and closes in progress first.
   */
  public void closeAll() {
    for (InTransition t : regions.transitions()) {
      t.done.join();
    }
    RegionHost host = regions.host();
    if (host == null) {
      return;
    }
    for (Region r : host.regions()) {
      InTransition close;
      synchronized (regions.lock()) {
        if (regions.transition(r.getRegionInfo().getEncodedName()) != null) {
          continue; // a command got there first; it reports
        }
        close = regions.beginClose(r.getRegionInfo(), new InTransition.Command(-1, null, null));
      }
      runClose(close, null);
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  private void checkTarget(boolean hasStartCode, long startCode, Long epoch)
      throws BasaltIOException {
    ServerName me = regions.self();
    if (hasStartCode && startCode != me.startCode()) {
      throw BasaltIOException.doNotRetry("this is " + me + ", not startcode " + startCode);
    }
    if (epoch != null) {
      epochs.check(epoch);
    }
  }

  private static String encodedName(HBaseProtos.RegionSpecifier spec) throws BasaltIOException {
    return switch (spec.getType()) {
      case ENCODED_REGION_NAME -> spec.getValue().toStringUtf8();
      case REGION_NAME -> {
        String name = HostedRegions.encodedNameOf(spec.getValue().toByteArray());
        if (name == null) {
          throw BasaltIOException.doNotRetry(
              Bytes.toStringBinary(spec.getValue().toByteArray())
                  + " is not a region name (table,startkey,id.ENCODED.)");
        }
        yield name;
      }
    };
  }

  /**
   * The region a full name names (table, start key and id; the end key is not in the name), or null
   * when the name does not parse or does not hash to its encoded name.
   */
  static RegionInfo fromRegionName(byte[] fullName, String encoded) {
    int end = fullName.length - encoded.length() - 2; // before ".ENCODED."
    int firstComma = -1;
    int lastComma = -1;
    for (int i = 0; i < end; i++) {
      if (fullName[i] == ',') {
        firstComma = firstComma < 0 ? i : firstComma;
        lastComma = i;
      }
    }
    if (firstComma <= 0 || lastComma == firstComma) {
      return null;
    }
    try {
      TableName table = TableName.valueOf(java.util.Arrays.copyOfRange(fullName, 0, firstComma));
      byte[] start = java.util.Arrays.copyOfRange(fullName, firstComma + 1, lastComma);
      long id =
          Long.parseLong(
              new String(
                  fullName,
                  lastComma + 1,
                  end - lastComma - 1,
                  java.nio.charset.StandardCharsets.US_ASCII));
      RegionInfo info = RegionInfo.of(table, start, Bytes.EMPTY, id);
      return info.getEncodedName().equals(encoded) ? info : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** A report of an outcome; {@code seqNum} < 0 and an operation id of -1 are left out. */
  static RegionStateTransition transition(
      TransitionCode code, RegionInfo info, long seqNum, InTransition.Command cmd) {
    RegionStateTransition.Builder b =
        RegionStateTransition.newBuilder()
            .setTransitionCode(code)
            .addRegionInfo(SchemaCodec.toProto(info));
    if (seqNum >= 0) {
      b.setOpenSeqNum(seqNum);
    }
    if (cmd.procId() != -1) {
      b.addProcId(cmd.procId());
    }
    if (cmd.epoch() != null) {
      b.setInitiatingMasterActiveTime(cmd.epoch());
    }
    return b.build();
  }

  private static ExecutorService pool(String name, int threads) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads,
        r -> {
          Thread t = new Thread(r, name + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }

  /** Stops the pools; opens and closes in progress are abandoned after a short wait. */
  @Override
  public void close() {
    openers.shutdown();
    closers.shutdown();
    try {
      if (!openers.awaitTermination(10, TimeUnit.SECONDS)
          || !closers.awaitTermination(10, TimeUnit.SECONDS)) {
        openers.shutdownNow();
        closers.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      openers.shutdownNow();
      closers.shutdownNow();
    }
  }
}
