package io.etcdworkers.workercli;

import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerFlags;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Gives every option an environment twin: {@code --store-prefix} is read from
 * {@code ETCD_WORKER_STORE_PREFIX} when the flag is absent. A few etcd-backup-restore variables
 * are honoured too ({@code STORAGE_CONTAINER} for {@code --store-container}). The names are the
 * contract's {@link WorkerEnv}.
 *
 * <p>The environment is injected, so tests never touch the process environment.
 */
public final class EnvDefaultProvider implements IDefaultValueProvider {
    /** Prefix of every environment twin. */
    public static final String PREFIX = WorkerEnv.FLAG_TWIN_PREFIX;

    private static final Map<String, String> FALLBACKS =
            Map.of(WorkerFlags.STORE_CONTAINER, WorkerEnv.STORAGE_CONTAINER);

    private final Map<String, String> env;

    public EnvDefaultProvider(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** The environment variable that stands in for a long option name. */
    public static String variableFor(String longOption) {
        return WorkerEnv.twinOf(longOption);
    }

    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (!(argSpec instanceof OptionSpec option)) {
            return null;
        }
        String name = option.longestName();
        String value = env.get(variableFor(name));
        if (value == null && FALLBACKS.containsKey(name)) {
            value = env.get(FALLBACKS.get(name));
        }
        return value != null ? value : option.defaultValue();
    }
}
