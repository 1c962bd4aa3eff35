package io.etcdworkers.restore.cli;

import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.restore.restore.RestoreConfig;
import io.etcdworkers.restore.restore.RestoreOutcome;
import io.etcdworkers.restore.restore.RestoreService;
import io.etcdworkers.restore.store.ObjectStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code restore}: rebuilds an etcd data dir from the latest full snapshot and every delta after it. */
@Command(name = WorkerCommands.RESTORE, mixinStandardHelpOptions = true,
        description = {"Rebuilds an etcd data dir from the latest full snapshot and every delta after it, replaying the "
                + "deltas into a scratch etcd, verifying the result and placing the data dir atomically."},
        footer = {"", "Every flag has an environment twin: ETCD_WORKER_ + the flag in upper snake case.",
                "Exit codes: 0 done, 1 unexpected, 2 usage, 10 no snapshots, 11 inconsistent backup, 12 hash mismatch, "
                        + "13 corrupt object, 14 unsupported object, 15 truncated object, 20 store unavailable, "
                        + "21 store not found or denied, 22 object vanished, 30 etcd failure, 31 target not empty, "
                        + "32 etcd quota exceeded, 33 local I/O, 34 target locked, 40 interrupted."})
public final class RestoreCommand implements Callable<Integer> {
    private final WorkerContext context;

    @Mixin
    StoreOptions store = new StoreOptions();

    @Mixin
    MemberOptions member = new MemberOptions();

    @Mixin
    EtcdOptions etcd = new EtcdOptions();

    @Mixin
    DefragOptions defrag = new DefragOptions();

    @Option(names = WorkerFlags.DATA_DIR, required = true, paramLabel = "DIR",
            description = "The etcd data dir to create. Built in <data-dir>.part and renamed into place when verified.")
    Path dataDir;

    @Option(names = WorkerFlags.SKIP_HASH_CHECK, description = "Accept a full snapshot without a valid SHA-256 trailer.")
    boolean skipHashCheck;

    @Option(names = WorkerFlags.FORCE, description = "Replace an existing non-empty data dir (only once the new one is complete).")
    boolean force;

    @Option(names = "--result-file", paramLabel = "FILE", description = "Also write the result JSON to this file.")
    Path resultFile;

    public RestoreCommand(WorkerContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        return ResultRun.run(context, WorkerCommands.RESTORE, resultFile, List.of("phaseSeconds", "metaSha256", "kvSha256"), result -> {
            ResultJson.store(result, store);
            try (ObjectStore objects = new StoreFactory(context.env(), context.workingDir()).open(store)) {
                RestoreConfig config = config();
                result.put("dataDir", config.dataDir().toString());
                RestoreOutcome outcome = new RestoreService(objects, config, context.clock()).restore();
                ResultJson.succeeded(result);
                ResultJson.restore(result, outcome);
                return 0;
            }
        });
    }

    private RestoreConfig config() {
        return etcd.restoreConfig(context, store.prefix, dataDir, member.toMember(), skipHashCheck, force, defrag);
    }
}
