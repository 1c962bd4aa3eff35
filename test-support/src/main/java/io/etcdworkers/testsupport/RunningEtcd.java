package io.etcdworkers.testsupport;

import java.net.URI;
import java.nio.file.Path;

/**
 * A real etcd (the one on PATH) left running on an existing data dir for as long as a test needs
 * it, as an operator's etcd would be: to check what a worker does with a data dir in use. Started
 * and stopped as {@link ExpectedState}'s reader is (free 127.0.0.1 ports, healthy before it is
 * returned, stopped by {@link #close()} or when the test JVM ends).
 */
public final class RunningEtcd implements AutoCloseable {
    private final EtcdProcess process;

    private RunningEtcd(EtcdProcess process) {
        this.process = process;
    }

    /** Starts etcd on {@code dataDir} (which must hold a member), its log in {@code logDir}. */
    public static RunningEtcd start(Path dataDir, Path logDir) {
        return new RunningEtcd(EtcdProcess.start(EtcdInstall.onPath(System.getenv("PATH")), dataDir, logDir));
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return ProcessHandle.of(process.pid()).map(ProcessHandle::isAlive).orElse(false);
    }

    public URI clientUrl() {
        return process.clientUrl();
    }

    @Override
    public void close() {
        process.close();
    }
}
