package io.etcdworkers.compaction.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.compaction.compact.CompactionConfig;
import io.etcdworkers.compaction.compact.CompactionThresholds;
import io.etcdworkers.compaction.copy.CompactCopy;
import io.etcdworkers.compaction.copy.CopyConfig;
import io.etcdworkers.compaction.copy.CopyOutcome;
import io.etcdworkers.compaction.copy.CopyService;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.rebuild.RebuildConfig;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.workercli.DefragOptions;
import io.etcdworkers.workercli.DurationConverter;
import io.etcdworkers.workercli.LogFormat;
import io.etcdworkers.workercli.RebuildOptions;
import io.etcdworkers.workercli.ResultJson;
import io.etcdworkers.workercli.ResultRun;
import io.etcdworkers.workercli.StoreFactory;
import io.etcdworkers.workercli.StoreOptions;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code copy}: etcdbrctl's copy, from a source store into the target store, every object checked. */
@Command(
        name = WorkerCommands.COPY,
        mixinStandardHelpOptions = true,
        description = {
            "Copies the backups (full snapshots and their deltas) of the source store (--source-* flags, SOURCE_* "
                    + "credentials) into the target store (the usual store flags), any provider to any provider, as "
                    + "etcdbrctl's copy chooses and names them. Every object is checked before it is uploaded and read back "
                    + "after; nothing is visible in the target before it is whole; an object already there is checked "
                    + "and kept, or replaced when it is wrong, so a rerun copies only what is missing. Deletes nothing."
        },
        footer = {
            "",
            "Every flag has an environment twin: " + WorkerEnv.FLAG_TWIN_PREFIX + " + the flag in upper snake case."
        })
public final class CopyCommand implements Callable<Integer> {
    /** Names listed per kind in the result, so it fits the termination message; the counts are whole. */
    static final int LISTED = 12;

    /** The codes a copy can end with. */
    static final Set<ErrorCode> EXIT_CODES = Collections.unmodifiableSet(EnumSet.of(
            ErrorCode.UNEXPECTED,
            ErrorCode.USAGE,
            ErrorCode.NO_SNAPSHOTS, // --compact
            ErrorCode.BACKUP_INCONSISTENT, // --compact
            ErrorCode.HASH_MISMATCH,
            ErrorCode.CORRUPT_OBJECT,
            ErrorCode.UNSUPPORTED_OBJECT, // --compact
            ErrorCode.TRUNCATED_OBJECT,
            ErrorCode.STORE_UNAVAILABLE,
            ErrorCode.STORE_NOT_FOUND,
            ErrorCode.OBJECT_VANISHED,
            ErrorCode.SOURCE_CHANGED,
            ErrorCode.STORE_WRITE_REFUSED,
            ErrorCode.ETCD_FAILURE, // --compact
            ErrorCode.ETCD_QUOTA_EXCEEDED, // --compact
            ErrorCode.LOCAL_IO,
            ErrorCode.OUT_OF_MEMORY,
            ErrorCode.INTERRUPTED));

    private final WorkerContext context;

    @Mixin
    StoreOptions store = new StoreOptions();

    @Mixin
    SourceStoreOptions source = new SourceStoreOptions();

    @Mixin
    LogFormat logFormat = new LogFormat();

    /** With --compact: the rebuild's scratch etcd and engine, as compact takes them. */
    @Mixin
    RebuildOptions etcd = new RebuildOptions();

    @Mixin
    DefragOptions defrag = new DefragOptions();

    @Option(
            names = "--compact",
            description = "Write one full snapshot of the source's latest state into the target (rebuilt and verified "
                    + "by a real etcd in the scratch dir, as compact does) instead of every object.")
    boolean compact;

    @Option(
            names = "--max-backups-to-copy",
            paramLabel = "N",
            defaultValue = "-1",
            description =
                    "Copy only the N newest backups (a full snapshot and its deltas); -1: all. Default: ${DEFAULT-VALUE}.")
    int maxBackups;

    @Option(
            names = "--max-backup-age",
            paramLabel = "DAYS",
            defaultValue = "-1",
            description =
                    "Copy only backups whose full snapshot is younger than DAYS days; -1: any age. Default: ${DEFAULT-VALUE}.")
    int maxBackupAge;

    @Option(
            names = "--max-parallel-copy-operations",
            paramLabel = "N",
            defaultValue = "10",
            description = "Objects copied at once. Default: ${DEFAULT-VALUE}.")
    int parallel;

    @Option(
            names = "--wait-for-final-snapshot",
            arity = "0..1",
            fallbackValue = "true",
            defaultValue = "false",
            paramLabel = "true|false",
            description = "First wait (looking every 15 s) until one of the source's 4 newest full snapshots is final. "
                    + "Default: ${DEFAULT-VALUE}.")
    boolean waitForFinal;

    @Option(
            names = "--wait-for-final-snapshot-timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description =
                    "How long to wait for it; 0: until stopped. When it runs out the copy goes on (logged). Default: 0.")
    Duration waitTimeout = Duration.ZERO;

    @Option(
            names = "--snapstore-temp-directory",
            paramLabel = "DIR",
            defaultValue = "/tmp",
            description =
                    "Where each object is held while it is checked, before it is uploaded. Default: ${DEFAULT-VALUE}.")
    Path tempDirectory;

    @Option(
            names = "--max-parallel-chunk-uploads",
            paramLabel = "N",
            defaultValue = "5",
            description = "Accepted for etcdbrctl's sake (must be positive); the stores' writers size their own parts.")
    int maxParallelChunkUploads;

