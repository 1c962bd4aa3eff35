package io.etcdworkers.launcher.job;

/**
 * An object the Job belongs to (e.g. the {@code Etcd} resource), so that deleting it deletes the Job.
 *
 * @param apiVersion e.g. {@code druid.gardener.cloud/v1alpha1}
 * @param kind       e.g. {@code Etcd}
 * @param name       the owner's name (same namespace as the Job)
 * @param uid        the owner's uid, as the API server reports it
 */
public record OwnerRef(String apiVersion, String kind, String name, String uid) {
    public OwnerRef {
        apiVersion = RequestChecks.required(apiVersion, "owner apiVersion");
        kind = RequestChecks.required(kind, "owner kind");
        name = RequestChecks.required(name, "owner name");
        uid = RequestChecks.required(uid, "owner uid");
    }
}
