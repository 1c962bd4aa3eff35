package io.etcdworkers.restore.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.ResultFields;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.format.ChainProblem;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.rebuild.verify.BackupVerifier;
import io.etcdworkers.rebuild.verify.ObjectCheck;
import io.etcdworkers.rebuild.verify.VerifyReport;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.workercli.DefaultScratchDir;
import io.etcdworkers.workercli.LogFormat;
import io.etcdworkers.workercli.MetricsOptions;
import io.etcdworkers.workercli.OverlappingPaths;
import io.etcdworkers.workercli.ResultJson;
import io.etcdworkers.workercli.ResultRun;
import io.etcdworkers.workercli.StoreFactory;
import io.etcdworkers.workercli.StoreOptions;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code verify-backup}: reads everything a restore would use and reports whether it would
 * work, without an etcd and without writing anything.
 */
@Command(
        name = RestoreWorkerCommand.VERIFY_BACKUP,
        mixinStandardHelpOptions = true,
        description = {
            "Lists what a restore would use (base, deltas, sizes, revision range), reads every object, "
                    + "checks hashes, JSON, the full snapshot's bbolt structure and contiguity, and exits non-zero with a report when anything is wrong."
        },
        footer = {
            "",
            "Every flag has an environment twin: " + WorkerEnv.FLAG_TWIN_PREFIX + " + the flag in upper snake case."
        })
