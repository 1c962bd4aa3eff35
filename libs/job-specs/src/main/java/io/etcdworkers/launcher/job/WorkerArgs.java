package io.etcdworkers.launcher.job;

import io.etcdworkers.contract.GoDuration;
import io.etcdworkers.contract.ResultFields;
import io.etcdworkers.contract.WorkerFlags;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker's flags for a request: a pure function, so the container args are tested as a table.
 *
 * <p>Every flag is {@code --name=value} in one argument, so a value can never be taken for a flag; the
 * names are the contract's {@link WorkerFlags}, which the workers' options are declared with.
 * Nothing secret is ever an argument: credentials stay in the mounted Secret.
 */
public final class WorkerArgs {
    /** The scratch emptyDir's mount path. */
    public static final String SCRATCH_DIR = "/scratch";
    /** Where the worker writes its result; the kubelet reads it as the termination message. */
    public static final String RESULT_FILE = ResultFields.TERMINATION_LOG;
    /** Where a drill restores to: inside the scratch volume, thrown away with the pod. */
    public static final String DRILL_DATA_DIR = SCRATCH_DIR + "/drill/new.etcd";
    /** Where a Local bucket's claim is mounted; the container is a directory under it. */
    public static final String LOCAL_BUCKET_ROOT = "/var/etcd-bucket";
    /** Where a copy's Local source claim is mounted; its container is a directory under it. */
    public static final String SOURCE_LOCAL_BUCKET_ROOT = "/var/source-etcd-bucket";

    private WorkerArgs() {}

    /** The container args after {@link WorkerKind#command()}. */
    public static List<String> args(JobRequest request) {
        List<String> args = new ArrayList<>();
        store(args, request.store());
        if (request.work() instanceof CopyFlags c) {
            copy(args, c);
            return List.copyOf(args);
        }
        if (request.kind() == WorkerKind.VERIFY) {
            // verify-backup reads and checks; it runs no etcd and needs no scratch dir
            return List.copyOf(args);
        }
        args.add(flag(WorkerFlags.SCRATCH_DIR, SCRATCH_DIR));
        if (request.kind() == WorkerKind.SIZING) {
            // the base is written to the scratch volume for its keys to be counted
            args.add(WorkerFlags.ESTIMATE_MEMORY);
            return List.copyOf(args);
        }
        if (request.kind() == WorkerKind.DRILL) {
            args.add(flag(WorkerFlags.DATA_DIR, DRILL_DATA_DIR));
        }
        if (request.work() instanceof RestoreFlags r) {
            restore(args, r);
        } else if (request.work() instanceof CompactFlags c) {
            compact(args, c);
        } else if (request.work() instanceof ExtractFlags e) {
            extract(args, e);
        }
        defrag(args, request.defrag());
        return List.copyOf(args);
    }

    static void store(List<String> args, StoreRef store) {
        args.add(flag(WorkerFlags.STORAGE_PROVIDER, store.provider().name()));
        String container = store.provider() == StorageProvider.Local
                ? LOCAL_BUCKET_ROOT + "/" + store.container()
                : store.container();
        args.add(flag(WorkerFlags.STORE_CONTAINER, container));
        if (!store.prefix().isEmpty()) {
            args.add(flag(WorkerFlags.STORE_PREFIX, store.prefix()));
        }
        optional(args, WorkerFlags.STORE_ENDPOINT_OVERRIDE, store.endpointOverride());
    }

    static void restore(List<String> args, RestoreFlags r) {
        args.add(flag(WorkerFlags.DATA_DIR, r.dataDir()));
        optional(args, WorkerFlags.NAME, r.name());
        optional(args, WorkerFlags.INITIAL_CLUSTER, r.initialCluster());
        optional(args, WorkerFlags.INITIAL_CLUSTER_TOKEN, r.initialClusterToken());
        optional(args, WorkerFlags.INITIAL_ADVERTISE_PEER_URLS, r.initialAdvertisePeerUrls());
        if (r.skipHashCheck()) {
            args.add(WorkerFlags.SKIP_HASH_CHECK);
        }
        if (r.force()) {
            args.add(WorkerFlags.FORCE);
        }
        optional(args, WorkerFlags.EMBEDDED_ETCD_QUOTA_BYTES, r.embeddedEtcdQuotaBytes());
        optional(args, WorkerFlags.MAX_FETCHERS, r.maxFetchers());
        optional(args, WorkerFlags.TO_REVISION, r.toRevision());
        optional(args, WorkerFlags.TO_TIME, r.toTime());
        if (r.toLastGood()) {
            args.add(WorkerFlags.TO_LAST_GOOD);
        }
        optional(args, WorkerFlags.BUMP_REVISION, r.bumpRevision());
        if (r.markCompacted()) {
            args.add(WorkerFlags.MARK_COMPACTED);
        }
        // no --result-file: the workers write the termination message (RESULT_FILE) themselves,
        // fitted to its 4 KiB limit
    }

