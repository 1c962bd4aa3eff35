package io.etcdworkers.contract;

import java.util.List;

/**
 * The names of the worker flags the launcher writes into a Job's args, and the values it may give
 * the enumerated ones. The workers' picocli options are declared with these constants (compile-time
 * constants, so annotations take them), so renaming a flag on one side renames it on both; the
 * contract test parses the launcher's args with the workers' own specs.
 *
 * <p>Only flags the launcher renders, or etcd-druid's Jobs pass, are here: the workers' other flags
 * are named in one place already, their options. Names follow {@code etcdbrctl}'s where it has the
 * flag.
 */
public final class WorkerFlags {
    // store: both workers
    public static final String STORAGE_PROVIDER = "--storage-provider";
    public static final String STORE_CONTAINER = "--store-container";
    public static final String STORE_PREFIX = "--store-prefix";
    public static final String STORE_ENDPOINT_OVERRIDE = "--store-endpoint-override";

    // scratch etcd and engine: both workers
    public static final String SCRATCH_DIR = "--scratch-dir";
    public static final String EMBEDDED_ETCD_QUOTA_BYTES = "--embedded-etcd-quota-bytes";
    public static final String MAX_FETCHERS = "--max-fetchers";
    public static final String ETCD_DEFRAG_TIMEOUT = "--etcd-defrag-timeout";
    public static final String ENGINE = "--engine";

    // defragmentation policy: both workers; 0 switches a trigger off
    public static final String DEFRAG_EVERY_EVENTS = "--defrag-every-events";
    public static final String DEFRAG_EVERY_DELTAS = "--defrag-every-deltas";
    public static final String DEFRAG_DB_SIZE_BYTES = "--defrag-db-size-bytes";
    public static final String DEFRAG_FRAGMENTATION_RATIO = "--defrag-fragmentation-ratio";
    public static final String DEFRAG_INTERVAL = "--defrag-interval";

    // restore
    public static final String DATA_DIR = "--data-dir";
    public static final String NAME = "--name";
    public static final String INITIAL_CLUSTER = "--initial-cluster";
    public static final String INITIAL_CLUSTER_TOKEN = "--initial-cluster-token";
    public static final String INITIAL_ADVERTISE_PEER_URLS = "--initial-advertise-peer-urls";
    public static final String SKIP_HASH_CHECK = "--skip-hash-check";
    /** verify-backup: also estimate the memory a rebuild needs (result field {@link ResultFields#SIZE_ESTIMATE}). */
    public static final String ESTIMATE_MEMORY = "--estimate-memory";

    public static final String FORCE = "--force";
    /** Point in time: the state right after this revision. */
    public static final String TO_REVISION = "--to-revision";
    /** Point in time: the state at this RFC 3339 time (when the backup sidecar received the changes). */
    public static final String TO_TIME = "--to-time";
    /** Stop before the first damaged, missing or inconsistent delta instead of failing. */
    public static final String TO_LAST_GOOD = "--to-last-good";
    /** Raise the restored database's revision by this much, as etcdutl's {@code snapshot restore} does; 0: not at all. */
    public static final String BUMP_REVISION = "--bump-revision";
    /** Goes with {@link #BUMP_REVISION}: every revision up to the bumped one is marked compacted. */
    public static final String MARK_COMPACTED = "--mark-compacted";
    /** extract: the key prefix, its output dir and format. */
    public static final String PREFIX = "--prefix";

    public static final String OUTPUT = "--output";
    public static final String OUTPUT_FORMAT = "--output-format";
    /** extract: kube-apiserver's EncryptionConfiguration file, to decrypt values encrypted at rest. */
    public static final String ENCRYPTION_CONFIG = "--encryption-config";

    // compact
    public static final String MIN_DELTA_REVISIONS = "--min-delta-revisions";
    public static final String MIN_DELTA_SNAPSHOTS = "--min-delta-snapshots";
    public static final String MIN_DELTA_BYTES = "--min-delta-bytes";
    public static final String COMPRESSION_POLICY = "--compression-policy";
    /** Negatable on the worker ({@code --no-defragment}); takes {@code =true|false} too. */
    public static final String DEFRAGMENT = "--defragment";

    public static final String ENABLE_SNAPSHOT_LEASE_RENEWAL = "--enable-snapshot-lease-renewal";
    public static final String FULL_SNAPSHOT_LEASE_NAME = "--full-snapshot-lease-name";

    // compact: etcdbrctl's names, as etcd-druid's compaction Job passes them
    /** etcdbrctl's name for {@code --snapshot-timeout}. */
    public static final String ETCD_SNAPSHOT_TIMEOUT = "--etcd-snapshot-timeout";

    public static final String DELTA_SNAPSHOT_LEASE_NAME = "--delta-snapshot-lease-name";
    public static final String RESTORATION_TEMP_SNAPSHOTS_DIR = "--restoration-temp-snapshots-dir";
    public static final String SNAPSTORE_TEMP_DIRECTORY = "--snapstore-temp-directory";
    public static final String METRICS_SCRAPE_WAIT_DURATION = "--metrics-scrape-wait-duration";

    // copy: etcdbrctl's names; the target store takes the store flags above
    public static final String SOURCE_STORAGE_PROVIDER = "--source-storage-provider";
    public static final String SOURCE_STORE_CONTAINER = "--source-store-container";
    public static final String SOURCE_STORE_PREFIX = "--source-store-prefix";
    public static final String SOURCE_STORE_ENDPOINT_OVERRIDE = "--source-store-endpoint-override";
    public static final String MAX_BACKUPS_TO_COPY = "--max-backups-to-copy";
    public static final String MAX_BACKUP_AGE = "--max-backup-age";
    public static final String WAIT_FOR_FINAL_SNAPSHOT = "--wait-for-final-snapshot";
    public static final String WAIT_FOR_FINAL_SNAPSHOT_TIMEOUT = "--wait-for-final-snapshot-timeout";
    /** copy: one verified full snapshot of the source's latest state instead of every object. */
    public static final String COMPACT = "--compact";

    /** The values of {@link #ENGINE}. */
    public static final List<String> ENGINES = List.of("replay", "offline", "auto");
    /** The values of {@link #COMPRESSION_POLICY}. */
    public static final List<String> COMPRESSION_POLICIES = List.of("gzip", "zlib", "lzw", "none");

    private WorkerFlags() {}
}
