package io.etcdworkers.restore.extract;

import io.etcdworkers.rebuild.bump.RevisionBump;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import io.etcdworkers.restore.RestoreOutcome;
import io.etcdworkers.restore.extract.encryption.EncryptionSummary;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** What an extract wrote: the prefix's keys as {@link AsFiles files}, or its database {@link AsDataDir as a data dir}. */
public sealed interface ExtractOutcome {

    /** The verified rebuild it read from (with the offline engine: of the prefix alone). */
    RebuildOutcome rebuilt();

    /** The placed directory. */
    Path output();

    /** Keys extracted. */
    long keys();

    /** Wall time per phase. */
    Map<String, Duration> phases();

    /** The revision bump written into the data dir ({@code --output-format=etcd}), when there was one. */
    default Optional<RevisionBump> bump() {
        return Optional.empty();
    }

    /**
     * The keys written as files ({@link OutputFormat#files}).
     *
     * @param valueBytes their values' bytes
     * @param encodings keys by value encoding
     * @param kinds Kubernetes objects stored as protobuf, by kind
     * @param encryption values encrypted at rest: decrypted, or written as stored
     */
    record AsFiles(
            RebuildOutcome rebuilt,
            Path output,
            long keys,
            long valueBytes,
            Map<String, Long> encodings,
            Map<String, Long> kinds,
            EncryptionSummary encryption,
            Map<String, Duration> phases)
            implements ExtractOutcome {}

    /** The prefix's database placed as an etcd data dir ({@link OutputFormat#etcd}), the way a restore places one. */
    record AsDataDir(RestoreOutcome restored) implements ExtractOutcome {
        @Override
        public RebuildOutcome rebuilt() {
            return restored.rebuilt();
        }

        @Override
        public Path output() {
            return restored.dataDir();
        }

        @Override
        public long keys() {
            return restored.rebuilt().digest().keys();
        }

        @Override
        public Map<String, Duration> phases() {
            return restored.phases();
        }

        @Override
        public Optional<RevisionBump> bump() {
            return restored.bump();
        }
    }
}
