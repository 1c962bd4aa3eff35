package io.etcdworkers.compaction.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.compaction.compact.CompactionConfig;
import io.etcdworkers.compaction.compact.CompactionOutcome;
import io.etcdworkers.compaction.compact.CompactionService;
import io.etcdworkers.compaction.compact.CompactionThresholds;
import io.etcdworkers.compaction.compact.UploadedSnapshot;
import io.etcdworkers.compaction.lease.KubernetesClients;
import io.etcdworkers.compaction.lease.LeaseRenewal;
import io.etcdworkers.compaction.lease.LeaseRenewalConfig;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.GoDuration;
import io.etcdworkers.contract.ResultFields;
import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.rebuild.RebuildConfig;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.workercli.ByteSizeConverter;
import io.etcdworkers.workercli.DefragOptions;
import io.etcdworkers.workercli.DurationConverter;
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
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code compact}: one new full snapshot from the latest full snapshot and its deltas. */
@Command(
        name = WorkerCommands.COMPACT,
        mixinStandardHelpOptions = true,
        description = {
            "Restores the latest full snapshot and every delta after it in a scratch dir, compacts and "
                    + "defragments, and uploads a new full snapshot that etcd-backup-restore restores as the next base. "
                    + "Deletes nothing. Exits 0 with outcome 'skipped' when there is too little to compact."
        },
        footer = {
            "",
            "Every flag has an environment twin: " + WorkerEnv.FLAG_TWIN_PREFIX + " + the flag in upper snake case."
        })
