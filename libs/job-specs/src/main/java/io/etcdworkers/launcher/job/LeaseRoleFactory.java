package io.etcdworkers.launcher.job;

import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Role (and its RoleBinding) a compaction with {@code --enable-snapshot-lease-renewal} needs:
 * {@code get} and {@code patch} on the one full-snapshot Lease, by {@code resourceNames}, so the
 * workers' account can never touch the etcd members' leases or any other Lease in the namespace.
 * The compaction worker reads the Lease and patches it ({@code edit}); it never creates, lists or
 * deletes one, since etcd-druid owns it.
 */
public final class LeaseRoleFactory {
    /** etcd-druid's full-snapshot Lease of an etcd: {@code <etcd>-full-snap}. */
    public static String druidFullSnapshotLease(String etcdName) {
        return etcdName + "-full-snap";
    }

    private LeaseRoleFactory() {}

    /** The Role's (and the binding's) name: {@code <lease>-renewal}. */
    public static String roleName(String leaseName) {
        return leaseName + "-renewal";
    }

    public static Role role(String namespace, String etcdName, String leaseName) {
        check(namespace, etcdName, leaseName);
        return new RoleBuilder()
                .withNewMetadata()
                .withName(roleName(leaseName))
                .withNamespace(namespace)
                .withLabels(labels(etcdName))
                .endMetadata()
                .addNewRule()
                .withApiGroups("coordination.k8s.io")
                .withResources("leases")
                .withResourceNames(leaseName)
                .withVerbs("get", "patch")
                .endRule()
                .build();
    }

    public static RoleBinding binding(String namespace, String etcdName, String leaseName, String serviceAccount) {
        check(namespace, etcdName, leaseName);
        RequestChecks.dnsSubdomain(RequestChecks.required(serviceAccount, "service account"), "service account");
        return new RoleBindingBuilder()
                .withNewMetadata()
                .withName(roleName(leaseName))
                .withNamespace(namespace)
                .withLabels(labels(etcdName))
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role")
                .withName(roleName(leaseName))
                .endRoleRef()
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(serviceAccount)
                .withNamespace(namespace)
                .endSubject()
                .build();
    }

    private static void check(String namespace, String etcdName, String leaseName) {
        RequestChecks.dnsLabel(RequestChecks.required(namespace, "namespace"), "namespace");
        RequestChecks.dnsSubdomain(RequestChecks.required(etcdName, "etcd name"), "etcd name");
        RequestChecks.dnsSubdomain(RequestChecks.required(leaseName, "lease name"), "lease name");
    }

    private static Map<String, String> labels(String etcdName) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(JobNames.LABEL_PART_OF, JobNames.PART_OF_VALUE);
        labels.put(JobNames.LABEL_MANAGED_BY, JobNames.MANAGED_BY_VALUE);
        labels.put(JobNames.LABEL_ETCD, JobNames.labelValue(etcdName));
        return labels;
    }
}
