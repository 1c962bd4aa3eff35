package io.etcdworkers.rebuild.offline;

import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.rebuild.engine.EngineRefused;
import io.etcdworkers.rebuild.verify.WrittenKeys;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A database file's key bucket read back ({@link WrittenKeys}) on a thread of its own, while etcd
 * restores or opens the database on the other core; {@link #get()} waits for it. A file that does
 * not read as bbolt and etcd write it is a refusal (the writer's fault, or the copy's), a read
 * that fails is the disk's.
 */
final class DatabaseReadBack {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseReadBack.class);

    private final Path file;
    private final String what;
    private final FutureTask<WrittenKeys> task;

    private DatabaseReadBack(Path file, String what) {
        this.file = file;
        this.what = what;
        this.task = new FutureTask<>(() -> {
            long started = System.nanoTime();
            WrittenKeys keys = WrittenKeys.read(file);
            LOG.info(
                    "{} read back file={} entries={} hashKv={} ms={}",
                    what,
                    file,
                    keys.entries(),
                    keys.hashKvUnsigned(),
                    (System.nanoTime() - started) / 1_000_000);
            return keys;
        });
    }

    /**
     * Starts reading {@code file}.
     *
     * @param what the file's role, for the log and the errors ({@code "the placed database"})
     */
    static DatabaseReadBack start(Path file, String what) {
        DatabaseReadBack read = new DatabaseReadBack(file, what);
        Thread reader = new Thread(read.task, "read-written-database");
        reader.setDaemon(true);
        reader.start();
        return read;
    }

    WrittenKeys get() throws EngineRefused, InterruptedException {
        try {
            return task.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) {
                throw error;
            }
            // a page or an entry that is not what bbolt or etcd would write: the writer's fault
            // (or the copy's), not the disk's
            if (cause instanceof BoltFormatException
                    || cause instanceof com.google.protobuf.InvalidProtocolBufferException) {
                throw new EngineRefused(
                        ErrorCode.ETCD_FAILURE,
                        what + " " + file + " does not read back as it was " + "written: " + cause.getMessage(),
                        cause);
            }
            throw new WorkerException(
                    ErrorCode.LOCAL_IO, "cannot read back " + what + " " + file + ": " + cause.getMessage(), cause);
        }
    }

    /** Stops the read if it still runs (the verification ended without it). */
    void cancel() {
        task.cancel(true);
    }
}
