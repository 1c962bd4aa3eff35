package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.AzuriteServer;
import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.FaultProxy.Fault;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import io.etcdworkers.testsupport.S3Buckets;
import io.etcdworkers.testsupport.S3ProxyServer;
import io.etcdworkers.testsupport.SwiftServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command of both workers, run as the Job runs them (own JVM, DEBUG logging), with the S3
 * secret key a recognisable random value given as etcd-druid mounts it (a credentials file) and
 * as environment variables, against a working store, one that keeps failing (503) and one that
 * refuses the secret: the value never appears on stdout, stderr or in the result file. The other
 * providers' secrets, each where its SDK or login handles it, one or two runs each: ABS's storage
 * key against Azurite, in a compaction (listing, reads, an upload) and refused; GCS's private key
 * where the SDK must load it (an https endpoint: the stand-in key fails to parse, exit 2); a Swift
 * password that Keystone (a stand-in answering 401) refuses. Every run is checked for every one of
 * these secrets.
 */
@Timeout(600)
class NoSecretInOutputIT {
    private static final String BUCKET = "backups";
    private static final String PREFIX = "etcd-main";
    private static final String SECRET = "SeCrEt" + HexFormat.of().formatHex(randomBytes());
    private static final String WRONG_SECRET = "WrOnG" + HexFormat.of().formatHex(randomBytes());
    /** A storage key Azurite refuses: base64, as the SDK wants a key. */
    private static final String WRONG_ABS_KEY = Base64.getEncoder().encodeToString(randomBytes());

    private static final String GCS_PRIVATE_KEY = "GcSkEy" + HexFormat.of().formatHex(randomBytes());
    private static final String SWIFT_PASSWORD = "SwIfT" + HexFormat.of().formatHex(randomBytes());
    private static final List<String> SECRETS =
            List.of(SECRET, WRONG_SECRET, AzuriteServer.KEY, WRONG_ABS_KEY, GCS_PRIVATE_KEY, SWIFT_PASSWORD);

    @TempDir
    static Path dir;

    private static S3ProxyServer s3;
    private static FaultProxy working;
    private static FaultProxy failing;
    private static AzuriteServer azurite;
    private static FaultProxy keystoneRefusing;
    private static int runs;

    @BeforeAll
    static void stores() {
        s3 = S3ProxyServer.start(dir.resolve("s3"), SECRET);
        s3.createBucket(BUCKET);
        S3Buckets.upload(s3, BUCKET, PREFIX, Fixtures.bucket("gzip"));
        working = FaultProxy.start(s3.endpoint());
        failing = FaultProxy.start(s3.endpoint());
        failing.injectNext(Fault.status(503), FaultProxy.ALWAYS);
        azurite = AzuriteServer.start(dir.resolve("azurite"));
        azurite.createContainer(BUCKET);
        azurite.upload(BUCKET, PREFIX, Fixtures.bucket("gzip"));
        // never forwards: every request, the login first, gets 401
        keystoneRefusing = FaultProxy.start(s3.endpoint());
        keystoneRefusing.injectNext(Fault.status(401), FaultProxy.ALWAYS);
    }

    @AfterAll
    static void stop() {
        // a server that never started (Azurite missing: the class is skipped) has nothing to close
        for (AutoCloseable server : new AutoCloseable[] {working, failing, keystoneRefusing, azurite, s3}) {
            if (server != null) {
                try {
                    server.close();
                } catch (Exception e) {
                    throw new IllegalStateException("cannot stop a test server", e);
                }
            }
        }
    }

