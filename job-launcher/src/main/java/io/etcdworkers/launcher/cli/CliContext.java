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
 */
public record CliContext(
        Map<String, String> env,
        Clock clock,
        Function<String, KubernetesClient> clients,
        PrintWriter out,
        PrintWriter err) {

    public CliContext {
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
    }
}
