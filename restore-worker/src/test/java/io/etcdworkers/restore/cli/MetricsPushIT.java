package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --metrics-pushgateway}: a run's figures reach a real Prometheus Pushgateway (Debian's
 * {@code prometheus-pushgateway}, on loopback), which then serves them for Prometheus to scrape:
 * a passing check and a failing one, each under its kind and the pod's name.
 */
@Timeout(120)
class MetricsPushIT {
    private static final Path BINARY = Path.of("/usr/bin/prometheus-pushgateway");

    @TempDir
    Path dir;

    @Test
    void theFiguresOfAPassedAndAFailedRunAreServedByTheGateway() throws Exception {
        assumeTrue(
                Files.isExecutable(BINARY),
                "prometheus-pushgateway is not installed (.ci/run installs it): "
                        + "the push is not tested against a real gateway here");
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        Process gateway = new ProcessBuilder(BINARY.toString(), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("gateway.log").toFile())
                .start();
        try {
            String url = "http://127.0.0.1:" + port;
            awaitReady(url);
            CommandRun ok = CommandRun.run(
                    WorkerContext::new,
                    RestoreWorkerCommand::run,
                    Map.of("PATH", System.getenv("PATH"), "POD_NAME", "etcd-main-verify-1"),
                    dir,
                    "verify-backup",
                    "--store-container",
                    Fixtures.bucket("gzip").toString(),
                    "--metrics-pushgateway",
                    url);
            assertThat(ok.exitCode()).as(ok.stderr()).isZero();
            CommandRun bad = CommandRun.run(
                    WorkerContext::new,
                    RestoreWorkerCommand::run,
                    Map.of("PATH", System.getenv("PATH"), "POD_NAME", "etcd-main-restore-2"),
                    dir,
                    "restore",
                    "--store-container",
                    Files.createDirectories(dir.resolve("empty-bucket")).toString(),
                    "--data-dir",
                    dir.resolve("d").toString(),
                    "--metrics-pushgateway",
                    url);
            assertThat(bad.exitCode()).isEqualTo(10);

            String metrics = get(url + "/metrics");
            assertThat(metrics)
                    .contains(
                            "etcdworkers_run_succeeded{error_code=\"none\",instance=\"etcd-main-verify-1\",job=\"etcd-workers\","
                                    + "kind=\"verify-backup\",outcome=\"succeeded\"} 1",
                            "etcdworkers_run_restorable_revision{error_code=\"none\",instance=\"etcd-main-verify-1\","
                                    + "job=\"etcd-workers\",kind=\"verify-backup\",outcome=\"succeeded\"} 3656",
                            "etcdworkers_run_succeeded{error_code=\"NO_SNAPSHOTS\",instance=\"etcd-main-restore-2\","
                                    + "job=\"etcd-workers\",kind=\"restore\",outcome=\"failed\"} 0",
                            "etcdworkers_run_exit_code{error_code=\"NO_SNAPSHOTS\",instance=\"etcd-main-restore-2\","
                                    + "job=\"etcd-workers\",kind=\"restore\",outcome=\"failed\"} 10");
        } finally {
            gateway.destroy();
            if (!gateway.waitFor(10, TimeUnit.SECONDS)) {
                gateway.destroyForcibly().waitFor();
            }
        }
    }

    private static void awaitReady(String url) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> get(url + "/-/ready") != null);
    }

    private static String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(url + " answered " + r.statusCode());
        }
        return r.body();
    }
}
