package io.etcdworkers.launcher.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the commands get from outside, injected so tests can swap every part.
 *
 * @param env     the environment (flag twins {@code LAUNCHER_*} are read from it)
 * @param clock   the clock that names Jobs
 * @param clients makes a client for a kubeconfig context (null = current context, or in-cluster);
 *                called only by commands that talk to the API, never by {@code --dry-run}
 * @param out     stdout: YAML and outcomes
 * @param err     stderr: progress and errors
 * @param contextNamespaces the namespace a kubeconfig context (null = current) sets, or null; read
 *                from files only, so {@code --dry-run} can use it without a client
 */
public record CliContext(
        Map<String, String> env,
        Clock clock,
        Function<String, KubernetesClient> clients,
        PrintWriter out,
        PrintWriter err,
        Function<String, String> contextNamespaces) {

    /** A context whose kubeconfig sets no namespace (tests that give {@code -n}). */
    public CliContext(
            Map<String, String> env,
            Clock clock,
            Function<String, KubernetesClient> clients,
            PrintWriter out,
            PrintWriter err) {
        this(env, clock, clients, out, err, context -> null);
    }

    public CliContext {
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        Objects.requireNonNull(contextNamespaces, "contextNamespaces");
    }
}
