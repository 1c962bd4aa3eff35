package io.etcdworkers.launcher.job;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What a cluster needs on the Job's objects and pods that the launcher cannot know: extra labels and
 * annotations, where the pod may run, its priority and its image pull secrets.
 *
 * <p>The launcher's own labels ({@link JobNames}) and those the Job controller puts on its pods cannot
 * be set here: they find the Jobs, keep one run per target and keep the pods out of an etcd
 * PodDisruptionBudget. Gardener's network labels ({@link #GARDENER_NETWORK_LABELS}, as etcd-druid's
 * compaction Job carries) go on the pods, where NetworkPolicies select them.
 *
 * @param labels                 on the Job (CronJob) and its pods
 * @param annotations            on the Job (CronJob) and its pods
 * @param nodeSelector           the pod's {@code nodeSelector}
 * @param tolerations            {@code KEY[=VALUE][:EFFECT][:OPERATOR]} each (see {@link #toleration})
 * @param priorityClassName      the pod's {@code priorityClassName}, or null
 * @param imagePullSecrets       Secret names for the pod's {@code imagePullSecrets}
 * @param gardenerNetworkLabels  whether the pods get {@link #GARDENER_NETWORK_LABELS}
 * @param affinity               the pod's {@code affinity} (node, pod, anti-affinity), or null
 */
public record PodPlacement(
        Map<String, String> labels,
        Map<String, String> annotations,
        Map<String, String> nodeSelector,
        List<String> tolerations,
        String priorityClassName,
        List<String> imagePullSecrets,
        boolean gardenerNetworkLabels,
        Affinity affinity) {

    /** DNS, the cluster's private networks and the internet (the object store): what etcd-druid's compaction Job gets. */
    public static final Map<String, String> GARDENER_NETWORK_LABELS = Map.of(
            "networking.gardener.cloud/to-dns", "allowed",
            "networking.gardener.cloud/to-private-networks", "allowed",
            "networking.gardener.cloud/to-public-networks", "allowed");
    /** Set by the Job controller on the pods it makes; a template that sets them breaks the Job's selector. */
    static final Set<String> JOB_CONTROLLER_LABELS = Set.of(
            "job-name",
            "controller-uid",
            "batch.kubernetes.io/job-name",
            "batch.kubernetes.io/controller-uid",
            "batch.kubernetes.io/job-completion-index");

    private static final Set<String> LAUNCHER_LABELS = Set.of(
            JobNames.LABEL_NAME,
            JobNames.LABEL_INSTANCE,
            JobNames.LABEL_COMPONENT,
            JobNames.LABEL_PART_OF,
            JobNames.LABEL_MANAGED_BY,
            JobNames.LABEL_ETCD,
            JobNames.LABEL_MEMBER);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Set<String> EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    private static final Set<String> OPERATORS = Set.of("Equal", "Exists");

    /** Without affinity. */
    public PodPlacement(
            Map<String, String> labels,
            Map<String, String> annotations,
            Map<String, String> nodeSelector,
            List<String> tolerations,
            String priorityClassName,
            List<String> imagePullSecrets,
            boolean gardenerNetworkLabels) {
        this(
                labels,
                annotations,
                nodeSelector,
                tolerations,
                priorityClassName,
                imagePullSecrets,
                gardenerNetworkLabels,
                null);
    }

    public PodPlacement {
        labels = sorted(labels);
        annotations = sorted(annotations);
        nodeSelector = sorted(nodeSelector);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        imagePullSecrets = imagePullSecrets == null ? List.of() : List.copyOf(imagePullSecrets);
        priorityClassName = RequestChecks.blankToNull(priorityClassName);
        labels.forEach((k, v) -> label(k, v, "label"));
        nodeSelector.forEach((k, v) -> label(k, v, "node selector"));
        annotations.keySet().forEach(k -> key(k, "annotation"));
        for (String key : labels.keySet()) {
            if (LAUNCHER_LABELS.contains(key)) {
                throw new IllegalArgumentException(
                        "label " + key + " is the launcher's own (it finds its Jobs and keeps"
                                + " one run per etcd by it): choose another key");
            }
            if (JOB_CONTROLLER_LABELS.contains(key)) {
                throw new IllegalArgumentException(
                        "label " + key + " is set by the Job controller on its pods: choose" + " another key");
            }
        }
        tolerations.forEach(PodPlacement::toleration);
        if (priorityClassName != null) {
            RequestChecks.dnsSubdomain(priorityClassName, "priority class");
        }
        imagePullSecrets.forEach(s -> RequestChecks.dnsSubdomain(s, "image pull secret"));
        if (affinity != null
                && affinity.getAdditionalProperties() != null
                && !affinity.getAdditionalProperties().isEmpty()) {
            throw new IllegalArgumentException(
                    "affinity has fields other than nodeAffinity, podAffinity, podAntiAffinity: "
                            + new TreeSet<>(affinity.getAdditionalProperties().keySet()));
        }
    }

    /** Nothing extra. */
    public static PodPlacement none() {
        return new PodPlacement(null, null, null, null, null, null, false);
    }

    /** The launcher's labels plus the user's, for the Job or CronJob and its template metadata. */
    Map<String, String> objectLabels(Map<String, String> launcherLabels) {
        Map<String, String> all = new TreeMap<>(labels);
        all.putAll(launcherLabels);
        return all;
    }

    /** The object labels plus, when asked for, Gardener's network labels: the pods'. */
    Map<String, String> podLabels(Map<String, String> objectLabels) {
        Map<String, String> all = new TreeMap<>(objectLabels);
        if (gardenerNetworkLabels) {
            all.putAll(GARDENER_NETWORK_LABELS);
        }
        return all;
    }

    List<Toleration> podTolerations() {
        return tolerations.isEmpty()
                ? null
                : tolerations.stream().map(PodPlacement::toleration).toList();
    }

    List<LocalObjectReference> podImagePullSecrets() {
        return imagePullSecrets.isEmpty()
                ? null
                : imagePullSecrets.stream()
                        .map(n -> new LocalObjectReference(n))
                        .toList();
    }

    Map<String, String> podNodeSelector() {
        return nodeSelector.isEmpty() ? null : nodeSelector;
    }

    Map<String, String> metadataAnnotations() {
        return annotations.isEmpty() ? null : annotations;
    }

    /**
     * Parses {@code KEY[=VALUE][:EFFECT][:OPERATOR]}: EFFECT is NoSchedule, PreferNoSchedule or NoExecute
     * (none: every effect), OPERATOR Equal or Exists (default: Equal with a value, Exists without).
     * {@code dedicated=etcd:NoSchedule}, {@code node.kubernetes.io/unreachable:NoExecute},
     * {@code dedicated:Exists}.
     */
    static Toleration toleration(String spec) {
        String[] parts = RequestChecks.required(spec, "toleration").split(":", -1);
        if (parts.length > 3) {
            throw new IllegalArgumentException("toleration is KEY[=VALUE][:EFFECT][:OPERATOR]: " + spec);
        }
        String key = parts[0];
        String value = null;
        int eq = key.indexOf('=');
        if (eq >= 0) {
            value = key.substring(eq + 1);
            key = key.substring(0, eq);
        }
        String effect = null;
        String operator = null;
        for (int i = 1; i < parts.length; i++) {
            if (EFFECTS.contains(parts[i]) && effect == null && operator == null) {
                effect = parts[i];
            } else if (OPERATORS.contains(parts[i]) && operator == null) {
                operator = parts[i];
            } else {
                throw new IllegalArgumentException("toleration " + spec + ": '" + parts[i] + "' is not an effect ("
                        + String.join(", ", new TreeSet<>(EFFECTS)) + ") or an operator (Equal, Exists) in"
                        + " KEY[=VALUE][:EFFECT][:OPERATOR]");
            }
        }
        label(key, value == null ? "" : value, "toleration");
        if (operator == null) {
            operator = value == null ? "Exists" : "Equal";
        }
        if (operator.equals("Exists") && value != null) {
            throw new IllegalArgumentException("toleration " + spec + ": Exists takes no value");
        }
        return new TolerationBuilder()
                .withKey(key)
                .withOperator(operator)
                .withValue(value)
                .withEffect(effect)
                .build();
    }

    private static void label(String key, String value, String what) {
        key(key, what);
        if (value == null
                || value.length() > 63
                || !(value.isEmpty() || NAME.matcher(value).matches())) {
            throw new IllegalArgumentException(what + " " + key + ": the value must be at most 63 letters, digits,"
                    + " '-', '_' or '.', starting and ending with a letter or digit: " + value);
        }
    }

    /** A qualified name: {@code [DNS-subdomain/]name}, the name at most 63 characters. */
    private static void key(String key, String what) {
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            RequestChecks.dnsSubdomain(key.substring(0, slash), what + " prefix of " + key);
            name = key.substring(slash + 1);
        }
        if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " key must be [prefix/]name, the name at most 63 letters, digits,"
                    + " '-', '_' or '.': " + key);
        }
    }

    private static Map<String, String> sorted(Map<String, String> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(m));
    }
}
