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
    /** Retries of a failed API request (100 ms, then 200 ms apart). */
    static final int API_RETRIES = 2;

    private LauncherCli() {}

    /** The process entry: real environment, clock, stdout/stderr and kubeconfig. */
    public static int main(String[] args, Map<String, String> env) {
        ClusterConfigSource source = new ClusterConfigSource(
                env, Path.of(System.getProperty("user.home")), ClusterConfigSource.IN_CLUSTER_DIR);
        return run(
                source,
                Clock.systemUTC(),
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8),
                args);
    }

    /** {@link #main} with the configuration's origin, clock and streams given. */
    static int run(ClusterConfigSource source, Clock clock, PrintWriter out, PrintWriter err, String... args) {
        List<KubernetesClient> opened = new ArrayList<>();
        Function<String, KubernetesClient> clients = context -> {
            // fail at once, not after fabric8 retried https://kubernetes.default.svc for half a minute
            source.requireConfigured();
            // like kubectl: the kubeconfig's current (or named) context, else the in-cluster config
            Config config = Config.autoConfigure(context);
            // fabric8 retries a refused connection ten times with a doubling backoff (25 s) before it
            // says anything; two quick retries ride out a blip and an unreachable server is said at once
            config.setRequestRetryBackoffLimit(Math.min(config.getRequestRetryBackoffLimit(), API_RETRIES));
            KubernetesClient client =
                    new KubernetesClientBuilder().withConfig(config).build();
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
        return commandLine(ctx).execute(args);
    }

    /** The launcher's command tree, wired to the context. */
    static CommandLine commandLine(CliContext ctx) {
        return new CommandLine(new LauncherCommand(), new ContextFactory(ctx))
                .setDefaultValueProvider(new EnvDefaults(ctx.env()))
                .setOut(ctx.out())
                .setErr(ctx.err())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler((e, args) ->
                        report(ctx, e.getMessage(), helpLine(e.getCommandLine()), LauncherError.USAGE.exitCode()))
                .setExecutionExceptionHandler((e, commandLine, parsed) -> failure(ctx, e, commandLine));
    }

    private static int failure(CliContext ctx, Exception e, CommandLine commandLine) {
        if (e instanceof LauncherException le) {
            return report(
                    ctx, e.getMessage(), le.help().orElse(null), le.error().exitCode());
        }
        if (e instanceof IllegalArgumentException) {
            return report(ctx, e.getMessage(), helpLine(commandLine), LauncherError.USAGE.exitCode());
        }
        if (e instanceof KubernetesClientException) {
            return report(ctx, e.getMessage() + rootCause(e), null, LauncherError.KUBERNETES_API.exitCode());
        }
        int code = report(ctx, String.valueOf(e), null, 1);
        e.printStackTrace(ctx.err());
        ctx.err().flush();
        return code;
    }

    /**
     * The one place a failure is reported (components only throw): the error on one line and, when
     * there is one, what to do on the next.
     */
    private static int report(CliContext ctx, String message, String help, int code) {
        ctx.err().println("job-launcher: " + oneLine(message));
        if (help != null) {
            ctx.err().println(help);
        }
        ctx.err().flush();
        return code;
    }

    private static String helpLine(CommandLine commandLine) {
        return "Run '" + commandLine.getCommandSpec().qualifiedName() + " --help' for its options.";
    }

    private static String oneLine(String message) {
        return String.valueOf(message).strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** fabric8's message names the operation; the root cause says what went wrong (refused, TLS, DNS). */
    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? "" : " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
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
