package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.CopyFlags;
import io.etcdworkers.launcher.job.JobRequest;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code copy}: a Job that copies an etcd's backups from one store to another (etcdbrctl's {@code copy}). */
@Command(
        name = "copy",
        mixinStandardHelpOptions = true,
        description = {
            "Create (or print with --dry-run) a Job that copies an etcd's backups from the source store "
                    + "(--source-*) into the target store (the store flags), as etcd-druid's EtcdCopyBackupsTask does.",
            "--from-etcd takes the source, and --etcd, from the Etcd resource: its store is the one a migration leaves."
        })
final class CopyCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Mixin
    PodOptions pod;

    @Mixin
    StoreOptions store;

    @Mixin
    SourceStoreOptions source;

    @Mixin
    RunOptions run;

    @Mixin
    StuckOptions stuck;

    @Mixin
    FromEtcdOptions from;

    @Option(
            names = "--max-backups-to-copy",
            paramLabel = "N",
            description = "Copy the newest N full snapshots with their deltas. Default: all.")
    Integer maxBackupsToCopy;

    @Option(
            names = "--max-backup-age",
            paramLabel = "DAYS",
            description = "Copy the backups whose full snapshot is at most this many days old. Default: any age.")
    Integer maxBackupAge;

    @Option(
            names = "--wait-for-final-snapshot",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description = "Wait until the source has a final full snapshot (the source etcd stopped) before copying.")
    Boolean waitForFinalSnapshot;

    @Option(
            names = "--wait-for-final-snapshot-timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "How long to wait for it; then the copy goes on. Default: forever.")
    Duration waitForFinalSnapshotTimeout;

    @Option(
            names = "--compact",
            description = "Write one verified full snapshot of the source's latest state into the target instead of "
                    + "every object.")
    boolean compact;

    private final CliContext ctx;

    CopyCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String namespace = from.namespace(ctx, cluster, run.dryRun);
        from.read(ctx, cluster, namespace).ifPresent(etcd -> {
            if (pod.etcd == null) {
                pod.etcd = etcd.name();
            }
            if (etcd.gardenerNetwork()) {
                pod.gardenerNetworkLabels = true;
            }
            source.takeFrom(etcd);
        });
        return JobRun.run(ctx, cluster, run, stuck, request(namespace));
    }

    JobRequest request(String namespace) {
        CopyFlags copy = new CopyFlags(
                source.toStoreRef(),
                maxBackupsToCopy,
                maxBackupAge,
                waitForFinalSnapshot,
                waitForFinalSnapshotTimeout,
                compact);
        return pod.request(namespace, store, new DefragOptions(), copy).build();
    }
}
