package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.FaultProxy.Fault;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.S3Buckets;
import io.etcdworkers.testsupport.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.security.SecureRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command of both workers, run as the Job runs them (own JVM, DEBUG logging), with the S3
 * secret key a recognisable random value given as etcd-druid mounts it (a credentials file) and
 * as environment variables, against a working store, one that keeps failing (503) and one that
 * refuses the secret: the value never appears on stdout, stderr or in the result file.
 */
@Timeout(600)
class NoSecretInOutputIT {
    private static final String BUCKET = "backups";
    private static final String PREFIX = "etcd-main";
    private static final String SECRET = "SeCrEt" + HexFormat.of().formatHex(randomBytes());
    private static final String WRONG_SECRET = "WrOnG" + HexFormat.of().formatHex(randomBytes());

    @TempDir
    static Path dir;

    private static S3ProxyServer s3;
    private static FaultProxy working;
    private static FaultProxy failing;
    private static int runs;

    @BeforeAll
    static void stores() {
        s3 = S3ProxyServer.start(dir.resolve("s3"), SECRET);
        s3.createBucket(BUCKET);
        S3Buckets.upload(s3, BUCKET, PREFIX, Fixtures.bucket("gzip"));
        working = FaultProxy.start(s3.endpoint());
        failing = FaultProxy.start(s3.endpoint());
        failing.injectNext(Fault.status(503), FaultProxy.ALWAYS);
    }

    @AfterAll
    static void stop() {
        working.close();
        failing.close();
        s3.close();
    }

    @Test
    void helpNamesNoSecret() throws IOException {
        Map<String, String> env = fileEnv(SECRET);
        env.put("AWS_SECRET_ACCESS_KEY", SECRET);
        for (String[] args : List.of(new String[] {"restore", "--help"}, new String[] {"verify-backup", "--help"},
                new String[] {}, new String[] {"restore"})) {
            assertNoSecret(JarRun.run(JarRun.jar("restore.jar"), env, workDir(), List.of(), args), null);
        }
        for (String[] args : List.of(new String[] {"compact", "--help"}, new String[] {}, new String[] {"compact"})) {
            assertNoSecret(JarRun.run(JarRun.jar("worker.jar"), env, workDir(), List.of(), args), null);
        }
    }

    @Test
    void aCredentialsFileSecretNeverShows() throws IOException {
        everyCommand(fileEnv(SECRET), working, 0);
        everyCommand(fileEnv(SECRET), failing, 20);
        everyCommand(fileEnv(WRONG_SECRET), working, 21);
    }

    @Test
    void anEnvironmentSecretNeverShows() throws IOException {
        everyCommand(awsEnv(SECRET), working, 0);
        everyCommand(awsEnv(WRONG_SECRET), working, 21);
    }

    /** restore, verify-backup and compact against {@code store}; each must end with {@code exitCode}. */
    private static void everyCommand(Map<String, String> env, FaultProxy store, int exitCode) throws IOException {
        List<String> s3Flags = List.of("--storage-provider=S3", "--store-container=" + BUCKET, "--store-prefix=" + PREFIX,
                "--store-endpoint-override=" + store.endpoint());
        Path work = workDir();
        Path result = work.resolve("result.json");
        List<String> restore = new ArrayList<>(List.of("restore", "--data-dir=" + work.resolve("data/etcd"),
                "--scratch-dir=" + work.resolve("scratch"), "--result-file=" + result));
        restore.addAll(s3Flags);
        JarRun run = JarRun.run(JarRun.jar("restore.jar"), env, work, List.of(), restore.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(exitCode);
        assertNoSecret(run, result);

        List<String> verify = new ArrayList<>(List.of("verify-backup", "--result-file=" + result));
        verify.addAll(s3Flags);
        run = JarRun.run(JarRun.jar("restore.jar"), env, work, List.of(), verify.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(exitCode);
        assertNoSecret(run, result);

        List<String> compact = new ArrayList<>(List.of("compact", "--scratch-dir=" + work.resolve("scratch"),
                "--result-file=" + result));
        compact.addAll(s3Flags);
        run = JarRun.run(JarRun.jar("worker.jar"), env, work, List.of(), compact.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(exitCode);
        assertNoSecret(run, result);
    }

    private static void assertNoSecret(JarRun run, Path resultFile) throws IOException {
        assertThat(run.stdout() + run.stderr()).as("something was printed").isNotBlank();
        for (String secret : List.of(SECRET, WRONG_SECRET)) {
            assertThat(run.stdout()).doesNotContain(secret);
            assertThat(run.stderr()).doesNotContain(secret);
            if (resultFile != null) {
                assertThat(Files.readString(resultFile)).as("the result file").isNotBlank().doesNotContain(secret);
            }
        }
        if (resultFile != null) {
            Files.delete(resultFile);
        }
    }

    private static Map<String, String> fileEnv(String secret) {
        Map<String, String> env = new HashMap<>(S3Buckets.env(s3, secret, workDir().resolve("secret")));
        env.put("LOG_LEVEL", "DEBUG");
        env.put("HOME", dir.resolve("home").toString());
        return env;
    }

    private static Map<String, String> awsEnv(String secret) {
        return new HashMap<>(Map.of("PATH", System.getenv("PATH"), "LOG_LEVEL", "DEBUG", "HOME",
                dir.resolve("home").toString(), "AWS_ACCESS_KEY_ID", s3.identity(), "AWS_SECRET_ACCESS_KEY", secret,
                "AWS_REGION", s3.region().id()));
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    private static Path workDir() {
        try {
            return Files.createDirectories(dir.resolve("run-" + runs++).resolve("work"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
