package io.etcdworkers.launcher.job;

import io.etcdworkers.contract.GoDuration;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker's flags for a request: a pure function, so the container args are tested as a table.
 *
 * <p>Every flag is {@code --name=value} in one argument, so a value can never be taken for a flag.
 * Nothing secret is ever an argument: credentials stay in the mounted Secret.
 */
public final class WorkerArgs {
    /** The scratch emptyDir's mount path. */
    public static final String SCRATCH_DIR = "/scratch";
    /** Where the worker writes its result; the kubelet reads it as the termination message. */
    public static final String RESULT_FILE = "/dev/termination-log";
    /** Where a Local bucket's claim is mounted; the container is a directory under it. */
    public static final String LOCAL_BUCKET_ROOT = "/var/etcd-bucket";

    private WorkerArgs() {
    }

    /** The container args after {@link WorkerKind#command()}. */
    public static List<String> args(JobRequest request) {
        List<String> args = new ArrayList<>();
        store(args, request.store());
        args.add(flag("scratch-dir", SCRATCH_DIR));
        if (request.restore() != null) {
            restore(args, request.restore());
        }
        if (request.compact() != null) {
            compact(args, request.compact());
        }
        defrag(args, request.defrag());
        return List.copyOf(args);
    }

    static void store(List<String> args, StoreRef store) {
        args.add(flag("storage-provider", store.provider().name()));
        String container = store.provider() == StorageProvider.Local
                ? LOCAL_BUCKET_ROOT + "/" + store.container()
                : store.container();
        args.add(flag("store-container", container));
        if (!store.prefix().isEmpty()) {
            args.add(flag("store-prefix", store.prefix()));
        }
        optional(args, "store-endpoint-override", store.endpointOverride());
    }

    static void restore(List<String> args, RestoreFlags r) {
        args.add(flag("data-dir", r.dataDir()));
        optional(args, "name", r.name());
        optional(args, "initial-cluster", r.initialCluster());
        optional(args, "initial-cluster-token", r.initialClusterToken());
        optional(args, "initial-advertise-peer-urls", r.initialAdvertisePeerUrls());
        if (r.skipHashCheck()) {
            args.add("--skip-hash-check");
        }
        if (r.force()) {
            args.add("--force");
        }
        optional(args, "embedded-etcd-quota-bytes", r.embeddedEtcdQuotaBytes());
        optional(args, "max-fetchers", r.maxFetchers());
        // no --result-file: the workers write the termination message (RESULT_FILE) themselves,
        // fitted to its 4 KiB limit
    }

    static void compact(List<String> args, CompactFlags c) {
        optional(args, "min-delta-revisions", c.minDeltaRevisions());
        optional(args, "min-delta-snapshots", c.minDeltaSnapshots());
        optional(args, "min-delta-bytes", c.minDeltaBytes());
        optional(args, "compression-policy", c.compressionPolicy());
        optional(args, "defragment", c.defragment());
        optional(args, "etcd-defrag-timeout",
                c.etcdDefragTimeout() == null ? null : GoDuration.format(c.etcdDefragTimeout()));
        if (c.enableSnapshotLeaseRenewal()) {
            args.add(flag("enable-snapshot-lease-renewal", "true"));
        }
        optional(args, "full-snapshot-lease-name", c.fullSnapshotLeaseName());
    }

    static void defrag(List<String> args, DefragFlags d) {
        optional(args, "engine", d.engine());
        optional(args, "defrag-every-events", d.everyEvents());
        optional(args, "defrag-every-deltas", d.everyDeltas());
        optional(args, "defrag-db-size-bytes", d.dbSizeBytes());
        optional(args, "defrag-fragmentation-ratio", d.fragmentationRatio());
        optional(args, "defrag-interval", d.interval() == null ? null : GoDuration.format(d.interval()));
    }

    private static void optional(List<String> args, String name, Object value) {
        if (value != null) {
            args.add(flag(name, value.toString()));
        }
    }

    private static String flag(String name, String value) {
        return "--" + name + "=" + value;
    }
}
