package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.ClusterRestoreRequest;
import io.etcdworkers.launcher.job.JobFactory;
import io.etcdworkers.launcher.job.JobRequest;
import io.etcdworkers.launcher.job.JobWork;
import io.etcdworkers.launcher.job.RestoreFlags;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code restore}: a Job that restores the etcd's data dir on its PVC from the bucket. */
@Command(
        name = "restore",
        mixinStandardHelpOptions = true,
        description = "Create (or print with --dry-run) a Job that restores an etcd data dir from its backups.")
final class RestoreCommand implements Callable<Integer> {
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
            names = "--target-claim",
            description =
                    "PersistentVolumeClaim of the etcd member to restore into (required " + "unless --member-claims).")
    String targetClaim;

    @Option(
            names = "--data-dir",
            defaultValue = RestoreFlags.DEFAULT_DATA_DIR,
            description = "Under /var/etcd/data/. Default: ${DEFAULT-VALUE}.")
    String dataDir;

    @Option(names = "--name", description = "Member name.")
    String name;

    @Option(names = "--initial-cluster", description = "e.g. m0=https://m0.peer:2380.")
    String initialCluster;

    @Option(
            names = "--initial-cluster-token",
            description =
                    "The cluster's --initial-cluster-token, as its members run with (the worker's default if not given).")
    String initialClusterToken;

    @Option(
            names = "--initial-advertise-peer-urls",
            description =
                    "This member's peer URL(s), as etcd's --initial-advertise-peer-urls (the worker's default if not given).")
    String initialAdvertisePeerUrls;

    @Option(
            names = "--member-claims",
            paramLabel = "NAME=CLAIM[,NAME=CLAIM...]",
            split = ",",
            description = "Restore every member of --initial-cluster: one Job per member, each into its own PVC with "
                    + "its own --name and its --initial-cluster entry as peer URL (instead of --name, --target-claim, "
                    + "--initial-advertise-peer-urls).")
    Map<String, String> memberClaims;

    @Option(names = "--skip-hash-check", description = "Do not check the snapshots' SHA-256.")
    boolean skipHashCheck;

    @Option(names = "--force", description = "Replace a data dir that is not empty.")
    boolean force;

    @Option(
            names = "--embedded-etcd-quota-bytes",
            description =
                    "Backend quota of the scratch etcd that rebuilds and verifies the data dir (exit 32 when it runs "
                            + "out; the worker's default if not given).")
    Long embeddedEtcdQuotaBytes;

    @Option(names = "--max-fetchers", description = "Deltas fetched in parallel.")
    Integer maxFetchers;

    @Option(
            names = "--to-revision",
            paramLabel = "REV",
            description = "Restore the state right after this revision instead of the latest.")
    Long toRevision;

    @Option(
            names = "--to-time",
            paramLabel = "RFC3339",
            description = "Restore the state at this time (e.g. 2026-12-01T03:04:05Z) instead of the latest.")
    String toTime;

    @Option(
            names = "--to-last-good",
            description = "On a damaged or missing delta, restore up to the revision before it instead of failing.")
    boolean toLastGood;

    @Option(
            names = "--bump-revision",
            paramLabel = "N",
            description = "Raise the restored revision by N and mark everything up to it compacted (with "
                    + "--mark-compacted), as etcdutl snapshot restore does; every member gets the same N. 0: no bump. "
                    + "Default: the worker's (a point-in-time restore is raised past the bucket's latest revision).")
    Long bumpRevision;

    @Option(
            names = "--mark-compacted",
            description = "Required with a positive --bump-revision, and only then (as etcdutl requires).")
    boolean markCompacted;

    private final CliContext ctx;

    RestoreCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String namespace = from.namespace(ctx, cluster, run.dryRun);
        from.read(ctx, cluster, namespace).ifPresent(this::takeFrom);
        OptionalInt sized = MemorySizing.apply(ctx, cluster, run, stuck, pod, store, namespace);
        if (sized.isPresent()) {
            return sized.getAsInt();
        }
        if (memberClaims != null && !memberClaims.isEmpty()) {
            return restoreEveryMember();
        }
        if (targetClaim == null) {
            throw new IllegalArgumentException("give --target-claim (or --member-claims for every member)");
        }
        return JobRun.run(ctx, cluster, run, stuck, common(flags().build()).build());
    }

    /**
     * What the Etcd resource gives: the store, and unless one member is named (--target-claim),
     * every member's claim, name and peer URL with druid's initial cluster and token.
     */
    private void takeFrom(io.etcdworkers.launcher.kube.DruidEtcd etcd) {
        FromEtcdOptions.applyCommon(etcd, pod, store);
        etcd.etcdImage().ifPresent(image -> {
            String minor = etcd.etcdMinorVersion().orElse(null);
            if (minor == null || !Set.of("3.4", "3.5").contains(minor)) {
                ctx.err()
                        .println("note: the members run " + image + (minor == null ? "" : " (etcd " + minor + ")")
                                + "; the restored data dirs are known to start on etcd 3.4 and 3.5: check that this etcd "
                                + "accepts them (the worker image's etcd writes them)");
            }
        });
        if (targetClaim == null && (memberClaims == null || memberClaims.isEmpty())) {
            if (etcd.claims().isEmpty()) {
                throw new IllegalArgumentException("Etcd " + etcd.namespace() + "/" + etcd.name() + " has 0 replicas "
                        + "(hibernated?): give --target-claim or --member-claims with --initial-cluster");
            }
            memberClaims = etcd.claims();
        }
        if (initialCluster == null) {
            initialCluster = etcd.initialCluster().orElse(null);
        }
        if (initialClusterToken == null) {
            initialClusterToken = io.etcdworkers.launcher.kube.DruidEtcd.CLUSTER_TOKEN;
        }
    }

    private RestoreFlags.Builder flags() {
        return RestoreFlags.builder(targetClaim)
                .dataDir(dataDir)
                .name(name)
                .initialCluster(initialCluster)
                .initialClusterToken(initialClusterToken)
                .initialAdvertisePeerUrls(initialAdvertisePeerUrls)
                .skipHashCheck(skipHashCheck)
                .force(force)
                .embeddedEtcdQuotaBytes(embeddedEtcdQuotaBytes)
                .maxFetchers(maxFetchers)
                .toRevision(toRevision)
                .toTime(toTime)
                .toLastGood(toLastGood)
                .bumpRevision(bumpRevision)
                .markCompacted(markCompacted);
    }

    private JobRequest.Builder common(JobWork work) {
        return pod.request(cluster.namespace(ctx, run.dryRun), store, defrag, work);
    }

    /** One Job per member of {@code --initial-cluster}, each with its own name, peer URL and claim. */
    private int restoreEveryMember() {
        if (targetClaim != null || name != null || initialAdvertisePeerUrls != null || run.jobName != null) {
            throw new IllegalArgumentException("--member-claims names every member's claim: leave out --target-claim, "
                    + "--name, --initial-advertise-peer-urls and --job-name");
        }
        ClusterRestoreRequest request = ClusterRestoreRequest.of(common(null), flags(), initialCluster, memberClaims);
        return JobRun.runAll(ctx, cluster, run, stuck, new JobFactory(ctx.clock()).build(request));
    }
}
