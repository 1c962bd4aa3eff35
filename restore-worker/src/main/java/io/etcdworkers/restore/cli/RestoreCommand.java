package io.etcdworkers.restore.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.rebuild.bump.ChainEnd;
import io.etcdworkers.rebuild.bump.RevisionBump;
import io.etcdworkers.restore.PlacedDataDir;
import io.etcdworkers.restore.RestoreConfig;
import io.etcdworkers.restore.RestoreOutcome;
import io.etcdworkers.restore.RestoreService;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.workercli.DefragOptions;
import io.etcdworkers.workercli.ExitCodeHelp;
import io.etcdworkers.workercli.LogFormat;
import io.etcdworkers.workercli.MetricsOptions;
import io.etcdworkers.workercli.OverlappingPaths;
import io.etcdworkers.workercli.RebuildOptions;
import io.etcdworkers.workercli.ResultJson;
import io.etcdworkers.workercli.ResultRun;
import io.etcdworkers.workercli.StoreFactory;
import io.etcdworkers.workercli.StoreOptions;
import io.etcdworkers.workercli.WorkerContext;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code restore}: rebuilds an etcd data dir from the latest full snapshot and every delta after it,
 * or from the full snapshot and deltas that reach an earlier revision or time.
 */
@Command(
        name = WorkerCommands.RESTORE,
        mixinStandardHelpOptions = true,
        description = {
            "Rebuilds an etcd data dir from the latest full snapshot and every delta after it (or up to "
                    + "--to-revision / --to-time), verifying the result with a real etcd and placing the data dir atomically."
        },
        footer = {
            "",
            "Every flag has an environment twin: " + WorkerEnv.FLAG_TWIN_PREFIX + " + the flag in upper snake case."
        })
public final class RestoreCommand implements Callable<Integer> {
    /** What a restore can end with, for its --help ({@link ExitCodeHelp}): all but the compaction's own. */
    static final Set<ErrorCode> EXIT_CODES = Collections.unmodifiableSet(EnumSet.complementOf(
            EnumSet.of(ErrorCode.LEASE_NOT_RENEWED, ErrorCode.SOURCE_CHANGED, ErrorCode.STORE_WRITE_REFUSED)));

    private final WorkerContext context;

    @Mixin
    StoreOptions store = new StoreOptions();

    @Mixin
    MemberOptions member = new MemberOptions();

    @Mixin
    RebuildOptions etcd = new RebuildOptions();

    @Mixin
    DefragOptions defrag = new DefragOptions();

    @Mixin
    PointInTimeOptions point = new PointInTimeOptions();

    @Mixin
    BumpOptions bump = new BumpOptions();

    @Mixin
    LogFormat logFormat = new LogFormat();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Option(
            names = WorkerFlags.DATA_DIR,
            required = true,
            paramLabel = "DIR",
            description = "The etcd data dir to create. Built in <data-dir>.part and renamed into place when verified.")
    Path dataDir;

    @Option(
            names = WorkerFlags.SKIP_HASH_CHECK,
            description = "Accept a full snapshot without a valid SHA-256 trailer.")
    boolean skipHashCheck;

    @Option(
            names = WorkerFlags.FORCE,
            description = "Replace an existing non-empty data dir (only once the new one is complete).")
    boolean force;

    @Option(names = "--result-file", paramLabel = "FILE", description = "Also write the result JSON to this file.")
    Path resultFile;

    public RestoreCommand(WorkerContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        return ResultRun.run(
                context,
                WorkerCommands.RESTORE,
                resultFile,
                List.of("bucketLatest", "phaseSeconds", "metaSha256", "kvSha256"),
                metrics,
                result -> {
                    ResultJson.store(result, store);
                    try (ObjectStore objects = new StoreFactory(context.env(), context.workingDir()).open(store)) {
                        RestoreConfig config = config();
                        OverlappingPaths.refuse(
                                OverlappingPaths.localBucket(context, store),
                                Optional.of(new OverlappingPaths.Flagged(WorkerFlags.DATA_DIR, config.dataDir())),
                                OverlappingPaths.scratchOf(config.rebuild()));
                        result.put("dataDir", config.dataDir().toString());
                        RestoreOutcome outcome = new RestoreService(objects, config, context.clock()).restore();
                        ResultJson.succeeded(result);
                        ResultJson.rebuild(result, outcome.rebuilt(), outcome.phases());
                        placed(result, outcome.placed());
                        bump(result, outcome.bump(), outcome.chainEnd());
                        return 0;
                    }
                });
    }

    /** What the restore's placed data dir is good for. */
    private static void placed(ObjectNode result, PlacedDataDir p) {
        ObjectNode placed = result.putObject("placedDataDir");
        placed.put("writtenBy", p.writtenBy());
        placed.put("verifiedBy", p.verifiedBy());
        p.startsWith().forEach(placed.putArray("startsWith")::add);
    }

    /** The revision bump written into the placed database: {@code {latestRevision, amount, revision}}; null for none. */
    static void bump(ObjectNode result, Optional<RevisionBump> bump) {
        bump(result, bump, Optional.empty());
    }

    /**
     * The same, with the revision the bucket's chain reaches when the default bump was computed
     * from it: {@code bucketLatest: {revision, object, damaged: [{object, reason}], ignored: [key]}}.
     */
    static void bump(ObjectNode result, Optional<RevisionBump> bump, Optional<ChainEnd> chainEnd) {
        if (bump.isEmpty()) {
            result.putNull("revisionBump");
        } else {
            ObjectNode node = result.putObject("revisionBump");
            node.put("latestRevision", bump.get().latest());
            node.put("amount", bump.get().amount());
            node.put("revision", bump.get().revision());
            node.put("markCompacted", true);
        }
        chainEnd.ifPresent(end -> {
            ObjectNode node = result.putObject("bucketLatest");
            node.put("revision", end.revision());
            node.put("object", end.object());
            ArrayNode damaged = node.putArray("damaged");
            end.damaged()
                    .forEach(d -> damaged.addObject().put("object", d.object()).put("reason", d.reason()));
            end.ignored().forEach(node.putArray("ignored")::add);
        });
    }

    /** The restore these flags describe; {@code USAGE} for values out of range. */
    public RestoreConfig config() {
        try {
            return new RestoreConfig(
                    etcd.rebuildConfig(context, store.prefix, member.toMember(), skipHashCheck, defrag)
                            .withPoint(point.toPoint()),
                    context.workingDir().resolve(dataDir),
                    force,
                    bump.toSetting());
        } catch (IllegalArgumentException e) {
            throw new WorkerException(ErrorCode.USAGE, e.getMessage(), e);
        }
    }
}
