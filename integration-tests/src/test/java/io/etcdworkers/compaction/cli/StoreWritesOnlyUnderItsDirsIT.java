package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.ProviderBucket;
import io.etcdworkers.testsupport.ProviderServers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link WritesOnlyUnderItsDirsIT} for the stores whose SDKs a worker loads: a compaction (it
 * lists, reads and uploads) against ABS (Azurite) and GCS (the emulator), as the Job runs it under
 * {@code strace -f}, writes only under its scratch dir and {@code java.io.tmpdir}; the working dir
 * and HOME stay empty, so no SDK keeps a cache, a config or an unpacked native library anywhere
 * else. Not S3 or Swift, to keep the class short (a Swift start alone costs more than the rest of
 * it); Swift's store is the JDK's HttpClient, no SDK.
 */
@Timeout(600)
class StoreWritesOnlyUnderItsDirsIT {
    private static final String PREFIX = "etcd-main";

    @TempDir
    static Path serverDir;

    static ProviderServers servers;

    @TempDir
    Path dir;

    @BeforeAll
    static void needsStraceAndServers() throws Exception {
        WritesOnlyUnderItsDirsIT.needsStrace();
        servers = new ProviderServers(serverDir);
    }

    @AfterAll
    static void stopServers() {
        if (servers != null) {
            servers.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ABS", "GCS"})
    void aCompactionWritesOnlyItsScratchAndTempDirs(String provider) throws IOException {
        ProviderBucket bucket = servers.bucket(provider);
        bucket.upload(PREFIX, Fixtures.bucket("gzip"));
        List<String> args = new ArrayList<>(List.of(
                "compact",
                "--storage-provider=" + bucket.druidName(),
                "--store-container=" + bucket.container(),
                "--store-prefix=" + PREFIX,
                "--scratch-dir=" + dir.resolve("scratch")));
        args.addAll(bucket.flags());

        Set<Path> written = WritesOnlyUnderItsDirsIT.traced(
                dir, bucket.env(dir.resolve("secret")), "worker.jar", args.toArray(String[]::new));

        assertThat(bucket.objects(PREFIX + "/").keySet())
                .as("the new snapshot")
                .anyMatch(k -> k.startsWith(PREFIX + "/v2/Full-00000000-00003656-"));
        WritesOnlyUnderItsDirsIT.assertOnlyUnder(
                written,
                List.of(dir.resolve("scratch").toString(), dir.resolve("tmp").toString()));
    }
}
