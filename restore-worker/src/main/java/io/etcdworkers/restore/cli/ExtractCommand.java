package io.etcdworkers.restore.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.rebuild.RebuildConfig;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.restore.extract.ExtractConfig;
import io.etcdworkers.restore.extract.ExtractOutcome;
import io.etcdworkers.restore.extract.ExtractService;
import io.etcdworkers.restore.extract.OutputFormat;
import io.etcdworkers.restore.extract.encryption.EncryptionSummary;
import io.etcdworkers.restore.extract.encryption.KeyUse;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.workercli.DefragOptions;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code extract}: the objects under one key prefix as they were at a point in time, out of a backup. */
@Command(
        name = WorkerCommands.EXTRACT,
        mixinStandardHelpOptions = true,
        description = {
            "Writes the keys under --prefix as they were at the latest revision, or at --to-revision / "
                    + "--to-time, into --output: one .value file per key with a .meta.json (and a pretty .json for JSON "
                    + "values), or with --output-format=etcd a data dir holding only those keys. Verified with a real etcd "
                    + "first; never writes to a live cluster."
        },
        footer = {
            "",
            "Every flag has an environment twin: " + WorkerEnv.FLAG_TWIN_PREFIX + " + the flag in upper snake case."
        })
public final class ExtractCommand implements Callable<Integer> {
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
            names = WorkerFlags.PREFIX,
            required = true,
            paramLabel = "KEY-PREFIX",
            description = "The keys to extract, e.g. /registry/secrets/team-a/ or /registry/namespaces/team-a.")
    String prefix;

    @Option(
            names = WorkerFlags.OUTPUT,
            required = true,
            paramLabel = "DIR",
            description = "The directory to create (built in <DIR>.part and renamed into place when complete).")
    Path output;

    @Option(
            names = WorkerFlags.OUTPUT_FORMAT,
            paramLabel = "files|etcd",
            description = "files (default): one set of files per key; etcd: a data dir with only these keys, to read "
                    + "with etcdctl (needs the offline engine).")
    OutputFormat format = OutputFormat.files;

    @Option(
            names = WorkerFlags.ENCRYPTION_CONFIG,
            paramLabel = "FILE",
            description = "The API server's EncryptionConfiguration (its --encryption-provider-config, YAML or JSON): "
                    + "values encrypted at rest with its aescbc, aesgcm or secretbox keys are written decrypted; a "
                    + "value it should decrypt and does not fails the extract (exit 2). KMS values are written as "
                    + "stored. Files only.")
    Path encryptionConfig;

    @Option(
            names = WorkerFlags.SKIP_HASH_CHECK,
            description = "Accept a full snapshot without a valid SHA-256 trailer.")
    boolean skipHashCheck;

    @Option(
            names = WorkerFlags.FORCE,
            description = "Replace a non-empty output dir (only once the new one is complete).")
    boolean force;

    @Option(names = "--result-file", paramLabel = "FILE", description = "Also write the result JSON to this file.")
    Path resultFile;

    public ExtractCommand(WorkerContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        // the encryption counts go last of all: dropped only when the 4 KiB message cannot hold them
        return ResultRun.run(
                context,
                WorkerCommands.EXTRACT,
                resultFile,
                List.of("phaseSeconds", "metaSha256", "kvSha256", "encryption"),
                metrics,
                result -> {
                    ResultJson.store(result, store);
                    try (ObjectStore objects = new StoreFactory(context.env(), context.workingDir()).open(store)) {
                        ExtractConfig config = config();
                        OverlappingPaths.refuse(
                                OverlappingPaths.localBucket(context, store),
                                Optional.of(new OverlappingPaths.Flagged(WorkerFlags.OUTPUT, config.output())),
                                OverlappingPaths.scratchOf(config.rebuild()));
                        result.put("prefix", prefix);
                        result.put("outputFormat", format.name());
                        result.put("output", config.output().toString());
                        ExtractOutcome outcome = new ExtractService(objects, config, context.clock()).extract();
                        ResultJson.succeeded(result);
                        ResultJson.rebuild(result, outcome.rebuilt(), outcome.phases());
                        describe(result, outcome);
                        if (format == OutputFormat.etcd) {
                            RestoreCommand.bump(result, outcome.bump());
                        }
                        return 0;
                    }
                });
    }

    /** The extract these flags describe; {@code USAGE} for an empty prefix or a format the engine cannot give. */
    public ExtractConfig config() {
        if (prefix == null || prefix.isEmpty()) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    WorkerFlags.PREFIX + " must not be empty: use restore for " + "the whole keyspace");
        }
        RebuildConfig rebuild;
        try {
            rebuild = etcd.rebuildConfig(context, store.prefix, member.toMember(), skipHashCheck, defrag)
                    .withPoint(point.toPoint());
        } catch (IllegalArgumentException e) {
            throw new WorkerException(ErrorCode.USAGE, e.getMessage(), e);
        }
        Engine engine = rebuild.engine();
        if (format == OutputFormat.etcd) {
            if (engine == Engine.REPLAY) {
                throw new WorkerException(
                        ErrorCode.USAGE,
                        WorkerFlags.OUTPUT_FORMAT + "=etcd needs the offline engine "
                                + "(the replay rebuilds every key): drop --engine=replay, or write files");
            }
            if (encryptionConfig != null) {
                throw new WorkerException(
                        ErrorCode.USAGE,
                        WorkerFlags.ENCRYPTION_CONFIG + " decrypts values into "
                                + "files; a data dir keeps them as stored (a kube-apiserver started on it with the same "
                                + "--encryption-provider-config reads them): drop one of the two");
            }
            // no fallback: a replayed data dir would hold every key, not the prefix's
            engine = Engine.OFFLINE;
        }
        try {
            return new ExtractConfig(
                    rebuild.withKeys(KeyPrefix.of(prefix), engine),
                    context.workingDir().resolve(output),
                    format,
                    force,
                    Optional.ofNullable(encryptionConfig).map(context.workingDir()::resolve),
                    bump.toSetting());
        } catch (IllegalArgumentException e) {
            throw new WorkerException(ErrorCode.USAGE, e.getMessage(), e);
        }
    }

    private static void describe(ObjectNode result, ExtractOutcome outcome) {
        result.put("extractedKeys", outcome.keys());
        if (outcome instanceof ExtractOutcome.AsFiles files) {
            result.put("extractedValueBytes", files.valueBytes());
        }
        // a data dir keeps every value as stored: nothing counted by encoding or kind
        ObjectNode encodings = result.putObject("encodings");
        ObjectNode kinds = result.putObject("kinds");
        if (outcome instanceof ExtractOutcome.AsFiles files) {
            files.encodings().forEach(encodings::put);
            files.kinds().forEach(kinds::put);
            encryption(result.putObject("encryption"), files.encryption());
        }
    }

    /** The values stored encrypted: how many were decrypted and written as stored, by provider and key name. */
    private static void encryption(ObjectNode json, EncryptionSummary summary) {
        summary.config().ifPresent(c -> json.put("config", c.toString()));
        json.put("decrypted", summary.decrypted());
        json.put("leftEncrypted", summary.leftEncrypted());
        ObjectNode decryptedBy = json.putObject("decryptedBy");
        summary.decryptedBy().forEach(decryptedBy::put);
        ObjectNode leftEncryptedBy = json.putObject("leftEncryptedBy");
        summary.leftEncryptedBy().forEach(leftEncryptedBy::put);
        ArrayNode keys = json.putArray("keyNames");
        for (KeyUse use : summary.uses()) {
            ObjectNode entry = keys.addObject()
                    .put("provider", use.origin().provider())
                    .put("version", use.origin().version())
                    .put("name", use.origin().name())
                    .put("decrypted", use.decrypted())
                    .put("leftEncrypted", use.leftEncrypted());
            use.plugin().ifPresent(p -> entry.put("endpoint", p.endpoint()));
        }
    }
}
