package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.LauncherError;
import io.etcdworkers.launcher.kube.LauncherException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * Wires picocli: injects the {@link CliContext} into the commands, reads the {@code LAUNCHER_*}
 * environment twins, and maps failures to exit codes ({@link LauncherError}; 2 for usage).
 */
public final class LauncherCli {
    private LauncherCli() {
    }

    /** The process entry: real environment, clock, stdout/stderr and kubeconfig. */
    public static int main(String[] args, Map<String, String> env) {
        ClusterConfigSource source = new ClusterConfigSource(env, Path.of(System.getProperty("user.home")),
                ClusterConfigSource.IN_CLUSTER_DIR);
        return run(source, Clock.systemUTC(), new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8), args);
    }

    /** {@link #main} with the configuration's origin, clock and streams given. */
    static int run(ClusterConfigSource source, Clock clock, PrintWriter out, PrintWriter err, String... args) {
        List<KubernetesClient> opened = new ArrayList<>();
        Function<String, KubernetesClient> clients = context -> {
            // fail at once, not after fabric8 retried https://kubernetes.default.svc for half a minute
            source.requireConfigured();
            // like kubectl: the kubeconfig's current (or named) context, else the in-cluster config
            KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.autoConfigure(context)).build();
            opened.add(client);
            return client;
        };
        try {
            return execute(new CliContext(source.env(), clock, clients, out, err, source::contextNamespace), args);
        } finally {
            opened.forEach(KubernetesClient::close);
        }
    }

    /** Runs one command line against the given context and returns the exit code. */
    public static int execute(CliContext ctx, String... args) {
        CommandLine cli = new CommandLine(new LauncherCommand(), new ContextFactory(ctx))
                .setDefaultValueProvider(new EnvDefaults(ctx.env()))
                .setOut(ctx.out())
                .setErr(ctx.err())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((e, commandLine, parsed) -> failure(ctx, e));
        return cli.execute(args);
    }

    private static int failure(CliContext ctx, Exception e) {
        int code;
        if (e instanceof LauncherException le) {
            code = le.error().exitCode();
        } else if (e instanceof IllegalArgumentException) {
            code = LauncherError.USAGE.exitCode();
        } else if (e instanceof KubernetesClientException) {
            code = LauncherError.KUBERNETES_API.exitCode();
        } else {
            code = 1;
        }
        // the one place a failure is reported; components only throw
        ctx.err().println("job-launcher: " + e.getMessage());
        if (code == 1) {
            e.printStackTrace(ctx.err());
        }
        ctx.err().flush();
        return code;
    }

    /** Creates commands with the context when they take it, like any picocli factory otherwise. */
    private record ContextFactory(CliContext ctx) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            for (Constructor<?> c : type.getDeclaredConstructors()) {
                if (c.getParameterCount() == 1 && c.getParameterTypes()[0] == CliContext.class) {
                    c.setAccessible(true);
                    return type.cast(c.newInstance(ctx));
                }
            }
            return CommandLine.defaultFactory().create(type);
        }
    }
}
