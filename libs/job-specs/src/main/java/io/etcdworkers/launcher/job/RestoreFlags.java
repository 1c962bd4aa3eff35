package io.etcdworkers.launcher.job;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

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
 * @param bumpRevision              {@code --bump-revision}: raise the restored revision by this much (0: none);
 *                                  null: the worker's default (past the bucket's latest for a point in time)
 * @param markCompacted             {@code --mark-compacted}: required with a positive bump, refused otherwise, as etcdutl does
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
        boolean toLastGood,
        Long bumpRevision,
        boolean markCompacted)
        implements JobWork {

    /** Where the target claim is mounted: the path etcd-druid mounts the etcd data volume at. */
    public static final String TARGET_MOUNT_PATH = "/var/etcd/data";

    public static final String DEFAULT_DATA_DIR = TARGET_MOUNT_PATH + "/new.etcd";

    public RestoreFlags {
        RequestChecks.dnsSubdomain(RequestChecks.required(targetClaim, "target claim"), "target claim");
        dataDir = dataDir == null || dataDir.isBlank()
                ? DEFAULT_DATA_DIR
                : RequestChecks.absolutePath(dataDir, "data dir");
        if (!dataDir.startsWith(TARGET_MOUNT_PATH + "/")) {
            throw new IllegalArgumentException(
                    "data dir must be under " + TARGET_MOUNT_PATH + "/ (the target claim): " + dataDir);
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
        if (bumpRevision != null && bumpRevision < 0) {
            throw new IllegalArgumentException("bump-revision must not be negative: " + bumpRevision);
        }
        long bump = bumpRevision == null ? 0 : bumpRevision;
        if (bump > 0 != markCompacted) {
            throw new IllegalArgumentException("mark-compacted is required with bump-revision > 0, and only then");
        }
    }

    /** An RFC 3339 time with an offset, as UTC; null stays null; anything else is refused. */
    static String utcTime(String time) {
        String t = RequestChecks.blankToNull(time);
        if (t == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(t).toInstant().toString();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "to-time must be an RFC 3339 time with an offset, such as " + "2026-12-01T03:04:05Z: " + t);
        }
    }

    @Override
    public WorkerKind kind() {
        return WorkerKind.RESTORE;
    }

    /** A restore into {@code targetClaim}; every flag left out (the worker's default) until set. */
    public static Builder builder(String targetClaim) {
        return new Builder(targetClaim);
    }

    /** A builder holding these flags, to make a changed copy. */
    public Builder toBuilder() {
        return new Builder(targetClaim)
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

    /** Builds {@link RestoreFlags}; null leaves a flag out. */
    public static final class Builder {
        private String targetClaim;
        private String dataDir;
        private String name;
        private String initialCluster;
        private String initialClusterToken;
        private String initialAdvertisePeerUrls;
        private boolean skipHashCheck;
        private boolean force;
        private Long embeddedEtcdQuotaBytes;
        private Integer maxFetchers;
        private Long toRevision;
        private String toTime;
        private boolean toLastGood;
        private Long bumpRevision;
        private boolean markCompacted;

        private Builder(String targetClaim) {
            this.targetClaim = targetClaim;
        }

        public Builder targetClaim(String value) {
            this.targetClaim = value;
            return this;
        }

        public Builder dataDir(String value) {
            this.dataDir = value;
            return this;
        }

        public Builder name(String value) {
            this.name = value;
            return this;
        }

        public Builder initialCluster(String value) {
            this.initialCluster = value;
            return this;
        }

        public Builder initialClusterToken(String value) {
            this.initialClusterToken = value;
            return this;
        }

        public Builder initialAdvertisePeerUrls(String value) {
            this.initialAdvertisePeerUrls = value;
            return this;
        }

        public Builder skipHashCheck(boolean value) {
            this.skipHashCheck = value;
            return this;
        }

        public Builder force(boolean value) {
            this.force = value;
            return this;
        }

        public Builder embeddedEtcdQuotaBytes(Long value) {
            this.embeddedEtcdQuotaBytes = value;
            return this;
        }

        public Builder maxFetchers(Integer value) {
            this.maxFetchers = value;
            return this;
        }

        public Builder toRevision(Long value) {
            this.toRevision = value;
            return this;
        }

        public Builder toTime(String value) {
            this.toTime = value;
            return this;
        }

        public Builder toLastGood(boolean value) {
            this.toLastGood = value;
            return this;
        }

        public Builder bumpRevision(Long value) {
            this.bumpRevision = value;
            return this;
        }

        public Builder markCompacted(boolean value) {
            this.markCompacted = value;
            return this;
        }

        public RestoreFlags build() {
            return new RestoreFlags(
                    targetClaim,
                    dataDir,
                    name,
                    initialCluster,
                    initialClusterToken,
                    initialAdvertisePeerUrls,
                    skipHashCheck,
                    force,
                    embeddedEtcdQuotaBytes,
                    maxFetchers,
                    toRevision,
                    toTime,
                    toLastGood,
                    bumpRevision,
                    markCompacted);
        }
    }
}
