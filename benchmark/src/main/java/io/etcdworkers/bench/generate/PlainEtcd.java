package io.etcdworkers.bench.generate;

import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.etcd.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway single-member etcd on an empty data dir, on free loopback ports, for seeding the
 * base snapshot. (The worker's {@code EmbeddedEtcd} deliberately refuses an empty data dir.)
 * Limits are raised so a seeding transaction may carry a few hundred puts.
 */
final class PlainEtcd implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final EtcdGrpcClient client;

    private PlainEtcd(Process process, EtcdGrpcClient client) {
        this.process = process;
        this.client = client;
    }

    static PlainEtcd start(Path etcdBinary, Path dataDir, Path logFile) throws IOException, InterruptedException {
        URI clientUrl = LoopbackPorts.url(LoopbackPorts.free());
        URI peerUrl = LoopbackPorts.url(LoopbackPorts.free());
        List<String> argv = List.of(
                etcdBinary.toString(),
                "--name=seed",
                "--data-dir=" + dataDir,
                "--listen-client-urls=" + clientUrl,
                "--advertise-client-urls=" + clientUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=seed=" + peerUrl,
                "--auto-compaction-retention=0",
                "--quota-backend-bytes=" + EmbeddedEtcdConfig.DEFAULT_QUOTA_BACKEND_BYTES,
                "--max-request-bytes=" + (16 << 20),
                "--max-txn-ops=4096",
                "--logger=zap",
                "--log-level=warn",
                "--log-outputs=stderr");
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(logFile.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        Process process = pb.start();
        EtcdGrpcClient client = EtcdGrpcClient.connect(clientUrl, Duration.ofMinutes(2));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try {
                client.status();
                return new PlainEtcd(process, client);
            } catch (RuntimeException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    client.close();
                    process.destroyForcibly();
                    throw new IOException("seed etcd did not start (see " + logFile + ")", notYet);
                }
                Thread.sleep(100);
            }
        }
    }

    EtcdGrpcClient client() {
        return client;
    }

    @Override
    public void close() throws InterruptedException {
        client.close();
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
