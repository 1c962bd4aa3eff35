package io.etcdworkers.restore.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The store flags shared by every worker command, named as {@code etcdbrctl} names them so a
 * user can switch without relearning.
 */
public final class StoreOptions {

    /** The providers this worker can read; etcd-backup-restore's other names are refused clearly. */
    public enum Provider { Local, S3 }

    @Option(names = "--storage-provider", paramLabel = "Local|S3",
            description = "Where the backups are: Local (a directory) or S3 (any S3-compatible store). Default: ${DEFAULT-VALUE}.",
            defaultValue = "Local")
    public Provider provider;

    @Option(names = "--store-container", paramLabel = "NAME|DIR",
            description = "The S3 bucket, or for Local the directory holding <prefix>/v2/ (absolute or relative to the working directory). Falls back to STORAGE_CONTAINER.")
    public String container;

    @Option(names = "--store-prefix", paramLabel = "PREFIX", defaultValue = "",
            description = "Prefix of the snapshots in the container (objects are under <prefix>/v2/). Default: none.")
    public String prefix;

    @Option(names = "--store-endpoint-override", paramLabel = "URL",
            description = "Endpoint of an S3-compatible store (MinIO, Ceph, S3Proxy...). Default: AWS.")
    public String endpointOverride;

    @Option(names = "--store-request-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "S3: the longest one request may take (for a download, until its body starts; a body that "
                    + "stalls this long breaks off). A request that times out is retried like a 503. Default: 2m.")
    public Duration requestTimeout;
}
