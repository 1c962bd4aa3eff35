package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.ExtractFlags;
import io.etcdworkers.launcher.job.JobRequest;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code extract}: a Job that writes one key prefix's objects at a point in time, out of the backup,
 * into a PVC of its own. It touches neither the etcd nor its volumes.
 */
@Command(
        name = "extract",
        mixinStandardHelpOptions = true,
        description = "Create (or print with --dry-run) a Job that extracts the keys under a prefix, as they were at "
                + "the latest revision or at --to-revision / --to-time, into a PersistentVolumeClaim.")
final class ExtractCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Mixin
    PodOptions pod;

    @Mixin
    StoreOptions store;

    @Mixin
    DefragOptions defrag;

    @Mixin
    RunOptions run;

    @Mixin
    StuckOptions stuck;

    @Mixin
    FromEtcdOptions from;

    @Option(
            names = "--output-claim",
            required = true,
            description = "PersistentVolumeClaim to write into (mounted at " + ExtractFlags.OUTPUT_MOUNT_PATH + ").")
    String outputClaim;

    @Option(
            names = "--output",
            defaultValue = ExtractFlags.DEFAULT_OUTPUT,
            description = "Under " + ExtractFlags.OUTPUT_MOUNT_PATH + "/. Default: ${DEFAULT-VALUE}.")
    String output;

    @Option(names = "--prefix", required = true, description = "The keys to extract, e.g. /registry/secrets/team-a/.")
    String prefix;

    @Option(
            names = "--output-format",
            paramLabel = "files|etcd",
            description = "files (the worker's default) or etcd (a data dir of only these keys).")
    String outputFormat;

    @Option(names = "--to-revision", paramLabel = "REV", description = "The state right after this revision.")
    Long toRevision;

    @Option(
            names = "--to-time",
            paramLabel = "RFC3339",
            description = "The state at this time, e.g. 2026-12-01T03:04:05Z.")
    String toTime;

    @Option(names = "--to-last-good", description = "Stop before a damaged or missing delta instead of failing.")
    boolean toLastGood;

    @Option(names = "--force", description = "Replace an output dir that is not empty.")
    boolean force;

    @Option(
            names = "--encryption-config-secret",
            paramLabel = "SECRET",
            description = "A Secret in the namespace holding the API server's EncryptionConfiguration (in Gardener: "
                    + "the shoot namespace's newest kube-apiserver-etcd-encryption-configuration-*): mounted read-only "
                    + "and given to the worker, which writes values encrypted at rest with its aescbc, aesgcm and "
                    + "secretbox keys decrypted. Files only.")
    String encryptionConfigSecret;

    @Option(
            names = "--encryption-config-key",
            paramLabel = "KEY",
            description = "The Secret's key holding the configuration. Default: "
                    + ExtractFlags.DEFAULT_ENCRYPTION_CONFIG_KEY + " (Gardener's).")
    String encryptionConfigKey;

    private final CliContext ctx;

    ExtractCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        from.read(ctx, cluster, from.namespace(ctx, cluster, run.dryRun))
                .ifPresent(etcd -> FromEtcdOptions.applyCommon(etcd, pod, store));
        ExtractFlags flags = ExtractFlags.builder(outputClaim, prefix)
                .output(output)
                .outputFormat(outputFormat)
                .toRevision(toRevision)
                .toTime(toTime)
                .toLastGood(toLastGood)
                .force(force)
                .encryptionConfig(encryptionConfigSecret, encryptionConfigKey)
                .build();
        JobRequest request = pod.request(cluster.namespace(ctx, run.dryRun), store, defrag, flags)
                .build();
        return JobRun.run(ctx, cluster, run, stuck, request);
    }
}
