package io.etcdworkers.compaction.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.compaction.lease.KubernetesClients;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.format.RestorePoint;
import io.etcdworkers.rebuild.RebuildConfig;
import io.etcdworkers.rebuild.engine.Engine;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.rebuild.replay.ReplayConfig;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upload that fails half-way (the store fails after some bytes, as a dropped connection
 * would) leaves no object under a snapshot name and fails with the store's exit code.
 */
@Timeout(300)
class UploadFailureIT {
    @TempDir
    Path dir;

    @Test
    void failedUploadLeavesNothingVisibleAndReportsAStoreFailure() throws IOException {
        Path bucket = Fixtures.copyBucket("plain", dir.resolve("bucket"));
        List<String> before = files(bucket);
        RebuildConfig rebuild = new RebuildConfig(
                "",
                EtcdMember.onFreeLoopbackPort(),
                false,
                dir.resolve("scratch"),
                Optional.empty(),
                Optional.empty(),
                System.getenv("PATH"),
                Engine.REPLAY,
                EngineSettings.defaults(),
                ReplayConfig.defaults(),
                RestorePoint.LATEST,
                KeyPrefix.ALL);
        CompactionConfig config = new CompactionConfig(
                rebuild,
                CompactionThresholds.none(),
                Optional.empty(),
                true,
                CompactionConfig.DEFAULT_SNAPSHOT_TIMEOUT,
                Optional.empty());
        ObjectStore failing = new FailingAfter(new LocalDirectoryStore(bucket), 1_000_000);

        assertThatThrownBy(() ->
                        new CompactionService(failing, config, Clock.systemUTC(), new KubernetesClients()).compact())
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
                    assertThat(e.code().exitCode()).isEqualTo(20);
                });

        assertThat(files(bucket)).isEqualTo(before);
        Processes.awaitNoneMentioning(dir);
        try (Stream<Path> scratch = Files.list(dir.resolve("scratch"))) {
            assertThat(scratch).isEmpty();
        }
    }

    private static List<String> files(Path bucket) throws IOException {
        try (Stream<Path> files = Files.walk(bucket)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> bucket.relativize(p).toString())
                    .sorted()
                    .toList();
        }
    }

    /** A store whose uploads break after {@code limit} bytes, like a connection that drops. */
    private static final class FailingAfter implements ObjectStore {
        private final ObjectStore delegate;
        private final long limit;

        FailingAfter(ObjectStore delegate, long limit) {
            this.delegate = delegate;
            this.limit = limit;
        }

        @Override
        public String describe() {
            return delegate.describe();
        }

        @Override
        public List<ObjectInfo> list(String keyPrefix) {
            return delegate.list(keyPrefix);
        }

        @Override
        public InputStream open(String key) {
            return delegate.open(key);
        }

        @Override
        public InputStream openRange(String key, long offset, long length) {
            return delegate.openRange(key, offset, length);
        }

        @Override
        public ObjectWriter create(String key) {
            ObjectWriter real = delegate.create(key);
            OutputStream breaking = new FilterOutputStream(real.out()) {
                private long written;

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    written += len;
                    if (written > limit) {
                        throw new WorkerException(
                                ErrorCode.STORE_UNAVAILABLE, "connection reset during upload of " + key);
                    }
                    out.write(b, off, len);
                }
            };
            return new ObjectWriter() {
                @Override
                public OutputStream out() {
                    return breaking;
                }

                @Override
                public ObjectInfo commit() {
                    return real.commit();
                }

                @Override
                public void close() {
                    real.close();
                }
            };
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
