package io.etcdworkers.etcd;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.OwnerOnly;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams a running etcd's database out through {@code Maintenance.Snapshot} into a file: the
 * bbolt file etcd serves plus its 32-byte SHA-256 trailer, what {@code snapshot restore} checks
 * and what a full snapshot in the bucket holds. The compaction uploads it; the restore turns the
 * verified one into the placed data dir.
 */
public final class MaintenanceSnapshot {
    /** The compaction's default ({@code --snapshot-timeout}): an 8 GiB database at a slow disk's speed. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceSnapshot.class);

    private MaintenanceSnapshot() {}

    /**
     * Writes the snapshot to {@code file} (replacing it).
     *
     * @return the bytes written, trailer included
     * @throws WorkerException {@link ErrorCode#LOCAL_IO} when the file cannot be written; the
     *     client's own codes when etcd fails or takes longer than {@code timeout}
     */
    public static long save(EtcdGrpcClient client, Path file, Duration timeout) {
        try (OutputStream out = OwnerOnly.newOutputStream(file)) {
            long bytes = client.snapshot(out, timeout);
            LOG.atInfo()
                    .setMessage("snapshot streamed")
                    .addKeyValue("file", file)
                    .addKeyValue("bytes", bytes)
                    .log();
            return bytes;
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO, "cannot write the snapshot to " + file + ": " + e.getMessage(), e);
        }
    }
}
