package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.RestoreFlags;
import io.etcdworkers.launcher.job.WorkerKind;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code restore}: a Job that restores the etcd's data dir on its PVC from the bucket. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = "Create (or print with --dry-run) a Job that restores an etcd data dir from its backups.")
final class RestoreCommand implements Callable<Integer> {
    @Mixin ClusterOptions cluster;
    @Mixin PodOptions pod;
    @Mixin StoreOptions store;
    @Mixin DefragOptions defrag;
    @Mixin RunOptions run;
    @Mixin StuckOptions stuck;

    @Option(names = "--target-claim", required = true, description = "PersistentVolumeClaim of the etcd member to restore into.")
    String targetClaim;

    @Option(names = "--data-dir", defaultValue = RestoreFlags.DEFAULT_DATA_DIR, description = "Under /var/etcd/data/. Default: ${DEFAULT-VALUE}.")
    String dataDir;

    @Option(names = "--name", description = "Member name.")
    String name;

    @Option(names = "--initial-cluster", description = "e.g. m0=https://m0.peer:2380.")
    String initialCluster;

    @Option(names = "--initial-cluster-token")
    String initialClusterToken;

    @Option(names = "--initial-advertise-peer-urls")
    String initialAdvertisePeerUrls;

    @Option(names = "--skip-hash-check", description = "Do not check the snapshots' SHA-256.")
    boolean skipHashCheck;

    @Option(names = "--force", description = "Replace a data dir that is not empty.")
    boolean force;

    @Option(names = "--embedded-etcd-quota-bytes")
    Long embeddedEtcdQuotaBytes;

    @Option(names = "--max-fetchers", description = "Deltas fetched in parallel.")
    Integer maxFetchers;

    @Option(names = "--to-revision", paramLabel = "REV",
            description = "Restore the state right after this revision instead of the latest.")
    Long toRevision;

    @Option(names = "--to-time", paramLabel = "RFC3339",
            description = "Restore the state at this time (e.g. 2026-12-01T03:04:05Z) instead of the latest.")
    String toTime;

    @Option(names = "--to-last-good",
            description = "On a damaged or missing delta, restore up to the revision before it instead of failing.")
    boolean toLastGood;

    private final CliContext ctx;

    RestoreCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        RestoreFlags flags = new RestoreFlags(targetClaim, dataDir, name, initialCluster, initialClusterToken,
                initialAdvertisePeerUrls, skipHashCheck, force, embeddedEtcdQuotaBytes, maxFetchers, toRevision, toTime,
                toLastGood);
        JobRequest request = new JobRequest(WorkerKind.RESTORE, pod.etcd, cluster.namespace(ctx, run.dryRun), pod.image,
                store.toStoreRef(), pod.resources(), defrag.toFlags(), flags, null, pod.deadline, pod.backoffLimit,
                pod.ttlAfterFinished, pod.owner(), pod.serviceAccount, pod.placement());
        return JobRun.run(ctx, cluster, run, stuck, request);
    }
}
