package io.etcdworkers.testsupport;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * An etcd the tests start themselves on an existing data dir, to see what it serves: a child
 * process on free 127.0.0.1 ports, its log in a dir the caller names, nothing of the test JVM's
 * environment (etcd reads {@code ETCD_*} variables for every flag not given). It is written from
 * etcd's own flags, not with the worker's {@code EmbeddedEtcd}, so what a test reads does not
 * depend on the code under test. {@link #close()} stops it; a shutdown hook does the same if the
 * test JVM ends first.
 */
final class EtcdProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int START_ATTEMPTS = 3;

    private final ChildServer server;
    private final URI clientUrl;

    private EtcdProcess(ChildServer server, URI clientUrl) {
        this.server = server;
        this.clientUrl = clientUrl;
    }

    /**
     * Starts {@code etcd} on {@code dataDir} (which must hold a member: an empty dir would become
     * a new, empty cluster) and waits until {@code /health} says healthy. A port taken between
     * choosing and binding it is retried with other ports.
     */
    static EtcdProcess start(EtcdInstall etcd, Path dataDir, Path logDir) {
        if (!Files.isDirectory(dataDir.resolve("member"))) {
            throw new IllegalStateException(dataDir + " holds no etcd member (no member/ dir)");
        }
        for (int attempt = 1; ; attempt++) {
            Path log = logDir.resolve("etcd-" + attempt + ".log");
            try {
                return startOnce(etcd, dataDir, log);
            } catch (IllegalStateException e) {
                if (attempt >= START_ATTEMPTS || !ChildServer.logTail(log).contains("address already in use")) {
                    throw e;
                }
            }
        }
    }

    /** {@code http://127.0.0.1:PORT}, for {@code etcdctl --endpoints}. */
    URI clientUrl() {
        return clientUrl;
    }

    /** The etcd process's pid. */
    long pid() {
        return server.pid();
    }

    @Override
    public void close() {
        server.close();
    }

    private static EtcdProcess startOnce(EtcdInstall etcd, Path dataDir, Path log) {
        URI client = URI.create("http://127.0.0.1:" + ChildServer.freeLoopbackPort());
        URI peer = URI.create("http://127.0.0.1:" + ChildServer.freeLoopbackPort());
        ProcessBuilder builder = new ProcessBuilder(List.of(
                etcd.etcd().toString(),
                "--name=reader",
                "--data-dir=" + dataDir,
                "--listen-client-urls=" + client,
                "--advertise-client-urls=" + client,
                "--listen-peer-urls=" + peer,
                "--initial-advertise-peer-urls=" + peer,
                "--initial-cluster=reader=" + peer,
                "--initial-cluster-token=reader",
                "--logger=zap",
                "--log-level=warn",
                "--log-outputs=stderr"));
        builder.environment().clear();
        ChildServer server = ChildServer.start(
                "etcd " + etcd.version() + " on " + dataDir,
                builder,
                log,
                START_TIMEOUT,
                STOP_TIMEOUT,
                () -> ChildServer.get(client.resolve("/health"))
                        .filter(a -> a.status() == 200 && a.body().contains("\"health\":\"true\""))
                        .isPresent());
        return new EtcdProcess(server, client);
    }
}
