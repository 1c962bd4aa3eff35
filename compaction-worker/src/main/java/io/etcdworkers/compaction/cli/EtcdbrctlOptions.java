package io.etcdworkers.compaction.cli;

import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.workercli.DurationConverter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The flags of {@code etcdbrctl compact} that etcd-druid's compaction Job passes and this worker
 * has no flag of its own for, so that the Job's arguments run here as they are. {@code --data-dir}
 * keeps etcdbrctl's meaning (where the compaction's etcd works: the scratch dir, unless
 * {@code --scratch-dir} is given); the others have no effect here, and {@link #notes} says why.
 */
public final class EtcdbrctlOptions {
    @Option(
            names = WorkerFlags.DATA_DIR,
            paramLabel = "DIR",
            description = "etcdbrctl's name for where the compaction's etcd works: the scratch dir when --scratch-dir "
                    + "is not given (etcd-druid passes /var/etcd/data/compaction.etcd, on the Job's emptyDir).")
    Path dataDir;

    @Option(
            names = WorkerFlags.RESTORATION_TEMP_SNAPSHOTS_DIR,
            paramLabel = "DIR",
            description =
                    "etcdbrctl's download dir for deltas; no effect here: deltas are downloaded into the scratch dir.")
    Path restorationTempSnapshotsDir;

    @Option(
            names = WorkerFlags.SNAPSTORE_TEMP_DIRECTORY,
            paramLabel = "DIR",
            description =
                    "etcdbrctl's spool dir for uploads; no effect here: the new snapshot is uploaded from the scratch dir.")
    Path snapstoreTempDirectory;

    @Option(
            names = WorkerFlags.METRICS_SCRAPE_WAIT_DURATION,
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "etcdbrctl's wait after the upload for Prometheus to scrape the pod; no effect here: this "
                    + "worker serves no metrics port (--metrics-pushgateway pushes the run's figures).")
    Duration metricsScrapeWaitDuration;

    @Option(
            names = WorkerFlags.DELTA_SNAPSHOT_LEASE_NAME,
            paramLabel = "NAME",
            description = "The delta-snapshot Lease; no effect here, as in etcdbrctl's compact (v0.41): a compaction "
                    + "takes no delta snapshot, so only the full-snapshot Lease is renewed.")
    String deltaSnapshotLeaseName;

    /** {@code --data-dir}, the scratch dir it stands for when {@code --scratch-dir} is not given. */
    public Optional<Path> dataDir() {
        return Optional.ofNullable(dataDir);
    }

    /** One line per etcdbrctl flag given that changes nothing here, saying why. */
    public List<String> notes(boolean scratchDirGiven) {
        List<String> notes = new ArrayList<>();
        if (dataDir != null && scratchDirGiven) {
            notes.add(WorkerFlags.DATA_DIR + " has no effect: " + WorkerFlags.SCRATCH_DIR + " is given");
        }
        if (restorationTempSnapshotsDir != null) {
            notes.add(WorkerFlags.RESTORATION_TEMP_SNAPSHOTS_DIR
                    + " has no effect: deltas are downloaded into the scratch dir");
        }
        if (snapstoreTempDirectory != null) {
            notes.add(WorkerFlags.SNAPSTORE_TEMP_DIRECTORY
                    + " has no effect: the new snapshot is uploaded from the scratch dir, not spooled");
        }
        if (metricsScrapeWaitDuration != null) {
            notes.add(WorkerFlags.METRICS_SCRAPE_WAIT_DURATION
                    + " has no effect: this worker serves no metrics port to scrape (--metrics-pushgateway pushes "
                    + "the run's figures)");
        }
        if (deltaSnapshotLeaseName != null) {
            notes.add(WorkerFlags.DELTA_SNAPSHOT_LEASE_NAME
                    + " has no effect: a compaction takes no delta snapshot; only the full-snapshot Lease is renewed, "
                    + "as etcdbrctl's compact does");
        }
        return notes;
    }
}