    @Test
    void helpNamesNoSecret() throws IOException {
        Map<String, String> env = fileEnv(SECRET);
        env.put("AWS_SECRET_ACCESS_KEY", SECRET);
        for (String[] args : List.of(
                new String[] {"restore", "--help"},
                new String[] {"verify-backup", "--help"},
                new String[] {},
                new String[] {"restore"})) {
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

    @Test
    void anAzureStorageKeyNeverShows() throws IOException {
        List<String> abs = List.of(
                "--storage-provider=ABS",
                "--store-container=" + BUCKET,
                "--store-prefix=" + PREFIX,
                "--store-endpoint-override=" + azurite.accountUrl());
        // a compaction lists, reads and uploads through the SDK: its DEBUG log sees every kind of request
        command("worker.jar", absEnv(AzuriteServer.KEY), abs, 0, "compact");
        // refused at the first listing, which every command begins with
        JarRun refused = command("restore.jar", absEnv(WRONG_ABS_KEY), abs, 21, "verify-backup");
        assertThat(refused.stdout()).contains("access denied", "HTTP 403");
    }

    @Test
    void aGcsPrivateKeyTheSdkCannotLoadNeverShows() throws IOException {
        // https: the SDK must load the key (an http endpoint is an emulator and gets none); nothing listens there
        List<String> gcs = List.of(
                "--storage-provider=GCS",
                "--store-container=" + BUCKET,
                "--store-prefix=" + PREFIX,
                "--store-endpoint-override=https://127.0.0.1:1/storage/v1/");
        JarRun run = command("restore.jar", gcsEnv(), gcs, 2, "verify-backup");
        assertThat(run.stdout()).contains("could not be loaded by Google's SDK");
    }

    @Test
    void aSwiftPasswordKeystoneRefusesNeverShows() throws IOException {
        Map<String, String> env = new HashMap<>(SwiftServer.secretEnv(
                workDir().resolve("swift-secret"),
                Map.of(
                        "authURL",
                        keystoneRefusing.endpoint() + "/v3",
                        "domainName",
                        "Default",
                        "tenantName",
                        "etcd",
                        "username",
                        "etcd-backup",
                        "password",
                        SWIFT_PASSWORD)));
        env.putAll(debug());
        List<String> swift =
                List.of("--storage-provider=Swift", "--store-container=" + BUCKET, "--store-prefix=" + PREFIX);
        JarRun run = command("restore.jar", env, swift, 21, "verify-backup");
        assertThat(run.stdout()).contains(keystoneRefusing.endpoint() + "/v3");
    }

    /** restore, verify-backup and compact against {@code store}; each must end with {@code exitCode}. */
    private static void everyCommand(Map<String, String> env, FaultProxy store, int exitCode) throws IOException {
        everyCommand(
                env,
                List.of(
                        "--storage-provider=S3",
                        "--store-container=" + BUCKET,
                        "--store-prefix=" + PREFIX,
                        "--store-endpoint-override=" + store.endpoint()),
                exitCode);
    }

    /** restore, verify-backup and compact with {@code storeFlags}; each must end with {@code exitCode}. */
    private static void everyCommand(Map<String, String> env, List<String> storeFlags, int exitCode)
            throws IOException {
        command("restore.jar", env, storeFlags, exitCode, "restore");
        command("restore.jar", env, storeFlags, exitCode, "verify-backup");
        command("worker.jar", env, storeFlags, exitCode, "compact");
    }

    /** One command of one jar, in a fresh working dir, with a result file; it must end with {@code exitCode}. */
    private static JarRun command(
            String jar, Map<String, String> env, List<String> storeFlags, int exitCode, String command)
            throws IOException {
        Path work = workDir();
        Path result = work.resolve("result.json");
        List<String> args = new ArrayList<>(List.of(command, "--result-file=" + result));
        if (!command.equals("verify-backup")) {
            args.add("--scratch-dir=" + work.resolve("scratch"));
        }
        if (command.equals("restore")) {
            args.add("--data-dir=" + work.resolve("data/etcd"));
        }
        args.addAll(storeFlags);
        JarRun run = JarRun.run(JarRun.jar(jar), env, work, List.of(), args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(exitCode);
        assertNoSecret(run, result);
        return run;
    }

    private static void assertNoSecret(JarRun run, Path resultFile) throws IOException {
        assertThat(run.stdout() + run.stderr()).as("something was printed").isNotBlank();
        for (String secret : SECRETS) {
            assertThat(run.stdout()).doesNotContain(secret);
            assertThat(run.stderr()).doesNotContain(secret);
            if (resultFile != null) {
                assertThat(Files.readString(resultFile))
                        .as("the result file")
                        .isNotBlank()
                        .doesNotContain(secret);
            }
        }
        if (resultFile != null) {
            Files.delete(resultFile);
        }
    }

    private static Map<String, String> fileEnv(String secret) {
        Map<String, String> env =
                new HashMap<>(S3Buckets.env(s3, secret, workDir().resolve("secret")));
        env.put("LOG_LEVEL", "DEBUG");
        env.put("HOME", dir.resolve("home").toString());
        return env;
    }

    private static Map<String, String> absEnv(String key) {
        Map<String, String> env = new HashMap<>(AzuriteServer.env(key, workDir().resolve("abs-secret")));
        env.putAll(debug());
        return env;
    }

    /** A service account key in etcd-druid's layout whose private key is {@link #GCS_PRIVATE_KEY}. */
    private static Map<String, String> gcsEnv() throws IOException {
        Path credentials = Files.createDirectories(workDir().resolve("gcp")).resolve("serviceaccount.json");
        Files.writeString(
                credentials,
                "{\"type\":\"service_account\",\"project_id\":\"etcd-workers-test\","
                        + "\"private_key_id\":\"0\",\"private_key\":\"-----BEGIN PRIVATE KEY-----\\n" + GCS_PRIVATE_KEY
                        + "\\n-----END PRIVATE KEY-----\\n\",\"client_email\":\"restore@etcd-workers-test.iam.gserviceaccount.com\","
                        + "\"client_id\":\"1\",\"token_uri\":\"https://oauth2.googleapis.com/token\"}");
        Map<String, String> env = new HashMap<>(
                Map.of("PATH", System.getenv("PATH"), "GOOGLE_APPLICATION_CREDENTIALS", credentials.toString()));
        env.putAll(debug());
        return env;
    }

    private static Map<String, String> debug() {
        return Map.of("LOG_LEVEL", "DEBUG", "HOME", dir.resolve("home").toString());
    }

    private static Map<String, String> awsEnv(String secret) {
        return new HashMap<>(Map.of(
                "PATH",
                System.getenv("PATH"),
                "LOG_LEVEL",
                "DEBUG",
                "HOME",
                dir.resolve("home").toString(),
                "AWS_ACCESS_KEY_ID",
                s3.identity(),
                "AWS_SECRET_ACCESS_KEY",
                secret,
                "AWS_REGION",
                s3.region().id()));
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
            throw new UncheckedIOException(e);
        }
    }
}