public final class CompactCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(CompactCommand.class);
    private final WorkerContext context;
    private final KubernetesClients kubernetes;

    @Mixin
    StoreOptions store = new StoreOptions();

    @Mixin
    RebuildOptions etcd = new RebuildOptions();

    @Mixin
    DefragOptions defrag = new DefragOptions();

    @Mixin
    LogFormat logFormat = new LogFormat();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Mixin
    EtcdbrctlOptions etcdbrctl = new EtcdbrctlOptions();

    @Option(
            names = WorkerFlags.MIN_DELTA_REVISIONS,
            paramLabel = "N",
            description =
                    "Compact once this many revisions accumulated since the latest full snapshot (0: no minimum).")
    long minRevisions;

    @Option(
            names = WorkerFlags.MIN_DELTA_SNAPSHOTS,
            paramLabel = "N",
            description =
                    "Compact once this many delta snapshots accumulated since the latest full snapshot (0: no minimum).")
    int minSnapshots;

    @Option(
            names = WorkerFlags.MIN_DELTA_BYTES,
            paramLabel = "BYTES",
            converter = ByteSizeConverter.class,
            description =
                    "Compact once this many bytes of deltas accumulated (0: no minimum). Any one minimum reached is enough; with none set, any delta is.")
    long minBytes;

    @Option(
            names = WorkerFlags.COMPRESSION_POLICY,
            paramLabel = "gzip|zlib|lzw|none",
            description = "Codec of the new snapshot. Default: the last delta's, as etcd-backup-restore does.")
    String compressionPolicy;

    @Option(
            names = WorkerFlags.DEFRAGMENT,
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            arity = "0..1",
            paramLabel = "true|false",
            description = "Defragment after the final compaction (--no-defragment to skip). Default: ${DEFAULT-VALUE}.")
    boolean defragment;

    @Option(
            names = "--snapshot-timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Deadline of streaming the snapshot out of the scratch etcd. Default: 30m.")
    Duration snapshotTimeout;

    @Option(
            names = WorkerFlags.ETCD_SNAPSHOT_TIMEOUT,
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "etcdbrctl's name for --snapshot-timeout (etcd-druid passes it); give one of the two.")
    Duration etcdSnapshotTimeout;

    @Option(
            names = WorkerFlags.ENABLE_SNAPSHOT_LEASE_RENEWAL,
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description = "After the upload, record the new revision in the full-snapshot Lease (for etcd-druid); "
                    + "takes =true|false as etcdbrctl does.")
    boolean leaseRenewal;

    @Option(
            names = WorkerFlags.FULL_SNAPSHOT_LEASE_NAME,
            paramLabel = "NAME",
            description = "The full-snapshot Lease to update, in the pod's namespace.")
    String leaseName;

    @Option(
            names = "--lease-renewal",
            paramLabel = "required|best-effort",
            defaultValue = "required",
            description =
                    "With --enable-snapshot-lease-renewal: required fails the run (exit 23, the snapshot is uploaded) "
                            + "when the Lease cannot be renewed; best-effort records the error and exits 0. Default: ${DEFAULT-VALUE}.")
    String leaseRenewalPolicy;

    @Option(names = "--result-file", paramLabel = "FILE", description = "Also write the result JSON to this file.")
    Path resultFile;

    public CompactCommand(WorkerContext context, KubernetesClients kubernetes) {
        this.context = context;
        this.kubernetes = kubernetes;
    }

    @Override
    public Integer call() throws InterruptedException {
        return ResultRun.run(
                context,
                WorkerCommands.COMPACT,
                resultFile,
                List.of("phaseSeconds", "metaSha256", "kvSha256"),
                metrics,
                result -> {
                    for (String note : etcdbrctl.notes(etcd.scratchDirGiven())) {
                        LOG.info("etcdbrctl flag: {}", note);
                    }
                    ResultJson.store(result, store);
                    try (ObjectStore objects = new StoreFactory(context.env(), context.workingDir()).open(store)) {
                        CompactionConfig config = config();
                        OverlappingPaths.refuse(
                                OverlappingPaths.localBucket(context, store),
                                Optional.empty(),
                                OverlappingPaths.scratchOf(config.rebuild()));
                        CompactionOutcome outcome =
                                new CompactionService(objects, config, context.clock(), kubernetes).compact();
                        ResultJson.succeeded(result);
                        return describe(result, outcome, config);
                    }
                });
    }

    /** The compaction these flags describe; {@code USAGE} for values out of range. */
    public CompactionConfig config() {
        Optional<Compression> compression = Optional.empty();
        if (compressionPolicy != null) {
            compression = Optional.of(Compression.fromPolicyName(compressionPolicy)
                    .orElseThrow(() -> new WorkerException(
                            ErrorCode.USAGE,
                            "--compression-policy must be gzip, zlib, lzw or none: " + compressionPolicy)));
        }
        try {
            LeaseRenewal.Policy policy = LeaseRenewal.Policy.parse(leaseRenewalPolicy);
            Optional<String> namespace = Optional.ofNullable(context.env().get(WorkerEnv.POD_NAMESPACE))
                    .filter(n -> !n.isBlank());
            Optional<LeaseRenewalConfig> lease =
                    leaseRenewal ? Optional.of(new LeaseRenewalConfig(leaseName, policy, namespace)) : Optional.empty();
            etcdbrctl.dataDir().ifPresent(etcd::scratchDirIfNotGiven);
            // the scratch etcd is no cluster's member: any free loopback port, the default identity
            RebuildConfig rebuild =
                    etcd.rebuildConfig(context, store.prefix, EtcdMember.onFreeLoopbackPort(), false, defrag);
            return new CompactionConfig(
                    rebuild,
                    new CompactionThresholds(minRevisions, minSnapshots, minBytes),
                    compression,
                    defragment,
                    snapshotTimeout(),
                    lease);
        } catch (IllegalArgumentException e) {
            throw new WorkerException(ErrorCode.USAGE, e.getMessage(), e);
        }
    }

    /** {@code --snapshot-timeout} or etcdbrctl's {@code --etcd-snapshot-timeout}: either, or both if equal. */
    private Duration snapshotTimeout() {
        if (snapshotTimeout != null && etcdSnapshotTimeout != null && !snapshotTimeout.equals(etcdSnapshotTimeout)) {
            throw new IllegalArgumentException("--snapshot-timeout " + GoDuration.format(snapshotTimeout) + " and "
                    + WorkerFlags.ETCD_SNAPSHOT_TIMEOUT + " " + GoDuration.format(etcdSnapshotTimeout)
                    + " (its etcdbrctl name) disagree: give one");
        }
        if (etcdSnapshotTimeout != null) {
            return etcdSnapshotTimeout;
        }
        return snapshotTimeout != null ? snapshotTimeout : CompactionConfig.DEFAULT_SNAPSHOT_TIMEOUT;
    }

    /** Fills the result; the exit code is 0 unless a required lease renewal failed. */
    private static int describe(ObjectNode result, CompactionOutcome outcome, CompactionConfig config) {
        if (outcome instanceof CompactionOutcome.Skipped skipped) {
            result.put(ResultFields.OUTCOME, ResultFields.SKIPPED);
            result.put("reason", skipped.reason());
            result.put("base", skipped.selection().base().key());
            result.put("deltas", skipped.selection().deltas().size());
            result.put("deltaBytes", skipped.selection().deltaBytes());
            return 0;
        }
        CompactionOutcome.Compacted compacted = (CompactionOutcome.Compacted) outcome;
        ResultJson.rebuild(result, compacted.rebuilt(), compacted.phases());
        UploadedSnapshot uploaded = compacted.uploaded();
        ObjectNode snapshot = result.putObject("uploaded");
        snapshot.put("name", uploaded.key());
        snapshot.put("size", uploaded.size());
        snapshot.put("compression", uploaded.compression().policyName());
        snapshot.put("databaseBytes", uploaded.databaseBytes());
        snapshot.put("sha256", uploaded.sha256());
        result.put("dbSizeBeforeCompaction", compacted.dbSizeBeforeCompaction());
        result.put("dbSizeAfterCompaction", compacted.dbSizeAfterCompaction());
        if (compacted.lease().isEmpty()) {
            return 0;
        }
        LeaseRenewalConfig lease = config.leaseRenewal().orElseThrow();
        return LeaseRenewal.record(result, lease.leaseName(), compacted.lease().get(), lease.policy(), uploaded.key());
    }
}
