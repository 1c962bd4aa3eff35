package io.etcdworkers.bench.generate;

import java.util.SplittableRandom;

/**
 * Kubernetes-like key names: {@code /registry/<resource>/<namespace>/<name>}, resources weighted
 * roughly as a busy cluster's (many pods, events, leases and configmaps; fewer of the rest).
 */
final class KeyNames {
    private static final String[] RESOURCES = {
        "pods",
        "pods",
        "pods",
        "events",
        "events",
        "leases",
        "configmaps",
        "configmaps",
        "secrets",
        "endpointslices",
        "services",
        "deployments",
        "replicasets",
        "serviceaccounts",
        "persistentvolumeclaims",
    };
    private static final int NAMESPACES = 64;

    private long next;

    /** A name never returned before. */
    String fresh(SplittableRandom random) {
        String resource = RESOURCES[random.nextInt(RESOURCES.length)];
        int namespace = random.nextInt(NAMESPACES);
        long id = next++;
        return "/registry/" + resource + "/ns-" + namespace + "/" + resource.charAt(0) + "-"
                + Long.toString(id * 2654435761L & 0xffffffffL, 36) + "-" + id;
    }
}
