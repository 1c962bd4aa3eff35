package io.etcdworkers.restore.extract;

import io.etcdworkers.rebuild.bump.RevisionBump;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import io.etcdworkers.restore.extract.encryption.EncryptionSummary;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What an extract wrote.
 *
 * @param rebuilt the verified rebuild it read from (with the offline engine: of the prefix alone)
 * @param output the placed directory
 * @param keys keys written
 * @param valueBytes their values' bytes
 * @param encodings keys by value encoding (files only)
 * @param kinds Kubernetes objects stored as protobuf, by kind (files only)
 * @param encryption values encrypted at rest: decrypted, or written as stored (files only)
 * @param phases wall time per phase
 * @param bump the revision bump written into the data dir ({@code --output-format=etcd}), when there was one
 */
public record ExtractOutcome(RebuildOutcome rebuilt, Path output, long keys, long valueBytes,
        Map<String, Long> encodings, Map<String, Long> kinds, EncryptionSummary encryption,
        Map<String, Duration> phases, Optional<RevisionBump> bump) {}