    @Option(
            names = "--min-chunk-size",
            paramLabel = "BYTES",
            defaultValue = "5242880",
            description = "Accepted for etcdbrctl's sake (at least 5 MiB); the stores' writers size their own parts.")
    long minChunkSize;

    @Option(names = "--dry-run", description = "List what would be copied (and replaced); write nothing.")
    boolean dryRun;

    @Option(names = "--result-file", paramLabel = "FILE", description = "Also write the result JSON to this file.")
    Path resultFile;

    public CopyCommand(WorkerContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        return ResultRun.run(
                context,
                WorkerCommands.COPY,
                resultFile,
                List.of("checked", "skipped", "replaced", "copied"),
                result -> {
                    CopyConfig config = config();
                    StoreOptions from = source.merged(
                            store, context.env().get(SourceEnvironment.PREFIX + WorkerEnv.STORAGE_CONTAINER));
                    ResultJson.store(result, store);
                    result.put("sourceStorageProvider", from.provider.name());
                    Map<String, String> sourceEnv = SourceEnvironment.of(context.env());
                    StoreFactory targets = new StoreFactory(context.env(), context.workingDir());
                    createLocalTarget(targets);
                    try (ObjectStore sourceStore = new StoreFactory(sourceEnv, context.workingDir()).open(from);
                            ObjectStore targetStore = targets.open(store)) {
                        if (compact) {
                            CompactCopy.Outcome outcome = new CompactCopy(
                                            sourceStore, targetStore, config, compactionConfig(config), context.clock())
                                    .run();
                            ResultJson.succeeded(result);
                            describe(result, outcome.copy());
                            outcome.uploaded().ifPresent(uploaded -> {
                                ObjectNode snapshot = result.putObject("compacted");
                                snapshot.put("name", uploaded.key());
                                snapshot.put("size", uploaded.size());
                                snapshot.put("databaseBytes", uploaded.databaseBytes());
                                snapshot.put("sha256", uploaded.sha256());
                            });
                            return 0;
                        }
                        CopyOutcome outcome = new CopyService(sourceStore, targetStore, config, context.clock()).copy();
                        ResultJson.succeeded(result);
                        describe(result, outcome);
                        return 0;
                    }
                });
    }

    /** The copy these flags describe; {@code USAGE} for values etcdbrctl refuses. */
    CopyConfig config() {
        if (maxParallelChunkUploads <= 0 || source.maxParallelChunkUploads <= 0) {
            throw new WorkerException(ErrorCode.USAGE, "--[source-]max-parallel-chunk-uploads must be positive");
        }
        if (minChunkSize < 5L * 1024 * 1024 || source.minChunkSize < 5L * 1024 * 1024) {
            throw new WorkerException(ErrorCode.USAGE, "--[source-]min-chunk-size must be at least 5 MiB (5242880)");
        }
        String sourcePrefix = source.prefix != null && !source.prefix.isBlank() ? source.prefix : store.prefix;
        try {
            return new CopyConfig(
                    sourcePrefix,
                    store.prefix,
                    maxBackups,
                    maxBackupAge,
                    parallel,
                    waitForFinal,
                    waitTimeout,
                    context.workingDir().resolve(tempDirectory),
                    dryRun);
        } catch (IllegalArgumentException e) {
            throw new WorkerException(ErrorCode.USAGE, e.getMessage(), e);
        }
    }

    /** --compact: the compaction of the source's latest state, with no thresholds (anything is compacted). */
    private CompactionConfig compactionConfig(CopyConfig copy) {
        try {
            RebuildConfig rebuild =
                    etcd.rebuildConfig(context, copy.sourcePrefix(), EtcdMember.onFreeLoopbackPort(), false, defrag);
            return new CompactionConfig(
                    rebuild,
                    CompactionThresholds.none(),
                    Optional.empty(),
                    true,
                    CompactionConfig.DEFAULT_SNAPSHOT_TIMEOUT,
                    Optional.empty());
        } catch (IllegalArgumentException e) {
            throw new WorkerException(ErrorCode.USAGE, e.getMessage(), e);
        }
    }

    /** A Local target's directory is created (owner only) when missing, as etcdbrctl creates it. */
    private void createLocalTarget(StoreFactory targets) {
        if (dryRun) {
            return;
        }
        targets.localBucket(store).ifPresent(dir -> {
            try {
                OwnerOnly.createDirectories(dir);
            } catch (IOException e) {
                throw new WorkerException(
                        ErrorCode.LOCAL_IO, "cannot create the target directory " + dir + ": " + e.getMessage(), e);
            }
        });
    }

    private static void describe(ObjectNode result, CopyOutcome outcome) {
        result.put("dryRun", outcome.dryRun());
        result.put("sourceObjects", outcome.sourceObjects());
        result.put("selected", outcome.selected());
        if (outcome.finalSnapshot() != null) {
            result.put("finalSnapshotFound", outcome.finalSnapshot());
        }
        result.put("bytesCopied", outcome.bytesCopied());
        result.put("copiedCount", outcome.copied().size());
        result.put("replacedCount", outcome.replaced().size());
        result.put("skippedCount", outcome.skipped().size());
        result.put("checkedCount", outcome.checked().size());
        names(result.putArray("copied"), outcome.copied());
        names(result.putArray("replaced"), outcome.replaced());
        names(result.putArray("skipped"), outcome.skipped());
        names(result.putArray("checked"), outcome.checked());
    }

    /** The first {@link #LISTED} names; the count says how many there are. */
    private static void names(ArrayNode array, List<String> names) {
        names.stream().limit(LISTED).forEach(array::add);
    }
}