    static void extract(List<String> args, ExtractFlags e) {
        args.add(flag(WorkerFlags.PREFIX, e.prefix()));
        args.add(flag(WorkerFlags.OUTPUT, e.output()));
        optional(args, WorkerFlags.OUTPUT_FORMAT, e.outputFormat());
        optional(args, WorkerFlags.TO_REVISION, e.toRevision());
        optional(args, WorkerFlags.TO_TIME, e.toTime());
        if (e.toLastGood()) {
            args.add(WorkerFlags.TO_LAST_GOOD);
        }
        if (e.force()) {
            args.add(WorkerFlags.FORCE);
        }
        if (e.encryptionConfigSecret() != null) {
            // the file from the mounted Secret: the configuration itself, keys and all, is never an argument
            args.add(flag(WorkerFlags.ENCRYPTION_CONFIG, ExtractFlags.ENCRYPTION_CONFIG_FILE));
        }
    }

    static void compact(List<String> args, CompactFlags c) {
        optional(args, WorkerFlags.MIN_DELTA_REVISIONS, c.minDeltaRevisions());
        optional(args, WorkerFlags.MIN_DELTA_SNAPSHOTS, c.minDeltaSnapshots());
        optional(args, WorkerFlags.MIN_DELTA_BYTES, c.minDeltaBytes());
        optional(args, WorkerFlags.COMPRESSION_POLICY, c.compressionPolicy());
        optional(args, WorkerFlags.DEFRAGMENT, c.defragment());
        optional(
                args,
                WorkerFlags.ETCD_DEFRAG_TIMEOUT,
                c.etcdDefragTimeout() == null ? null : GoDuration.format(c.etcdDefragTimeout()));
        if (c.enableSnapshotLeaseRenewal()) {
            args.add(flag(WorkerFlags.ENABLE_SNAPSHOT_LEASE_RENEWAL, "true"));
        }
        optional(args, WorkerFlags.FULL_SNAPSHOT_LEASE_NAME, c.fullSnapshotLeaseName());
    }

    /**
     * etcdbrctl's copy flags: the source store as {@code --source-*}, a Local source on its own claim; the
     * temp directory on the scratch volume, and with {@code --compact} the rebuild's scratch dir too.
     * No defragmentation flags: a copy replays nothing.
     */
    static void copy(List<String> args, CopyFlags c) {
        args.add(flag(WorkerFlags.SNAPSTORE_TEMP_DIRECTORY, SCRATCH_DIR));
        StoreRef source = c.source();
        args.add(flag(WorkerFlags.SOURCE_STORAGE_PROVIDER, source.provider().name()));
        String container = source.provider() == StorageProvider.Local
                ? SOURCE_LOCAL_BUCKET_ROOT + "/" + source.container()
                : source.container();
        args.add(flag(WorkerFlags.SOURCE_STORE_CONTAINER, container));
        if (!source.prefix().isEmpty()) {
            args.add(flag(WorkerFlags.SOURCE_STORE_PREFIX, source.prefix()));
        }
        optional(args, WorkerFlags.SOURCE_STORE_ENDPOINT_OVERRIDE, source.endpointOverride());
        optional(args, WorkerFlags.MAX_BACKUPS_TO_COPY, c.maxBackupsToCopy());
        optional(args, WorkerFlags.MAX_BACKUP_AGE, c.maxBackupAge());
        optional(args, WorkerFlags.WAIT_FOR_FINAL_SNAPSHOT, c.waitForFinalSnapshot());
        optional(
                args,
                WorkerFlags.WAIT_FOR_FINAL_SNAPSHOT_TIMEOUT,
                c.waitForFinalSnapshotTimeout() == null ? null : GoDuration.format(c.waitForFinalSnapshotTimeout()));
        if (c.compact()) {
            args.add(WorkerFlags.COMPACT);
            // the rebuild's etcd and downloads on the scratch volume, not in the pod's small /tmp
            args.add(flag(WorkerFlags.SCRATCH_DIR, SCRATCH_DIR));
        }
    }

    static void defrag(List<String> args, DefragFlags d) {
        optional(args, WorkerFlags.ENGINE, d.engine());
        optional(args, WorkerFlags.DEFRAG_EVERY_EVENTS, d.everyEvents());
        optional(args, WorkerFlags.DEFRAG_EVERY_DELTAS, d.everyDeltas());
        optional(args, WorkerFlags.DEFRAG_DB_SIZE_BYTES, d.dbSizeBytes());
        optional(args, WorkerFlags.DEFRAG_FRAGMENTATION_RATIO, d.fragmentationRatio());
        optional(args, WorkerFlags.DEFRAG_INTERVAL, d.interval() == null ? null : GoDuration.format(d.interval()));
    }

    private static void optional(List<String> args, String name, Object value) {
        if (value != null) {
            args.add(flag(name, value.toString()));
        }
    }

    private static String flag(String name, String value) {
        return name + "=" + value;
    }
}
