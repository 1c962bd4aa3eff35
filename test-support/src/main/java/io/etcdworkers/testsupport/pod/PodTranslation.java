package io.etcdworkers.testsupport.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.testsupport.pod.KubeletVolumes.HostVolume;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod template turned into one {@code podman run}, read field by field ({@link TemplateFields}):
 * what the kubelet would act on is translated (image, command, args, environment, security
 * contexts, volumes and mounts, the memory and CPU limits, the termination message, the grace
 * period), what has no meaning on one machine is declared so in {@link #NO_MEANING} with the
 * reason, and any other field fails the translation.
 *
 * @param argv              podman's arguments ({@code run ...})
 * @param containerName     the podman container's name
 * @param podDir            the pod's directory on the host (volumes, termination message, logs)
 * @param terminationFile   the host file mounted at the container's {@code terminationMessagePath}
 * @param fallbackToLogs    {@code terminationMessagePolicy: FallbackToLogsOnError}
 * @param graceSeconds      {@code terminationGracePeriodSeconds} (30 when not rendered)
 * @param sizeLimits        each disk emptyDir with a {@code sizeLimit}: its host directory and the limit
 * @param withoutMeaning    the fields present that were declared without meaning, and why
 */
public record PodTranslation(
        List<String> argv,
        String containerName,
        Path podDir,
        Path terminationFile,
        boolean fallbackToLogs,
        long graceSeconds,
        Map<Path, String> sizeLimits,
        Map<String, String> withoutMeaning) {

    /** A field with no meaning on one machine, and why. */
    record NoMeaning(String path, String why) {}

    static final String CONTAINER = "spec.containers[0]";

    static final List<NoMeaning> NO_MEANING = List.of(
            new NoMeaning("spec.nodeSelector", "the scheduler's choice of a node; there is one node"),
            new NoMeaning("spec.affinity", "the scheduler's choice of a node; there is one node"),
            new NoMeaning("spec.tolerations", "taints the pod accepts on its node; the one node here has none"),
            new NoMeaning(
                    "spec.priorityClassName",
                    "the order in which pods are scheduled, preempted and evicted; one pod runs"),
            new NoMeaning("spec.schedulerName", "which scheduler places the pod; none places it here"),
            new NoMeaning(
                    "spec.imagePullSecrets", "registry credentials; the image is local (no registry is reachable)"),
            new NoMeaning(
                    "spec.enableServiceLinks",
                    "variables for the namespace's Services; none exist here (the API "
                            + "server's own are set either way)"),
            new NoMeaning(
                    "spec.serviceAccountName",
                    "the identity the API server authorizes the pod's token as; the "
                            + "tests' API server, when there is one, authorizes every token"),
            new NoMeaning(
                    CONTAINER + ".resources.requests.memory",
                    "the scheduler's, and the QoS class; the container's " + "memory cgroup holds the limit alone"));

    static PodTranslation translate(
            PodTemplate template,
            String podName,
            String uid,
            Path podDir,
            Map<String, Path> claims,
            Map<String, Map<String, byte[]>> secrets,
            ClusterAccess cluster) {
        TemplateFields f = new TemplateFields(template.template());
        NO_MEANING.forEach(n -> f.noMeaning(n.path(), n.why()));
        JsonNode labels = f.whole("metadata.labels");
        JsonNode annotations = f.whole("metadata.annotations");
        String restart = f.text("spec.restartPolicy");
        if (restart != null && !restart.equals("Never")) {
            throw new IllegalStateException("restartPolicy " + restart + ": only Never is run (once)");
        }
        if (f.size("spec.containers") != 1) {
            throw new IllegalStateException("one container is run; the template has " + f.size("spec.containers"));
        }
        String c = CONTAINER;
        ContainerArgs.Identity id = ContainerArgs.identity(f, c);
        Long grace = f.number("spec.terminationGracePeriodSeconds");
        mkdirs(podDir);
        Map<String, HostVolume> volumes =
                KubeletVolumes.prepare(f, podDir, claims, secrets, id.fsGroup(), id.fsGroupChangePolicy());

        String containerName = "etcd-workers-pod-" + podName + "-" + uid.substring(0, 8);
        List<String> argv = new ArrayList<>(List.of(
                "run",
                "--name=" + containerName,
                "--label=io.etcd-workers.test=pod",
                "--network=host",
                "--hostname=" + podName,
                "--stop-timeout=" + (grace == null ? 30 : grace)));
        argv.add("--pull=" + pull(f.text(c + ".imagePullPolicy")));
        argv.addAll(ContainerArgs.security(f, c, id));
        argv.addAll(ContainerArgs.resources(f, c));

        boolean automount = f.bool("spec.automountServiceAccountToken", true);
        if (automount) {
            if (cluster == null) {
                throw new IllegalStateException(
                        "the pod mounts its ServiceAccount's token (automountServiceAccountToken): "
                                + "give PodRun the API server it reaches (cluster(...))");
            }
            HostVolume token = KubeletVolumes.serviceAccount(podDir, cluster, template.namespace(), id.fsGroup());
            argv.add("--volume=" + token.dir() + ":" + ClusterAccess.SERVICE_ACCOUNT_DIR + ":ro");
        }
        PodEnvironment.PodIdentity pod =
                new PodEnvironment.PodIdentity(podName, template.namespace(), uid, labels, annotations);
        Map<String, String> env = PodEnvironment.resolve(f, c, pod, secrets, cluster);
        env.forEach((k, v) -> argv.add("--env=" + k + "=" + v));

        int mounts = f.size(c + ".volumeMounts");
        for (int i = 0; i < mounts; i++) {
            String at = c + ".volumeMounts[" + i + "]";
            String name = f.text(at + ".name");
            HostVolume volume = volumes.get(name);
            if (volume == null) {
                throw new IllegalStateException("volumeMount " + name + " names no volume of the pod");
            }
            boolean readOnly = f.bool(at + ".readOnly", false) || volume.readOnly();
            argv.add("--volume=" + volume.dir() + ":" + f.text(at + ".mountPath") + (readOnly ? ":ro" : ""));
        }
        // the API server's defaults when the template leaves them out
        String terminationPath = orDefault(f.text(c + ".terminationMessagePath"), "/dev/termination-log");
        String policy = orDefault(f.text(c + ".terminationMessagePolicy"), "File");
        Path terminationFile = terminationFile(podDir);
        argv.add("--volume=" + terminationFile + ":" + terminationPath);
        Map<Path, String> sizeLimits = new LinkedHashMap<>();
        volumes.values().stream()
                .filter(v -> v.sizeLimit() != null)
                .forEach(v -> sizeLimits.put(v.dir(), v.sizeLimit()));

        List<String> command = texts(f, c + ".command");
        List<String> args = texts(f, c + ".args");
        if (!command.isEmpty()) {
            argv.add("--entrypoint="
                    + json(command.stream()
                            .map(s -> PodEnvironment.expand(s, env))
                            .toList()));
        }
        argv.add(f.text(c + ".image"));
        args.forEach(a -> argv.add(PodEnvironment.expand(a, env)));
        f.text(c + ".name");

        List<String> unread = f.unread();
        if (!unread.isEmpty()) {
            throw new IllegalStateException("the pod template has fields this translation neither runs nor declares "
                    + "without meaning (test-support's PodTranslation): " + unread);
        }
        return new PodTranslation(
                argv,
                containerName,
                podDir,
                terminationFile,
                "FallbackToLogsOnError".equals(policy),
                grace == null ? 30 : grace,
                sizeLimits,
                f.declaredWithoutMeaning());
    }

    private static String orDefault(String value, String otherwise) {
        return value == null || value.isEmpty() ? otherwise : value;
    }

    private static String pull(String policy) {
        return switch (policy == null ? "IfNotPresent" : policy) {
            case "Always" -> "always";
            case "Never" -> "never";
            case "IfNotPresent" -> "missing";
            default -> throw new IllegalStateException("imagePullPolicy " + policy);
        };
    }

    private static List<String> texts(TemplateFields f, String path) {
        List<String> texts = new ArrayList<>();
        int n = f.size(path);
        for (int i = 0; i < n; i++) {
            texts.add(f.text(path + "[" + i + "]"));
        }
        return texts;
    }

    /**
     * The kubelet's termination message file: empty, mode 0666, so any user may write it; a container
     * run again in the same pod (same pod dir, its emptyDirs kept) starts with an empty one.
     */
    private static Path terminationFile(Path podDir) {
        try {
            Path file = Files.write(podDir.resolve("termination-log"), new byte[0]);
            Files.setAttribute(file, "unix:mode", 0666);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void mkdirs(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String json(List<String> values) {
        try {
            return new ObjectMapper().writeValueAsString(values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
