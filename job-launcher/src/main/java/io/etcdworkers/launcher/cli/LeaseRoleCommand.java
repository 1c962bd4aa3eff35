package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.job.LeaseRoleFactory;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lease-role}: print the Role and RoleBinding lease renewal needs, limited to the one Lease. */
@Command(
        name = "lease-role",
        mixinStandardHelpOptions = true,
        description = {
            "Print (for kubectl apply -f -) the Role and RoleBinding a compaction with "
                    + "--enable-snapshot-lease-renewal needs: get and patch on the full-snapshot Lease only (resourceNames). "
                    + "Never contacts a cluster."
        })
final class LeaseRoleCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;

    @Option(
            names = "--etcd",
            required = true,
            description = "The etcd whose full-snapshot Lease the compaction renews.")
    String etcd;

    @Option(names = "--full-snapshot-lease-name", description = "The Lease. Default: <etcd>-full-snap, etcd-druid's.")
    String leaseName;

    @Option(
            names = "--service-account",
            required = true,
            description = "The compaction pods' ServiceAccount (the Job's --service-account) the Role is bound to.")
    String serviceAccount;

    private final CliContext ctx;

    LeaseRoleCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String namespace = cluster.namespace(ctx, true);
        String lease =
                leaseName == null || leaseName.isBlank() ? LeaseRoleFactory.druidFullSnapshotLease(etcd) : leaseName;
        JobRun.print(ctx, LeaseRoleFactory.role(namespace, etcd, lease));
        return JobRun.print(ctx, LeaseRoleFactory.binding(namespace, etcd, lease, serviceAccount));
    }
}
