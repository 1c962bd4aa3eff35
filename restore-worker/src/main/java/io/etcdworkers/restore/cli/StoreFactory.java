package io.etcdworkers.restore.cli;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.store.LocalDirectoryStore;
import io.etcdworkers.restore.store.ObjectStore;
import java.nio.file.Path;
import java.util.Map;

/** Opens the store the flags describe. */
public final class StoreFactory {
    private final Map<String, String> env;
    private final Path workingDir;

    /**
     * @param env the process environment (credentials variables are read from it)
     * @param workingDir what a relative Local container is relative to
     */
    public StoreFactory(Map<String, String> env, Path workingDir) {
        this.env = Map.copyOf(env);
        this.workingDir = workingDir;
    }

    public ObjectStore open(StoreOptions options) {
        if (options.container == null || options.container.isBlank()) {
            throw new WorkerException(ErrorCode.USAGE,
                    "no store container: give --store-container (or STORAGE_CONTAINER / "
                            + EnvDefaultProvider.variableFor("--store-container") + ")");
        }
        return switch (options.provider) {
            case Local -> new LocalDirectoryStore(workingDir.resolve(options.container));
            case S3 -> throw new WorkerException(ErrorCode.USAGE, "S3 is not wired yet (env has "
                    + env.size() + " variables)");
        };
    }
}