public final class VerifyBackupCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(VerifyBackupCommand.class);

    private final WorkerContext context;

    @Mixin
    StoreOptions store = new StoreOptions();

    @Mixin
    LogFormat logFormat = new LogFormat();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Option(names = WorkerFlags.SKIP_HASH_CHECK, description = "Accept a full snapshot without a SHA-256 trailer.")
    boolean skipHashCheck;

    @Option(names = "--result-file", paramLabel = "FILE", description = "Also write the result JSON to this file.")
    Path resultFile;

    @Option(
            names = WorkerFlags.ESTIMATE_MEMORY,
            description = "Also estimate the memory a restore or compaction of "
                    + "this backup needs (result field sizeEstimate, docs/tuning.md's rule): the base is written to the "
                    + "scratch dir for its keys to be counted, then removed.")
    boolean estimateMemory;

    @Option(
            names = WorkerFlags.SCRATCH_DIR,
            paramLabel = "DIR",
            description = "Where each full snapshot read is written to check its bbolt structure (and, with "
                    + "--estimate-memory, to count its keys), then removed. Default: etcd-workers-<uid> in the system temp "
                    + "dir (created 0700; refused if it is a link or another user's).")
    Path scratchDir;

    public VerifyBackupCommand(WorkerContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        return ResultRun.run(
                context, "verify-backup", resultFile, List.of("problems", "skippedKeys"), metrics, result -> {
                    ResultJson.store(result, store);
                    try (ObjectStore objects = new StoreFactory(context.env(), context.workingDir()).open(store)) {
                        Path workDir = scratchDir != null
                                ? context.workingDir().resolve(scratchDir)
                                : DefaultScratchDir.under(Path.of(System.getProperty("java.io.tmpdir")));
                        // each full snapshot is written there to check its structure: never among the backup's objects
                        OverlappingPaths.refuse(
                                OverlappingPaths.localBucket(context, store),
                                Optional.empty(),
                                List.of(new OverlappingPaths.Flagged(WorkerFlags.SCRATCH_DIR, workDir)));
                        VerifyReport report = new BackupVerifier(
                                        objects,
                                        store.prefix,
                                        skipHashCheck,
                                        context.clock(),
                                        workDir,
                                        estimateMemory ? Optional.of(workDir) : Optional.empty())
                                .verify();
                        describe(result, report);
                        Optional<ErrorCode> failure = report.failure();
                        if (failure.isEmpty()) {
                            ResultJson.succeeded(result);
                        } else {
                            ResultJson.failed(result, new WorkerException(failure.get(), firstProblem(report)));
                        }
                        LOG.atInfo()
                                .setMessage(failure.isPresent() ? "verify-backup FAILED" : "verify-backup passed")
                                .addKeyValue("base", report.selection().base().key())
                                .addKeyValue(
                                        "deltas", report.selection().deltas().size())
                                .addKeyValue("events", report.events())
                                .addKeyValue(
                                        "baseRevision",
                                        report.selection().base().name().lastRevision())
                                .addKeyValue("lastRevision", report.selection().lastRevision())
                                .addKeyValue("badObjects", report.failedObjects())
                                .addKeyValue(
                                        "chainBreaks", report.chainProblems().size())
                                .log();
                        report.restorable()
                                .ifPresentOrElse(
                                        r -> LOG.info(
                                                "restorable revisions {}..{} ({} .. {}){}",
                                                r.fromRevision(),
                                                r.toRevision(),
                                                r.fromTime(),
                                                r.toTime().map(Object::toString).orElse("the base"),
                                                r.stopsBefore()
                                                        .map(b -> ", stops before " + b
                                                                + ": restore --to-last-good reaches " + r.toRevision())
                                                        .orElse("")),
                                        () -> LOG.error(
                                                "nothing is restorable from {}: the full snapshot itself is bad, "
                                                        + "and no older full snapshot is sound",
                                                report.selection().base().key()));
                        report.olderChain()
                                .ifPresent(older -> LOG.warn(
                                        "the newest full snapshot {} is bad: restore goes on from {}{}",
                                        report.selection().base().key(),
                                        older.selection().base().key(),
                                        older.restorable()
                                                                .map(r -> r.toRevision())
                                                                .orElse(0L)
                                                        >= report.selection().lastRevision()
                                                ? ", which reaches the same revision"
                                                : ", which reaches less: only restore --to-last-good takes it"));
                        return failure.map(ErrorCode::exitCode).orElse(0);
                    }
                });
    }

    /** Every fault of a full snapshot's bbolt structure, each naming its page. */
    private static ArrayNode faults(ObjectCheck check) {
        ArrayNode faults = JsonNodeFactory.instance.arrayNode();
        check.faults().forEach(faults::add);
        return faults;
    }

    private static String firstProblem(VerifyReport report) {
        return report.checks().stream()
                .filter(c -> !c.passed())
                .map(ObjectCheck::message)
                .findFirst()
                .orElseGet(() -> report.chainProblems().get(0).describe());
    }

    private static void describe(ObjectNode result, VerifyReport report) {
        SnapshotSelection selection = report.selection();
        ObjectNode base = result.putObject("base");
        base.put("name", selection.base().key());
        base.put("size", selection.base().size());
        base.put("revision", selection.base().name().lastRevision());
        result.put("deltas", selection.deltas().size());
        result.put("deltaBytes", selection.deltaBytes());
        result.put("firstRevision", selection.base().name().lastRevision());
        result.put("lastRevision", selection.lastRevision());
        result.put("events", report.events());
        result.put("badObjects", report.failedObjects());
        result.put("chainBreaks", report.chainProblems().size());
        report.restorable().ifPresent(r -> {
            ObjectNode range = result.putObject("restorable");
            range.put("fromRevision", r.fromRevision());
            range.put("fromTime", r.fromTime().toString());
            range.put("toRevision", r.toRevision());
            range.put(
                    "toTime",
                    r.toTime().map(Object::toString).orElse(r.fromTime().toString()));
            range.put("toTimeFrom", r.toTime().isPresent() ? "the revision's events" : "the full snapshot's name");
            r.stopsBefore().ifPresent(b -> range.put("stopsBefore", b));
        });
        ArrayNode excluded = result.putArray("excludedSnapshots");
        selection
                .excluded()
                .forEach(x -> excluded.addObject()
                        .put("object", x.key())
                        .put("mark", x.info().excludedBy().orElse("")));
        ArrayNode overlaps = result.putArray("overlaps");
        report.overlaps().forEach(o -> {
            ObjectNode entry = overlaps.addObject()
                    .put("earlier", o.earlier())
                    .put("later", o.later())
                    .put("firstRevision", o.firstRevision())
                    .put("lastRevision", o.lastRevision())
                    .put("identical", o.differsAt().isEmpty());
            o.differsAt().ifPresent(r -> entry.put("differsAt", r));
        });
        report.olderChain().ifPresent(older -> {
            // the newest full snapshot is bad: what a restore goes on with instead
            ObjectNode chain = result.putObject("olderChain");
            chain.put("base", older.selection().base().key());
            chain.put("baseRevision", older.selection().base().name().lastRevision());
            chain.put("deltas", older.selection().deltas().size());
            long reach = older.restorable().map(r -> r.toRevision()).orElse(0L);
            chain.put("reachesRevision", reach);
            chain.put("newestChainRevision", selection.lastRevision());
            chain.put("reachesNewest", reach >= selection.lastRevision());
            older.checks().stream()
                    .filter(c -> !c.passed())
                    .forEach(c -> chain.withArray("problems")
                            .addObject()
                            .put("object", c.object().key())
                            .put("code", c.failure().orElseThrow().name())
                            .put("problem", c.message()));
        });
        ArrayNode problems = result.putArray("problems");
        report.checks().stream()
                .filter(c -> !c.passed())
                .forEach(c -> problems.addObject()
                        .put("object", c.object().key())
                        .put("code", c.failure().orElseThrow().name())
                        .put("firstRevision", c.object().name().startRevision())
                        .put("lastRevision", c.object().name().lastRevision())
                        .put("problem", c.message())
                        .set("faults", faults(c)));
        for (ChainProblem p : report.chainProblems()) {
            long first = p.previous().name().lastRevision() + 1;
            problems.addObject()
                    .put("code", ErrorCode.BACKUP_INCONSISTENT.name())
                    .put("firstRevision", first)
                    .put("lastRevision", Math.max(first, p.next().name().startRevision() - 1))
                    .put("problem", p.describe());
        }
        report.sizeEstimate().ifPresent(e -> {
            ObjectNode size = result.putObject(ResultFields.SIZE_ESTIMATE);
            size.put("keysAtMost", e.keysAtMost());
            size.put("databaseBytesAtMost", e.databaseBytesAtMost());
            size.put("etcdBytes", e.etcdBytes());
            size.put("heapBytes", e.heapBytes());
            size.put(ResultFields.MEMORY_LIMIT_BYTES, e.memoryLimitBytes());
            size.put(ResultFields.HEAP_PERCENT, e.heapPercent());
        });
        ArrayNode skipped = result.putArray("skippedKeys");
        report.skipped().forEach(s -> skipped.add(s.key()));
    }
}
