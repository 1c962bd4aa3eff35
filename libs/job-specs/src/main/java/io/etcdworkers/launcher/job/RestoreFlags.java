package io.etcdworkers.launcher.job;

/**
 * What only a restore takes: the target volume and the restore worker's flags (null = left out).
 *
 * @param targetClaim               the PersistentVolumeClaim of the etcd member, mounted at
 *                                  {@link #TARGET_MOUNT_PATH} as etcd-druid mounts it
 * @param dataDir                   {@code --data-dir}, under {@link #TARGET_MOUNT_PATH}
 * @param name                      {@code --name}
 * @param initialCluster            {@code --initial-cluster}
 * @param initialClusterToken       {@code --initial-cluster-token}
 * @param initialAdvertisePeerUrls  {@code --initial-advertise-peer-urls}
 * @param skipHashCheck             {@code --skip-hash-check}
 * @param force                     {@code --force}
 * @param embeddedEtcdQuotaBytes    {@code --embedded-etcd-quota-bytes}
 * @param maxFetchers               {@code --max-fetchers}
 * @param toRevision                {@code --to-revision}: restore the state right after this revision
 * @param toTime                    {@code --to-time}: an RFC 3339 time with an offset
 * @param toLastGood                {@code --to-last-good}: stop before a damaged delta instead of failing
 */
public record RestoreFlags(
        String targetClaim,
        String dataDir,
        String name,
        String initialCluster,
        String initialClusterToken,
        String initialAdvertisePeerUrls,
        boolean skipHashCheck,
        boolean force,
        Long embeddedEtcdQuotaBytes,
        Integer maxFetchers,
        Long toRevision,
        String toTime,
        boolean toLastGood) {

    /** Where the target claim is mounted: the path etcd-druid mounts the etcd data volume at. */
    public static final String TARGET_MOUNT_PATH = "/var/etcd/data";
    public static final String DEFAULT_DATA_DIR = TARGET_MOUNT_PATH + "/new.etcd";

    public RestoreFlags {
        RequestChecks.dnsSubdomain(RequestChecks.required(targetClaim, "target claim"), "target claim");
        dataDir = dataDir == null || dataDir.isBlank() ? DEFAULT_DATA_DIR : RequestChecks.absolutePath(dataDir, "data dir");
        if (!dataDir.startsWith(TARGET_MOUNT_PATH + "/")) {
            throw new IllegalArgumentException("data dir must be under " + TARGET_MOUNT_PATH + "/ (the target claim): " + dataDir);
        }
        name = RequestChecks.blankToNull(name);
        initialCluster = RequestChecks.blankToNull(initialCluster);
        initialClusterToken = RequestChecks.blankToNull(initialClusterToken);
        initialAdvertisePeerUrls = RequestChecks.blankToNull(initialAdvertisePeerUrls);
        RequestChecks.positive(embeddedEtcdQuotaBytes, "embedded etcd quota bytes");
        if (maxFetchers != null && (maxFetchers < 1 || maxFetchers > 64)) {
            throw new IllegalArgumentException("max fetchers must be 1..64: " + maxFetchers);
        }
        RequestChecks.positive(toRevision, "to-revision");
        toTime = utcTime(toTime);
        if (toRevision != null && toTime != null) {
            throw new IllegalArgumentException("give to-revision or to-time, not both");
        }
    }

    /** An RFC 3339 time with an offset, as UTC; null stays null; anything else is refused. */
    static String utcTime(String time) {
        String t = RequestChecks.blankToNull(time);
        if (t == null) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(t).toInstant().toString();
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("to-time must be an RFC 3339 time with an offset, such as "
                    + "2026-12-01T03:04:05Z: " + t);
        }
    }

    /** A restore of the latest state. */
    public RestoreFlags(String targetClaim, String dataDir, String name, String initialCluster,
            String initialClusterToken, String initialAdvertisePeerUrls, boolean skipHashCheck, boolean force,
            Long embeddedEtcdQuotaBytes, Integer maxFetchers) {
        this(targetClaim, dataDir, name, initialCluster, initialClusterToken, initialAdvertisePeerUrls, skipHashCheck,
                force, embeddedEtcdQuotaBytes, maxFetchers, null, null, false);
    }
}
