package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.JobRequest;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code compact}: a Job that compacts the bucket into a new full snapshot. */
@Command(
        name = "compact",
        mixinStandardHelpOptions = true,
        description =
                "Create (or print with --dry-run) a Job that compacts an etcd's backups into a new full snapshot.")
final class CompactCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Mixin
    PodOptions pod;

    @Mixin
    StoreOptions store;

    @Mixin
    DefragOptions defrag;

    @Mixin
    CompactOptions compact;

    @Mixin
    RunOptions run;

    @Mixin
    StuckOptions stuck;

    @Mixin
    FromEtcdOptions from;

    private final CliContext ctx;

    CompactCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String namespace = from.namespace(ctx, cluster, run.dryRun);
        from.read(ctx, cluster, namespace).ifPresent(etcd -> takeFrom(etcd, pod, store, compact));
        OptionalInt sized = MemorySizing.apply(ctx, cluster, run, stuck, pod, store, namespace);
        if (sized.isPresent()) {
            return sized.getAsInt();
        }
        return JobRun.run(ctx, cluster, run, stuck, request(namespace, pod, store, defrag, compact));
    }

    /** The store and the full-snapshot Lease, as the Etcd resource gives them, where no flag did. */
    static void takeFrom(
            io.etcdworkers.launcher.kube.DruidEtcd etcd, PodOptions pod, StoreOptions store, CompactOptions compact) {
        FromEtcdOptions.applyCommon(etcd, pod, store);
        if (compact.fullSnapshotLeaseName == null) {
            compact.fullSnapshotLeaseName = etcd.fullSnapshotLeaseName();
        }
    }

    static JobRequest request(
            String namespace, PodOptions pod, StoreOptions store, DefragOptions defrag, CompactOptions compact) {
        return pod.request(namespace, store, defrag, compact.toFlags()).build();
    }
}
