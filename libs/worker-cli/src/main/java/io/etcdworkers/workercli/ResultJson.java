package io.etcdworkers.workercli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.BuildVersion;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.ResultFields;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.rebuild.engine.DefragStats;
import io.etcdworkers.rebuild.engine.EngineWork;
import io.etcdworkers.rebuild.engine.FoldWork;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import io.etcdworkers.rebuild.engine.ReplayWork;
import io.etcdworkers.rebuild.sequence.SequenceStats;
import io.etcdworkers.rebuild.verify.RangeWalk;
import java.time.Duration;
import java.util.Map;

/**
 * Fills the result JSON's fields from what a run produced; one place, so both workers agree. How a
 * run ended is written under the contract's {@link ResultFields}, which the launcher reads.
 */
public final class ResultJson {
    private ResultJson() {}

    /** A new result with {@code kind} and a pessimistic outcome, so a crash never reads as success. */
    public static ObjectNode start(String kind) {
        ObjectNode result = ResultReporter.newResult();
        result.put(ResultFields.KIND, kind);
        result.put(ResultFields.OUTCOME, ResultFields.RUNNING);
        result.put(ResultFields.EXIT_CODE, ErrorCode.UNEXPECTED.exitCode());
        result.put(ResultFields.VERSION, BuildVersion.current());
        return result;
    }

    /** The store the run reads (and, for a compaction, writes), by etcdbrctl's provider name. */
    public static void store(ObjectNode result, StoreOptions options) {
        result.put("storageProvider", options.provider.name());
    }

    public static void succeeded(ObjectNode result) {
        result.put(ResultFields.OUTCOME, ResultFields.SUCCEEDED);
        result.put(ResultFields.EXIT_CODE, 0);
    }

    public static void failed(ObjectNode result, WorkerException e) {
        result.put(ResultFields.OUTCOME, ResultFields.FAILED);
        result.put(ResultFields.EXIT_CODE, e.code().exitCode());
        result.put(ResultFields.ERROR_CODE, e.code().name());
        result.put(ResultFields.RETRYABLE, e.code().retryable());
        result.put(ResultFields.ERROR, e.getMessage());
        e.object().ifPresent(o -> result.put(ResultFields.OBJECT, o));
    }

    /** The rebuild's figures (a restore's and a compaction's). */
    public static void rebuild(ObjectNode result, RebuildOutcome o, Map<String, Duration> phaseTimes) {
        ObjectNode base = result.putObject("base");
        base.put("name", o.selection().base().key());
        base.put("size", o.selection().base().size());
        base.put("revision", o.baseRevision());
        if (!o.selection().setAside().isEmpty()) {
            // newer full snapshots found damaged: the base is an older one whose chain goes on from it
            ArrayNode aside = result.putArray("baseSetAside");
            o.selection()
                    .setAside()
                    .forEach(a -> aside.addObject()
                            .put("object", a.object())
                            .put("reach", a.reach())
                            .put("code", a.code().name())
                            .put("reason", a.reason()));
        }
        if (!o.selection().excluded().isEmpty()) {
            // marked x-etcd-snapshot-exclude=true where the store keeps the mark: left out, as etcdbrctl leaves them
            // out
            ArrayNode excluded = result.putArray("excludedSnapshots");
            o.selection()
                    .excluded()
                    .forEach(x -> excluded.addObject()
                            .put("object", x.key())
                            .put("mark", x.info().excludedBy().orElse("")));
        }
        result.put("engine", o.engine().label());
        if (!o.engineNote().isEmpty()) {
            result.put("engineFallback", o.engineNote());
        }
        SequenceStats s = o.stats().sequence();
        result.put("deltas", o.selection().deltas().size());
        result.put("deltaBytes", o.selection().deltaBytes());
        result.put("revisions", s.revisions());
        result.put("events", s.events());
        result.put("skippedEvents", s.skippedEvents());
        if (!s.overlaps().isEmpty()) {
            // deltas written around a leader change: the revisions both hold, with the same events, taken once
            ArrayNode overlaps = result.putArray("overlapsTakenOnce");
            s.overlaps()
                    .forEach(v -> overlaps.addObject()
                            .put("earlier", v.earlier())
                            .put("later", v.later())
                            .put("firstRevision", v.firstRevision())
                            .put("lastRevision", v.lastRevision()));
        }
        result.put("finalRevision", o.finalRevision());
        result.put("keys", o.digest().keys());
        result.put("leasedKeys", o.digest().leasedKeys());
        result.put("kvSha256", o.digest().kvSha256());
        result.put("metaSha256", o.digest().metaSha256());
        ObjectNode read = result.putObject("verifyRead");
        RangeWalk.Cost cost = o.served().cost();
        read.put("scope", o.served().scope().label());
        o.served().hashKv().ifPresent(h -> read.put("hashKv", h));
        read.put("ranges", cost.ranges());
        read.put("rangeRequests", cost.rangeRequests());
        read.put("keysRead", cost.keysRead());
        read.put("keysCounted", cost.keysCounted());
        result.put("leasesGranted", o.stats().leasesGranted());
        EngineWork work = o.stats().work();
        if (work instanceof FoldWork f) {
            ObjectNode fold = result.putObject("fold");
            fold.put("memoryBudgetBytes", f.memoryBudgetBytes());
            fold.put("partitions", f.partitions());
            fold.put("partitionedBytes", f.partitionedBytes());
            fold.put("baseAsIs", f.baseAsIs());
            fold.put("earlyStart", f.earlyStart().json());
        }
        // the offline engine ran no etcd while building: nothing revoked, restarted or defragmented
        int leasesRevoked = 0;
        int etcdRestarts = 0;
        DefragStats d = DefragStats.none(o.stats().finalDbSize());
        if (work instanceof ReplayWork replay) {
            leasesRevoked = replay.leasesRevoked();
            etcdRestarts = replay.etcdRestarts();
            d = replay.defrag();
        }
        result.put("leasesRevoked", leasesRevoked);
        result.put("largestRevisionEvents", s.largestGroupEvents());
        result.put("largestRevisionBytes", s.largestGroupBytes());
        result.put("etcdRestarts", etcdRestarts);
        ObjectNode defrag = result.putObject("defragmentations");
        defrag.put("count", d.count());
        defrag.put("failed", d.failed());
        defrag.put("bytesReclaimed", d.bytesReclaimed());
        defrag.put("seconds", seconds(d.time()));
        defrag.put("lastTrigger", d.lastTrigger());
        result.put("peakDbSize", d.peakDbSize());
        result.put("finalDbSize", o.stats().finalDbSize());
        PointInTimeJson.write(result, o);
        ObjectNode phases = result.putObject("phaseSeconds");
        for (Map.Entry<String, Duration> phase : phaseTimes.entrySet()) {
            phases.put(phase.getKey(), seconds(phase.getValue()));
        }
    }

    public static double seconds(Duration d) {
        return Math.round(d.toMillis() / 10.0) / 100.0;
    }
}
